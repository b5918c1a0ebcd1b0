/**
 * Scenarios generated from the scenario format itself: a fast-check arbitrary that walks the
 * JSON Schema the format publishes (src/scenario/json-schema.ts, generated from the zod
 * schema, so it follows the format as it grows) and builds a file from it. Mutants of the
 * shipped scenarios (test/helpers/mutants.ts) stay near what someone once wrote; a file built
 * from the schema reaches shapes no shipped scenario has (a closed loop behind a cache, a
 * breaker on a hedged client, a stage list in an order nobody chose). It exists for the
 * property "the validator and the runner agree" (test/helpers/runs-what-loads.ts).
 *
 * How a node becomes a value: an object gets its required keys and a random subset of its
 * optional ones (three densities: each optional key with odds 1/16, 1/6 or 1/3); a map
 * (additionalProperties) gets one to three names; a choice (oneOf / anyOf, a list of types)
 * one branch; an enum one member; a duration a unit string within 1ms..10m (now and then
 * "0s"), a rate 0.1/s..200/s, a count a small number. Names come from a pool of three, so a
 * surge, a dependency a route calls or a variant's overlay names something that exists often
 * enough, by chance; now and then a name every object inherits ("toString", "constructor")
 * instead, which the loader must refuse as a problem. The world is kept small (horizon
 * 10s..2m, few clients, low rates) so each run is cheap. Keys that read other files
 * (`observed`, `calibrate`, a `from:` config, a recorded trace) are left out: a generated
 * file has no neighbours. A few rules between keys that the schema cannot say are then
 * applied as a writer would (writersHabits), or nearly every file would be refused.
 */
import fc from 'fast-check';
import { scenarioJsonSchema } from '../../src/scenario/json-schema.js';

type JS = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JS>;
  required?: string[];
  additionalProperties?: JS | boolean;
  propertyNames?: JS;
  items?: JS;
  oneOf?: JS[];
  anyOf?: JS[];
  allOf?: JS[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
};

/** The pool every generated name is drawn from: small, so references meet their targets. */
export const NAMES = ['a', 'b', 'c'] as const;

const DURATION_PATTERN = '^\\s*(\\d+(\\.\\d+)?(ms|s|m|h|d))+\\s*$';
const RATE_PATTERN = '^\\s*\\d+(\\.\\d+)?([eE]\\d+)?\\s*/\\s*(s|sec|second|m|min|minute|h|hour|d|day)\\s*$';
const NAME_PATTERNS = new Set(['^[A-Za-z0-9][A-Za-z0-9_-]*$', '^[A-Za-z0-9][A-Za-z0-9_/-]*$', '^[a-z0-9][a-z0-9_/-]*$', '^[A-Za-z0-9_.-]+$']);
/** Top-level keys left out: they read other files. */
const LEFT_OUT_TOP = new Set(['$schema', 'observed', 'calibrate']);
/**
 * Top-level keys that only steer an experiment (what it compares and expects, where it
 * searches): the loader checks them, a run never reads them, and most drawn at random are
 * refused; only the densest third of the files has them.
 */
const EXPERIMENT_ONLY = new Set(['search', 'compare', 'expectations']);
/** Keys left out anywhere: a `from:` config file, a recorded trace's file and format. */
const LEFT_OUT_KEYS = new Set(['file', 'format', 'columns', 'select']);
/** Deep enough for every part of the format, shallow enough that a file stays small. */
const MOST_DEPTH = 9;

// A duration from 1ms to 10m: milliseconds, seconds or minutes, as a writer would say it.
const duration = fc.oneof(
  { arbitrary: fc.constant('0s'), weight: 1 }, // the edge: a zero where one may be meant
  { arbitrary: fc.integer({ min: 1, max: 999 }).map((n) => `${n}ms`), weight: 20 },
  { arbitrary: fc.integer({ min: 1, max: 59 }).map((n) => `${n}s`), weight: 20 },
  { arbitrary: fc.integer({ min: 1, max: 10 }).map((n) => `${n}m`), weight: 20 },
);
// A rate from 0.1/s to 200/s.
const rate = fc.oneof(
  fc.integer({ min: 1, max: 200 }).map((n) => `${n}/s`),
  fc.integer({ min: 6, max: 600 }).map((n) => `${n}/min`),
);
const name = fc.oneof({ arbitrary: fc.constantFrom(...NAMES), weight: 80 }, { arbitrary: fc.constantFrom('toString', 'constructor', '__proto__', 'hasOwnProperty'), weight: 1 });

function resolve(root: JS, node: JS): JS {
  let n = node;
  for (let hops = 0; n.$ref && hops < 10; hops++) {
    // A JSON pointer into the schema (#/$defs/x, or #/properties/server/... for a part reused).
    let target: unknown = root;
    for (const part of n.$ref.replace(/^#\//, '').split('/')) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      target = (target as Record<string, unknown> | undefined)?.[key];
    }
    if (!target) throw new Error(`schema-scenarios: nothing at ${n.$ref}`);
    const { $ref: _, ...rest } = n;
    n = { ...(target as JS), ...rest };
  }
  return n;
}

function numberArb(n: JS, integer: boolean): fc.Arbitrary<number> {
  const lo = n.minimum ?? (n.exclusiveMinimum !== undefined ? n.exclusiveMinimum + (integer ? 1 : 1e-3) : 0);
  const hiBound = n.maximum ?? (n.exclusiveMaximum !== undefined ? n.exclusiveMaximum - (integer ? 1 : 1e-3) : Infinity);
  // Counts stay small: a few servers, a few seeds, a handful of retries.
  const hi = Math.min(hiBound, lo + (hiBound <= 1 ? 1 : 8));
  if (integer) return fc.integer({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) });
  // Fractions in steps of a hundredth: what a writer would put, and printable exactly.
  const a = Math.ceil(lo * 100), b = Math.max(a, Math.floor(hi * 100));
  return fc.integer({ min: a, max: b }).map((k) => k / 100);
}

function stringArb(n: JS): fc.Arbitrary<string> {
  if (n.pattern === DURATION_PATTERN) return duration;
  if (n.pattern === RATE_PATTERN) return rate;
  if (n.pattern && NAME_PATTERNS.has(n.pattern)) return name;
  if (n.pattern === '^\\d+(\\.\\d+)*$') return fc.constantFrom('1', '2.1');
  if (n.pattern === '^p(100|\\d{1,2}(\\.\\d+)?)$') return fc.constantFrom('p50', 'p99', 'p99.9');
  if (n.pattern?.includes('|p\\d{1,2}')) return fc.oneof(duration, fc.constantFrom('p50', 'p99'));
  if (n.pattern?.startsWith('^(got|')) return fc.constantFrom('got', 'grpc', 'envoy', 'polly', 'resilience4j');
  if (n.pattern) return fc.constant('x'); // a pattern this walker does not know: refused or not, by chance
  return fc.oneof(name, fc.constantFrom('Generated.', ''));
}

/** The required-key choices an allOf adds ("give a or b"), and the pairs it forbids. */
function keyRules(n: JS): { oneOfRequired: string[][][]; forbiddenTogether: string[][] } {
  const oneOfRequired: string[][][] = [], forbiddenTogether: string[][] = [];
  for (const part of n.allOf ?? []) {
    if (part.oneOf) oneOfRequired.push(part.oneOf.map((b) => b.required ?? []));
    const not = part.not as JS | undefined;
    if (not?.required) forbiddenTogether.push(not.required);
  }
  return { oneOfRequired, forbiddenTogether };
}

function objectArb(root: JS, n: JS, depth: number, top: boolean, odds: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(n.properties ?? {}).filter(([k, v]) => !(top && (LEFT_OUT_TOP.has(k) || EXPERIMENT_ONLY.has(k) && odds > 3)) && !LEFT_OUT_KEYS.has(k) && !isConfigFile(root, k, v));
  const required = new Set(n.required ?? []);
  // Measured percentiles are the one way to give an empirical distribution without a file.
  if (props.some(([k]) => k === 'percentiles')) { required.add('percentiles'); props.splice(0, props.length, ...props.filter(([k]) => required.has(k))); }
  const { oneOfRequired, forbiddenTogether } = keyRules(n);
  // Past the depth guard only required keys are written: the file stays finite.
  const optional = depth >= MOST_DEPTH ? [] : props.filter(([k]) => !required.has(k)).map(([k]) => k);
  const values = Object.fromEntries(props.filter(([k]) => required.has(k) || optional.includes(k)).map(([k, v]) => [k, arb(root, v, depth + 1, false, odds)]));
  // Each optional key with probability 1/odds (fewer keys, fewer refusals, smaller worlds).
  const choice = fc.tuple(
    fc.array(fc.integer({ min: 0, max: odds - 1 }), { minLength: optional.length, maxLength: optional.length }),
    fc.array(fc.nat(), { minLength: oneOfRequired.length, maxLength: oneOfRequired.length }),
  );
  const fixed = choice.chain(([draws, picks]) => {
    const keys = new Set([...required].filter((k) => k in values));
    optional.forEach((k, i) => { if (draws[i] === 0) keys.add(k); });
    oneOfRequired.forEach((all, i) => {
      // A branch needing a key left out (a file) is not taken.
      const branches = all.filter((b) => b.every((k) => k in values));
      if (branches.length === 0) return;
      const chosen = branches[picks[i] % branches.length];
      for (const b of branches) if (b !== chosen) for (const k of b) keys.delete(k);
      for (const k of chosen) keys.add(k);
    });
    for (const pair of forbiddenTogether) if (pair.every((k) => keys.has(k))) keys.delete(pair[pair.length - 1]);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of keys) if (values[k]) model[k] = values[k];
    return fc.record(model);
  });
  const extra = n.additionalProperties;
  if (!extra || typeof extra !== 'object') return fixed;
  // Measured percentiles: p0 and p100 (the format requires them) and maybe p50, ascending.
  if (n.propertyNames?.pattern?.startsWith('^p(100')) {
    return fc.tuple(fixed, fc.uniqueArray(fc.integer({ min: 1, max: 2000 }), { minLength: 3, maxLength: 3 })).map(([a, ms]) => {
      const [p0, p50, p100] = ms.sort((x, y) => x - y);
      return { ...a, p0: `${p0}ms`, p50: `${p50}ms`, p100: `${p100}ms` };
    });
  }
  // A map of named entries: one to three names (the format's minimum and maximum kept).
  const min = Math.max(1, n.minProperties ?? 0), max = Math.min(3, n.maxProperties ?? 3);
  const keyArb = n.propertyNames?.pattern ? stringArb(n.propertyNames) : name;
  const entry = arb(root, extra, depth + 1, false, odds);
  const map = fc.uniqueArray(keyArb, { minLength: min, maxLength: Math.max(min, max) })
    .chain((keys) => fc.tuple(...keys.map((k) => entry.map((v) => [k, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));
  return fc.tuple(fixed, map).map(([a, b]) => ({ ...b, ...a }));
}

function arb(root: JS, node: JS | boolean, depth: number, top: boolean, odds: number): fc.Arbitrary<unknown> {
  if (node === true || node === false) return name;
  const n = resolve(root, node);
  if ('const' in n) return fc.constant(n.const);
  if (n.enum) return fc.constantFrom(...n.enum);
  const branches = n.oneOf ?? n.anyOf;
  if (branches) {
    // `null` (an overlay's "remove this key") is a branch like the others, but a rare one.
    // A bare number beside a unit string is accepted only to be explained ("needs a unit").
    const unitString = branches.some((b) => resolve(root, b).type === 'string' && resolve(root, b).pattern);
    const live = branches.filter((b) => {
      const r = resolve(root, b);
      return r.type !== 'null' && !isFileBranch(root, b) && !(unitString && r.type === 'number' && r.minimum === undefined && r.exclusiveMinimum === undefined);
    });
    const { oneOf: _o, anyOf: _a, ...base } = n;
    return fc.oneof(...live.map((b) => arb(root, { ...base, ...b }, depth, top, odds)));
  }
  if (Array.isArray(n.type)) {
    const types = n.type.filter((t) => t !== 'null');
    return fc.oneof(...types.map((t) => arb(root, { ...n, type: t }, depth, top, odds)));
  }
  switch (n.type) {
    case 'object': return objectArb(root, n, depth, top, odds);
    case 'array': {
      if (!n.items || depth >= MOST_DEPTH) return fc.constant([]);
      const min = n.minItems ?? 0, max = Math.min(n.maxItems ?? 3, Math.max(min, 3));
      return fc.array(arb(root, n.items, depth + 1, false, odds), { minLength: min, maxLength: max });
    }
    case 'string': return stringArb(n);
    case 'integer': return numberArb(n, true);
    case 'number': return numberArb(n, false);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    default: return name; // `{}` (anything): a name, the likeliest thing anything refers to
  }
}

/** A `from:` deployed config (a mapping naming a file) is not generated. */
function isConfigFile(root: JS, key: string, v: JS): boolean {
  const r = resolve(root, v);
  return key === 'from' && (r.type === 'object' || !!r.anyOf?.every((b) => resolve(root, b).type === 'object'));
}

/** A branch that reads another file (a recorded trace, a `from:` config) is not generated. */
function isFileBranch(root: JS, b: JS): boolean {
  const r = resolve(root, b);
  return !!r.required?.some((k) => LEFT_OUT_KEYS.has(k) || k === 'from' && r.properties?.from?.type === 'string' && !r.properties.from.pattern);
}

/** Generated scenarios, as the YAML text a writer would hand `validate` (JSON is YAML). */
export function schemaScenarios(): fc.Arbitrary<string> {
  const root = scenarioJsonSchema({ compact: true }) as JS;
  const small: JS = {
    ...root,
    properties: {
      ...root.properties,
      horizon: { type: 'string', enum: ['10s', '20s', '45s', '1m', '2m'] },
      seeds: { type: 'integer', minimum: 1, maximum: 2 },
    },
  };
  // Worlds of three densities: a sparse file is likely accepted, a dense one reaches far.
  return fc.oneof(...[16, 6, 3].map((odds) => arb(small, small, 0, true, odds))).map((doc) => JSON.stringify(writersHabits(doc as Record<string, unknown>), null, 1));
}

/** Pairs a writer puts in order: the lower bound first. */
const ORDERED = [['min', 'max'], ['minThreshold', 'maxThreshold'], ['jitterMin', 'jitterMax'], ['start', 'end'], ['from', 'to']] as const;

/** Seconds in a generated duration ("250ms", "3s", "2m"), or the number itself. */
function magnitude(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? /^(\d+)(ms|s|m)$/.exec(v) : null;
  return m ? Number(m[1]) * ({ ms: 1e-3, s: 1, m: 60 } as Record<string, number>)[m[2]] : undefined;
}

/**
 * Rules between keys that a walk of the schema cannot see and that would refuse most files,
 * applied as a writer would: a partner, and only a partner, has a contract (a population
 * with one becomes a partner, a partner without one a user); a lower bound comes before its
 * upper one (min/max, minThreshold/maxThreshold, jitterMin/jitterMax, start/end, from/to
 * are swapped when drawn the wrong way round); steps and other timed lists are in order of
 * time; a population's peopleOf or journey step names another population (a pool name, not
 * an inherited one); every declared route is called by a population; a route's fanIn is for
 * parallel calls and at most the calls it makes; an action acts at a time or on a signal
 * with one threshold. What is left is the loader's to refuse.
 */
function writersHabits(doc: Record<string, unknown>): Record<string, unknown> {
  const clients = (doc.clients ?? {}) as Record<string, Record<string, unknown>>;
  for (const [own, c] of Object.entries(clients)) {
    if (c.contract) c.role = 'partner';
    else if (c.role === 'partner') c.role = 'user';
    // A population takes its people from, or follows, another one that exists: drawn from
    // the pool it may name itself or nobody, and then names another if there is one. (An
    // inherited name, "toString", is kept: the loader must refuse it with a problem.)
    const other = Object.keys(clients).find((n) => n !== own);
    const stray = (n: unknown) => n === own || (NAMES as readonly unknown[]).includes(n) && !Object.hasOwn(clients, String(n));
    if (c.peopleOf !== undefined && stray(c.peopleOf)) c.peopleOf = other;
    const arrivals = c.arrivals as Record<string, unknown> | undefined;
    if (arrivals?.kind === 'after' && stray(arrivals.population)) {
      if (other) arrivals.population = other;
      else c.arrivals = { kind: 'constant', rate: '5/s' };
    }
  }
  // A route exists when a population calls it: each population calls one of the routes
  // declared (when it names none), and a route nobody calls is not declared.
  const server = doc.server as Record<string, unknown> | undefined;
  const routes = Object.keys((server?.routes ?? {}) as object);
  if (routes.length) {
    const called = new Set<string>();
    Object.values((doc.clients ?? {}) as Record<string, Record<string, unknown>>).forEach((c, i) => {
      const id = (c.identity ??= {}) as Record<string, unknown>;
      id.route ??= routes[i % routes.length];
      called.add(String(id.route));
    });
    for (const r of routes) if (!called.has(r)) delete (server!.routes as Record<string, unknown>)[r];
  }
  // An action acts at a fixed time, or when a signal is above or below a threshold.
  for (const a of (Array.isArray(doc.actions) ? doc.actions : []) as Record<string, unknown>[]) {
    const when = a.when as Record<string, unknown> | undefined;
    if (!when || typeof when !== 'object') continue;
    if ('at' in when || !('signal' in when)) a.when = { at: when.at ?? '5s' };
    else if ('above' in when) delete when.below;
    else if (!('below' in when)) when.above = 0.5;
  }
  const order = (v: unknown): void => {
    // Waiting for the first k calls is for calls made in parallel, k at most the calls made.
    if (v && typeof v === 'object' && 'fanIn' in v) {
      const route = v as Record<string, unknown>;
      const made = (Array.isArray(route.calls) ? route.calls.length : 0) + (Array.isArray(route.services) ? route.services.length : 0);
      if (made === 0) delete route.fanIn;
      else { route.fanOut = 'parallel'; route.fanIn = Math.min(Number(route.fanIn), made); }
    }
    // Steps, faults and the like in order of time.
    if (Array.isArray(v)) {
      if (v.every((x) => x && typeof x === 'object' && magnitude((x as Record<string, unknown>).at) !== undefined)) {
        v.sort((x, y) => magnitude(x.at)! - magnitude(y.at)!);
      }
      v.forEach(order);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const [lo, hi] of ORDERED) {
      const a = magnitude(o[lo]), b = magnitude(o[hi]);
      if (a !== undefined && b !== undefined && a > b) [o[lo], o[hi]] = [o[hi], o[lo]];
    }
    Object.values(o).forEach(order);
  };
  order(doc);
  return doc;
}
