/**
 * What changed between two scenario files once everything that decides a run is resolved:
 * each variant's overlay merged, the schema's defaults applied, and each retry layer
 * resolved from the built-in defaults, its preset and what was written (the model's own
 * resolveLayer, so the diff reads exactly the values the simulation runs with). A change of
 * preset shows as the fields it changes; a default written out where it was implied shows
 * nothing. "clients.app.layers.http.maxAttempts 3 -> 5 (via preset got)".
 *
 * Values are shown as written where a side wrote them ("10s"), and in the format's units
 * otherwise. Descriptions and the question are left out: they change no number.
 */
import { parse, stringify } from 'yaml';
import type { LoadedScenario } from '../../scenario/load.js';
import type { LayerInput, Scenario } from '../../scenario/schema.js';
import { deepMerge } from '../../scenario/merge.js';
import { formatDuration } from '../../scenario/units.js';
import { presetLayer, resolveLayer } from '../../model/client/resolve-layer.js';

export interface ScenarioChange {
  /** The variant whose world changed; null for every variant alike, or for the experiment (seeds, sweep, expectations, compare). */
  variant: string | null;
  /** The path as a scenario writes it: clients.app.layers.http.maxAttempts. */
  path: string;
  /** As written, or in the format's units; null where the side has no such value. */
  before: string | null;
  after: string | null;
  /** Where each side's value comes from when the scenario did not write it: "preset got", "default". */
  viaBefore: string | null;
  viaAfter: string | null;
}

export interface ScenarioDiff {
  /** Variants only one side has (their worlds are not compared). */
  variantsAdded: string[];
  variantsRemoved: string[];
  changes: ScenarioChange[];
}

type Flat = Map<string, unknown>;

const SKIP = new Set(['description', 'question', '$schema', 'name']);
/** Layer fields in seconds (the resolved layer has no units left to show). */
const SECONDS = new Set(['timeout', 'deadline', 'base', 'max', 'cap', 'bound']);
const EXPERIMENT = ['seed', 'seeds', 'sweep', 'expectations', 'compare'] as const;

function flatten(value: unknown, path: string, out: Flat): Flat {
  if (Array.isArray(value)) {
    if (value.every((x) => x === null || typeof x !== 'object')) out.set(path, value);
    else value.forEach((x, i) => flatten(x, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!SKIP.has(k) && v !== undefined) flatten(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, value);
  return out;
}

/** The layer inputs of a population, by name (`retry` is the shorthand for one layer named app). */
function layerInputs(p: Scenario['clients'][string]): Record<string, LayerInput> {
  return p.layers ?? (p.retry ? { app: p.retry } : {});
}

/** A variant's world with every layer resolved as the model resolves it. */
function resolvedWorld(s: Scenario): Record<string, unknown> {
  const { sweep: _s, expectations: _e, compare: _c, seed: _d, seeds: _n, variants: _v, ...world } = s;
  const clients: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(s.clients)) {
    const { retry: _r, layers: _l, ...rest } = p;
    const layers: Record<string, unknown> = {};
    for (const [l, input] of Object.entries(layerInputs(p))) {
      const { name: _n2, ...spec } = resolveLayer(l, input);
      layers[l] = { ...(input.preset ? { preset: input.preset } : {}), ...(input.from ? { from: input.from } : {}), ...spec };
    }
    clients[name] = { ...rest, layers };
  }
  return { ...world, clients };
}

/**
 * Where a layer field's value comes from when the scenario did not write it: the deployed
 * config the layer is read from, its preset, or the built-in default. null when written (or
 * not a layer field).
 */
function viaOf(s: Scenario, path: string, raw: Flat): string | null {
  const m = /^clients\.([^.]+)\.layers\.([^.]+)\.([^.[]+)(?:\.([^.[]+))?/.exec(path);
  if (!m) return null;
  const p = Object.hasOwn(s.clients, m[1]) ? s.clients[m[1]] : undefined;
  const input = p ? layerInputs(p)[m[2]] : undefined;
  if (!input || m[3] === 'preset' || m[3] === 'from' || raw.has(path)) return null;
  const from = input.from;
  if (from) return 'envoy' in from ? `envoy ${from.envoy}${from.route ? ` route ${from.route}` : ''}` : 'grpc' in from ? `gRPC service config ${from.grpc}` : `istio ${from.istio}${from.route ? ` route ${from.route}` : ''}`;
  const field = m[3], sub = m[4];
  const preset = input.preset ? (presetLayer(input.preset) as Record<string, unknown>) : undefined;
  if (preset && preset[field] !== undefined && (sub === undefined || (preset[field] as Record<string, unknown>)[sub] !== undefined)) return `preset ${input.preset}`;
  return 'default';
}

/** A list or mapping as one line of YAML: [timeout, 5xx], { variant: a, recovered: { atLeast: 1 } }. */
function inline(x: unknown): string {
  if (x === null || typeof x !== 'object') return String(x);
  return stringify(x, { collectionStyle: 'flow', lineWidth: 0 }).trim();
}

function show(path: string, resolved: unknown, raw: Flat): string {
  if (raw.has(path)) {
    const w = raw.get(path);
    return typeof w === 'string' ? w : inline(w);
  }
  if (typeof resolved === 'number') {
    if (!Number.isFinite(resolved)) return 'none';
    const last = path.slice(path.lastIndexOf('.') + 1);
    if (/\.layers\./.test(path) && SECONDS.has(last)) return resolved > 0 && resolved < 1 ? `${Math.round(resolved * 1000)}ms` : formatDuration(resolved);
  }
  return typeof resolved === 'string' ? resolved : inline(resolved);
}

/** The experiment's keys, each list item one value (an expectation is added or removed whole, not key by key). */
function flattenExperiment(s: Record<string, unknown>): Flat {
  const out: Flat = new Map();
  for (const k of EXPERIMENT) {
    const v = s[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((item, i) => out.set(`${k}[${i}]`, item));
    else if (v !== null && typeof v === 'object') flatten(v, k, out);
    else out.set(k, v);
  }
  return out;
}

/** The raw text of each variant's world as written (overlay merged), for showing values with their units. */
function rawVariants(loaded: LoadedScenario): Map<string, Flat> {
  const raw = (parse(loaded.source) ?? {}) as Record<string, unknown>;
  const { variants, ...base } = raw;
  const out = new Map<string, Flat>();
  for (const v of loaded.variants) {
    const decl = variants && typeof variants === 'object' ? (variants as Record<string, { overlay?: Record<string, unknown> }>)[v.name] : undefined;
    const overlay = decl && typeof decl === 'object' && decl.overlay && typeof decl.overlay === 'object' ? decl.overlay : {};
    // A copy: the shorthand is rewritten below, and a merge shares what it did not change with the base.
    const merged = structuredClone(deepMerge(base, overlay));
    const clients = merged.clients as Record<string, Record<string, unknown>> | undefined;
    // The `retry` shorthand is shown where the resolved world has it: as layer app.
    for (const p of Object.values(clients ?? {})) if (p && p.retry && !p.layers) { p.layers = { app: p.retry }; delete p.retry; }
    out.set(v.name, flatten(merged, '', new Map()));
  }
  out.set('', flattenExperiment(base));
  return out;
}

function compare(variant: string | null, a: Flat, b: Flat, rawA: Flat, rawB: Flat, sa: Scenario | null, sb: Scenario | null, skip: (path: string) => boolean): ScenarioChange[] {
  const out: ScenarioChange[] = [];
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  for (const path of paths) {
    if (skip(path)) continue;
    const x = a.get(path), y = b.get(path);
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    out.push({
      variant,
      path,
      before: a.has(path) ? show(path, x, rawA) : null,
      after: b.has(path) ? show(path, y, rawB) : null,
      viaBefore: sa && a.has(path) ? viaOf(sa, path, rawA) : null,
      viaAfter: sb && b.has(path) ? viaOf(sb, path, rawB) : null,
    });
  }
  return out;
}

export function diffScenarios(base: LoadedScenario, head: LoadedScenario): ScenarioDiff {
  const rawBase = rawVariants(base), rawHead = rawVariants(head);
  const swept = [...(base.base.sweep ?? []), ...(head.base.sweep ?? [])].map((s) => s.parameter);
  const isSwept = (path: string) => swept.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));

  // The experiment's own keys, once.
  const changes = compare(null, flattenExperiment(base.base), flattenExperiment(head.base), rawBase.get('')!, rawHead.get('')!, null, null, () => false);

  // Each variant both sides have; a change every such variant shares is said once.
  const names = head.variants.map((v) => v.name).filter((n) => base.variants.some((v) => v.name === n));
  const perVariant = names.map((name) => {
    const sa = base.variants.find((v) => v.name === name)!.scenario, sb = head.variants.find((v) => v.name === name)!.scenario;
    return compare(name, flatten(resolvedWorld(sa), '', new Map()), flatten(resolvedWorld(sb), '', new Map()), rawBase.get(name)!, rawHead.get(name)!, sa, sb, isSwept);
  });
  const key = (c: ScenarioChange) => JSON.stringify([c.path, c.before, c.after, c.viaBefore, c.viaAfter]);
  // (With one variant, every change is the scenario's: said without a variant name.)
  const shared = new Set((perVariant[0] ?? []).map(key).filter((k) => perVariant.every((cs) => cs.some((c) => key(c) === k))));
  for (const c of perVariant[0] ?? []) if (shared.has(key(c))) changes.push({ ...c, variant: null });
  for (const cs of perVariant) for (const c of cs) if (!shared.has(key(c))) changes.push(c);

  return {
    variantsAdded: head.variants.map((v) => v.name).filter((n) => !base.variants.some((v) => v.name === n)),
    variantsRemoved: base.variants.map((v) => v.name).filter((n) => !head.variants.some((v) => v.name === n)),
    changes,
  };
}

/** One change in words: "client-ceiling: clients.app.layers.http.maxAttempts 3 (via preset got) -> 5". */
export function changeText(c: ScenarioChange, arrow = '->'): string {
  const side = (v: string | null, via: string | null) => `${v}${via ? ` (via ${via})` : ''}`;
  const what = c.before === null ? `${c.path} added: ${side(c.after, c.viaAfter)}`
    : c.after === null ? `${c.path} removed (was ${side(c.before, c.viaBefore)})`
    : `${c.path} ${side(c.before, c.viaBefore)} ${arrow} ${side(c.after, c.viaAfter)}`;
  return `${c.variant === null ? '' : `${c.variant}: `}${what}`;
}
