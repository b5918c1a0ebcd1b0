/**
 * The JSON Schema of scenario files, for editors (`# yaml-language-server: $schema=...`),
 * `retrystorm schema` and docs/scenario.schema.json. It is generated from the zod schema
 * (the single source of the format) and made as strict as the loader wherever JSON Schema
 * can say it, because an editor that accepts what `validate` refuses teaches the wrong
 * thing:
 *
 * - durations and rates are strings of a pattern (the loader accepts a bare number only to
 *   explain that it needs a unit), with a message an editor shows instead of the pattern;
 * - "give either a or b" rules on the zod side (`x-exactly-one-of`, `x-at-most-one-of`
 *   markers next to their refinements) become oneOf / not over `required`;
 * - a variant's overlay is a deep-partial scenario (every mapping merges, so nothing is
 *   required; lists replace, so a list's items are whole; an optional key may be null,
 *   which removes it), without the keys that belong to the whole experiment.
 *
 * What JSON Schema cannot say (a fault after the horizon, a route nobody calls, the limits
 * on a whole experiment, what an overlay merged into its base gives) only `validate` checks.
 */
import { z } from 'zod';
import { scenarioSchema, EXPERIMENT_KEYS } from './schema.js';
import { compactSchema } from './json-schema-compact.js';

type JS = Record<string, unknown> & {
  properties?: Record<string, JS>;
  required?: string[];
  additionalProperties?: JS | boolean;
  items?: JS;
  oneOf?: JS[];
  anyOf?: JS[];
  allOf?: JS[];
};

const DURATION_PATTERN = '^\\s*(\\d+(\\.\\d+)?(ms|s|m|h|d))+\\s*$';
const RATE_PATTERN = '^\\s*\\d+(\\.\\d+)?([eE]\\d+)?\\s*/\\s*(s|sec|second|m|min|minute|h|hour|d|day)\\s*$';
const DURATION_MESSAGE = 'A duration needs a unit, in lowercase: "250ms", "30s", "12m", "1h30m", "1d".';
const RATE_MESSAGE = 'A rate is a count per unit of time, in lowercase: "800/s", "100/min", "5000/h", "2/d".';

/**
 * The format does not know the measures an expectation may name (they are the measures
 * layer's); given their keys, the schema lists them, so editors complete them and flag a
 * misspelt one.
 */
export function scenarioJsonSchema(opts: { measureKeys?: readonly string[]; docMarkers?: boolean; compact?: boolean } = {}): object {
  const root = z.toJSONSchema(scenarioSchema, { io: 'input', unrepresentable: 'any' }) as JS;
  // `x-see` ("written as server.stages[]") is for the format reference only: the reference
  // asks to keep it; validators in strict mode refuse keywords they do not know.
  // The published schema says a choice of types in strict validators' terms (the format
  // reference reads the plain `type` list).
  const strict = walk(root, (n) => {
    const out = strictNode(n);
    if (!opts.docMarkers) delete out['x-see'];
    return opts.compact ? splitTypeUnions(out) : out;
  });
  const expectation = strict.properties?.expectations?.items;
  if (opts.measureKeys && expectation?.properties && expectation.additionalProperties && typeof expectation.additionalProperties === 'object') {
    for (const key of opts.measureKeys) expectation.properties[key] = expectation.additionalProperties;
    expectation.additionalProperties = false;
  }
  const overlay = overlaySchema(strict);
  refServices(strict, overlay);
  // The overlay is one definition, referred to by every variant.
  const whole = { ...withOverlayRef(strict), $defs: { overlay } };
  // The published schema (not the tree the format reference is written from) writes each part once (json-schema-compact.ts).
  return opts.compact ? compactSchema(whole) : whole;
}

/** The keywords that apply to one JSON type only: where a node allows two types, each goes with its own. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  string: ['pattern', 'minLength', 'maxLength', 'format', 'patternErrorMessage'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/**
 * `type: [number, string]` as `anyOf` of one type each, with the keywords that apply to it: a
 * validator in strict mode (ajv's strictTypes) refuses a union of types, and a pattern beside
 * a number. What the node accepts is unchanged.
 */
function splitTypeUnions(n: JS): JS {
  if (!Array.isArray(n.type)) return n;
  const types = n.type as string[];
  const specific = new Set(types.flatMap((t) => TYPE_KEYWORDS[t] ?? []));
  const common: JS = {};
  for (const [k, v] of Object.entries(n)) if (k !== 'type' && !specific.has(k)) common[k] = v;
  const branches = types.map((t) => {
    const b: JS = { type: t };
    for (const k of TYPE_KEYWORDS[t] ?? []) if (n[k] !== undefined) b[k] = n[k];
    return b;
  });
  // Beside an anyOf of its own, the choice of type is one more rule that must hold too.
  return n.anyOf ? { ...common, allOf: [...(n.allOf ?? []), { anyOf: branches }] } : { ...common, anyOf: branches };
}

/** A copy of the tree with `f` applied to every schema node, children first. */
function walk(node: JS, f: (n: JS) => JS): JS {
  const out: JS = { ...node };
  if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, walk(v, f)]));
  if (node.additionalProperties && typeof node.additionalProperties === 'object') out.additionalProperties = walk(node.additionalProperties, f);
  if (node.items) out.items = walk(node.items, f);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) if (node[key]) out[key] = node[key]!.map((n) => walk(n, f));
  return f(out);
}

/** The markers the zod schema leaves, turned into JSON Schema. */
function strictNode(n: JS): JS {
  const out: JS = { ...n };
  const unit = out['x-unit'];
  if (unit === 'duration' || unit === 'rate') {
    delete out['x-unit'];
    delete out.anyOf;
    delete out.type;
    Object.assign(out, {
      type: 'string',
      pattern: unit === 'duration' ? DURATION_PATTERN : RATE_PATTERN,
      // Shown by yaml-language-server instead of "String does not match the pattern of …".
      patternErrorMessage: unit === 'duration' ? DURATION_MESSAGE : RATE_MESSAGE,
      errorMessage: unit === 'duration' ? DURATION_MESSAGE : RATE_MESSAGE,
    });
  }
  const exactly = out['x-exactly-one-of'] as string[][] | undefined;
  if (exactly) {
    delete out['x-exactly-one-of'];
    const names = exactly.map((keys) => keys.join(' and ')).join(' or ');
    out.allOf = [...(out.allOf ?? []), { oneOf: exactly.map((keys) => presence(keys)), errorMessage: `Give ${names}, not both.` }];
  }
  const atMost = out['x-at-most-one-of'] as string[] | undefined;
  if (atMost) {
    delete out['x-at-most-one-of'];
    out.allOf = [...(out.allOf ?? []), { not: presence(atMost), errorMessage: `Give ${atMost.join(' or ')}, not both.` }];
  }
  if (out['x-overlay']) delete out['x-overlay'];
  // What the loader fills in (a trace's parsed data) is not written: not in the file's schema.
  const loaded = Object.entries(out.properties ?? {}).filter(([, p]) => p['x-loaded']).map(([k]) => k);
  if (loaded.length > 0) {
    out.properties = Object.fromEntries(Object.entries(out.properties!).filter(([k]) => !loaded.includes(k)));
    if (out.required) out.required = out.required.filter((k) => !loaded.includes(k));
  }
  return out;
}

/**
 * "These keys are present", as a rule of its own: the keys are named under `properties` too
 * (any value, {}: the enclosing mapping says what each holds), because a validator in strict mode
 * (ajv's strictRequired) refuses a `required` that names keys its own schema does not declare.
 */
function presence(keys: string[]): JS {
  return { properties: Object.fromEntries(keys.map((k) => [k, {}])), required: keys };
}

/**
 * A service of the graph is written exactly like `server:`: its schema points at the
 * server's (in the overlay, at the overlay's server) instead of repeating it, which would
 * double the file (it passed 1 MB, more than a child process's default output buffer).
 */
function refServices(root: JS, overlay: JS): void {
  const services = root.properties?.services;
  if (services && typeof services.additionalProperties === 'object') services.additionalProperties = { $ref: '#/properties/server' };
  const partialServices = overlay.properties?.services?.anyOf?.[0];
  const entry = partialServices && typeof partialServices.additionalProperties === 'object' ? partialServices.additionalProperties : undefined;
  if (entry?.anyOf?.[0]) entry.anyOf[0] = { $ref: '#/$defs/overlay/properties/server' };
}

/** The variants' overlays point at the one overlay definition. */
function withOverlayRef(root: JS): JS {
  const variants = root.properties?.variants;
  const variant = variants && typeof variants.additionalProperties === 'object' ? variants.additionalProperties : undefined;
  const overlay = variant?.properties?.overlay;
  if (!variants || !variant || !overlay) throw new Error('the scenario schema has no variants.<name>.overlay');
  const { type: _t, propertyNames: _p, additionalProperties: _a, default: _d, ...doc } = overlay;
  return {
    ...root,
    properties: {
      ...root.properties,
      variants: { ...variants, additionalProperties: { ...variant, properties: { ...variant.properties, overlay: { ...doc, $ref: '#/$defs/overlay' } } } },
    },
  };
}

/** The scenario as an overlay writes it: the world's keys only, every mapping partial. */
function overlaySchema(root: JS): JS {
  const world = Object.fromEntries(Object.entries(root.properties ?? {}).filter(([k]) => !(EXPERIMENT_KEYS as readonly string[]).includes(k)));
  return partial({
    type: 'object',
    description: 'A variant\'s changes to the base scenario: any part of the world (clients, server, faults, horizon, measures), merged key by key; a key set to null is removed.',
    properties: world,
    required: root.required?.filter((k) => k in world),
    additionalProperties: false,
  });
}

/**
 * A mapping as an overlay may write it: no key required (the base has them), an optional
 * key may be null (removed), a record's entries may be null (a population removed), and
 * a kind-tagged union accepts a partial of any of its options (the kind may come from the
 * base). A list replaces the base's, so its items stay whole.
 */
function partial(n: JS): JS {
  const out: JS = { ...n };
  delete out.default;
  delete out.required;
  if (n.properties) {
    const required = new Set(n.required ?? []);
    out.properties = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, required.has(k) ? partial(v) : nullable(partial(v))]));
  }
  if (n.additionalProperties && typeof n.additionalProperties === 'object') out.additionalProperties = nullable(partial(n.additionalProperties));
  if (n.oneOf) {
    delete out.oneOf;
    out.anyOf = [...(n.anyOf ?? []), ...n.oneOf].map(partial);
  } else if (n.anyOf) {
    out.anyOf = n.anyOf.map(partial);
  }
  // "Give a or b" rules are about the merged result, which the overlay alone does not show.
  if (n.allOf) {
    const kept = n.allOf.filter((x) => !isPresenceRule(x));
    if (kept.length) out.allOf = kept.map(partial);
    else delete out.allOf;
  }
  // Lists (items) replace the base's list: leave them whole.
  return out;
}

function isPresenceRule(x: JS): boolean {
  const only = (o: object) => Object.keys(o).sort().join() === 'properties,required';
  return (x.oneOf?.every(only) ?? false) || (x.not !== undefined && only(x.not as object));
}

function nullable(s: JS): JS {
  const { description, ...rest } = s;
  return {
    ...(description !== undefined ? { description } : {}),
    anyOf: [rest, { type: 'null', description: 'null removes this key from the base (a default or a preset then applies)' }],
  };
}
