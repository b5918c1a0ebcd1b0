/**
 * Expectations written in the scenario ("variant spread recovers within 10m in at least 95%
 * of seeds"), on any measure of the registry, checked against the aggregated results, so that
 * a pull request that makes a policy worse fails its check and says which expectation broke.
 *
 * The scenario's schema knows an expectation's shape, and the loader checks what it names of
 * the scenario (variant, population, route, sweep point); what its measure keys mean is the
 * measures' business, so they are resolved here: an unknown measure, a bound in the wrong
 * unit or a measure that is not kept per population is a positioned scenario problem, found
 * by `validate` and before any run.
 */
import type { CheckedScenario, LoadCheck } from '../scenario/load.js';
import { ScenarioError, closest, formatPath, type Problem } from '../scenario/problems.js';
import { parseDuration, secondsWithUnit } from '../scenario/units.js';
import { sameValue } from '../scenario/sweep.js';
import type { MeasureDescriptor } from '../measures/measure.js';
import type { MeasureRegistry } from '../measures/registry.js';
import { TIER_MEASURES } from '../measures/tiers.js';
import { formatValue, seedCount, seedsText } from '../measures/format.js';
import type { PointAggregate, VariantAggregate } from './aggregate.js';
import { readValue, valueText } from '../scenario/search-apply.js';
import type { SearchOutcome } from './search/run-search.js';

/** What an expectation reads: the verdict's users (no scope), one population's, one route's, or one tier of a service graph. */
export interface ExpectationScope {
  population?: string;
  route?: string;
  tier?: string;
}

/** What a bound needs of a measure: its declaration (a tier measure computes over a tier, not over users). */
export type BoundMeasure = Omit<MeasureDescriptor, 'compute'>;

export interface ResolvedBound {
  measure: BoundMeasure;
  kind: 'atMost' | 'atLeast';
  /** In the measure's unit (seconds for durations). */
  limit: number;
}

/** A guard on change: the measure may get worse against a base by at most this much. */
export interface ResolvedGuard {
  measure: BoundMeasure;
  /** A share of the base's value (0.1 for "10%"), or an amount in the measure's unit; exactly one is set. */
  relative?: number;
  absolute?: number;
}

export interface ResolvedExpectation {
  variant: string;
  at?: Record<string, string | number>;
  scope: ExpectationScope;
  bounds: ResolvedBound[];
  /** Checked only against a base (src/results/diff/guards.ts). */
  guards: ResolvedGuard[];
  /** Bounds on the variant's tipping point (the scenario's search), in the searched parameter's unit. */
  tipping: TippingBound[];
}

/** `tippingPoint: { atLeast: 30m }`: where the variant's cliff must stay. */
export interface TippingBound {
  kind: 'atMost' | 'atLeast';
  limit: number;
}

/** The key an expectation bounds a variant's tipping point with. */
export const TIPPING_POINT = 'tippingPoint';

export interface ExpectationResult {
  /** "spread at faults[0].duration=12m: recovery time at most 10m". */
  name: string;
  variant: string;
  /** The sweep point's values ({} without a sweep). */
  at: Record<string, string | number>;
  scope: ExpectationScope;
  measure: string;
  kind: 'atMost' | 'atLeast';
  limit: number;
  /** The measured value (mean across seeds, or fraction of seeds); null when the measure has none. */
  value: number | null;
  passed: boolean;
  /** The check in words: "recovery time at most 10m". */
  check: string;
  /** What was measured, in words: "3m10s", "not every seed recovered (1 of 3 did)". */
  actual: string;
}

const KNOWN_KEYS = new Set(['variant', 'population', 'route', 'tier', 'at']);
const TIER_KEYS = TIER_MEASURES.map((m) => m.key);

/** A likely meant measure: a near spelling, or one the name begins ("peakLoad" for peakLoadMultiple). */
function suggest(key: string, known: readonly string[]): string | undefined {
  return closest(key, known) ?? known.find((k) => k.toLowerCase().startsWith(key.toLowerCase()));
}

/** Reads a bound in the measure's unit: a duration for seconds (a bare number is refused, as everywhere), a number otherwise. */
function readBound(m: BoundMeasure, raw: unknown): number | string {
  if (m.unit === 'duration') {
    if (typeof raw === 'number') return `${m.key} is in seconds: write the bound with a unit, e.g. ${secondsWithUnit(raw)}`;
    const d = parseDuration(raw);
    return d.ok ? d.value : `expected a duration such as "10m" for ${m.key}`;
  }
  if (typeof raw !== 'number') return `expected a number for ${m.key}${m.unit === 'share' ? ' (a share between 0 and 1, e.g. 0.95)' : ''}`;
  if (m.unit === 'share' && (raw < 0 || raw > 1)) return `${m.key} is a share between 0 and 1 (0.95 for 95%)`;
  return raw;
}

/** Reads a guard's amount: "10%" of the base's value, or an amount in the measure's unit; a measure with no better direction cannot get worse. */
function readGuard(m: BoundMeasure, raw: unknown): ResolvedGuard | string {
  if (m.better === 'none') return `${m.key} has no better direction (it is context, not an objective), so it cannot get worse: guard a measure such as recoveryTimeS`;
  if (typeof raw === 'string' && /%\s*$/.test(raw)) {
    const pct = Number(raw.replace(/%\s*$/, ''));
    if (!raw.trim().replace(/%$/, '').trim() || !Number.isFinite(pct) || pct < 0) return `expected a percentage of 0% or more, such as "10%" (got "${raw}")`;
    return { measure: m, relative: pct / 100 };
  }
  const amount = readBound(m, raw);
  if (typeof amount === 'string') return `${amount}, or a percentage of the base's value such as "10%"`;
  if (amount < 0) return 'expected an amount of 0 or more: how much worse the measure may get';
  return { measure: m, absolute: amount };
}

/** A lower bound above the upper one, which no value can meet (the check would fail every run), said with both as written. */
function boundsUpsideDown(limits: Partial<Record<'atMost' | 'atLeast', number>>, written: { atMost?: unknown; atLeast?: unknown }): string | undefined {
  if (limits.atLeast === undefined || limits.atMost === undefined || limits.atLeast <= limits.atMost) return undefined;
  return `the lower bound (atLeast: ${String(written.atLeast)}) is above the upper one (atMost: ${String(written.atMost)}): no value can meet both; swap them`;
}

/**
 * Resolves every measure the scenario names (its expectations' keys, `compare.objectives`)
 * against the registry, or throws a ScenarioError with every problem positioned, like the
 * loader's. `validate` and `run` both call it before anything is simulated.
 */
/** A floor of `compare.floors`: bounds on one population's measures that a variant must meet to rank among those that do. */
export interface ResolvedFloor {
  population: string;
  bounds: ResolvedBound[];
}

export function resolveMeasureReferences(loaded: CheckedScenario, registry: MeasureRegistry): { expectations: ResolvedExpectation[]; floors: ResolvedFloor[] } {
  const problems: Problem[] = [];
  const report = (path: PropertyKey[], message: string, key?: string) => {
    const { line, col } = loaded.locate(path, key);
    problems.push({ file: loaded.file, line, col, path: formatPath(key === undefined ? path : [...path, key]), message });
  };
  const perPopulation = registry.perPopulation.map((m) => m.key);
  const out: ResolvedExpectation[] = [];

  (loaded.base.expectations ?? []).forEach((e, i) => {
    const here: PropertyKey[] = ['expectations', i];
    // The loader has checked the population or route exists (src/scenario/expectation-check.ts).
    const scope: ExpectationScope = e.population !== undefined ? { population: e.population } : e.route !== undefined ? { route: e.route } : e.tier !== undefined ? { tier: e.tier } : {};
    const bounds: ResolvedBound[] = [];
    const guards: ResolvedGuard[] = [];
    const tipping: TippingBound[] = [];
    for (const [key, raw] of Object.entries(e)) {
      if (KNOWN_KEYS.has(key)) continue;
      if (key === TIPPING_POINT) {
        const search = loaded.search;
        if (!search) { report(here, 'tippingPoint bounds the result of a search: add a search: block that says which parameter to search (docs/search.md)', key); continue; }
        if (e.population !== undefined || e.route !== undefined || e.tier !== undefined || e.at !== undefined) { report(here, 'tippingPoint is the whole variant\'s: it takes no population, route, tier or at', key); continue; }
        const b = raw as { atMost?: unknown; atLeast?: unknown; worsenBy?: unknown };
        if (b.worsenBy !== undefined) report([...here, key], 'a tipping point has no guard on change: bound it with atLeast or atMost', 'worsenBy');
        const limits: Partial<Record<'atMost' | 'atLeast', number>> = {};
        for (const kind of ['atMost', 'atLeast'] as const) {
          if (b[kind] === undefined) continue;
          const v = readValue(b[kind] as string | number);
          if (typeof v === 'string') report([...here, key], v, kind);
          else if (v.kind !== search.kind) report([...here, key], `the tipping point of ${search.parameter} is a ${search.kind}: write the bound as one (got a ${v.kind})`, kind);
          else {
            tipping.push({ kind, limit: v.n });
            limits[kind] = v.n;
          }
        }
        const upsideDown = boundsUpsideDown(limits, b);
        if (upsideDown) report([...here, key], upsideDown, 'atLeast');
        continue;
      }
      const m = measureFor(key, e.tier !== undefined, registry, (message) => report(here, message, key));
      if (!m) continue;
      if ((e.population !== undefined || e.route !== undefined) && !m.perPopulation) {
        report(here, `${key} is not measured per ${e.population !== undefined ? 'population' : 'route'} (those are: ${perPopulation.join(', ')})`, key);
        continue;
      }
      const b = raw as { atMost?: unknown; atLeast?: unknown; worsenBy?: { atMost: unknown } };
      const limits: Partial<Record<'atMost' | 'atLeast', number>> = {};
      for (const kind of ['atMost', 'atLeast'] as const) {
        if (b[kind] === undefined) continue;
        const limit = readBound(m, b[kind]);
        if (typeof limit === 'string') report([...here, key], limit, kind);
        else bounds.push({ measure: m, kind, limit });
        if (typeof limit === 'number') limits[kind] = limit;
      }
      const upsideDown = boundsUpsideDown(limits, b);
      if (upsideDown) report([...here, key], upsideDown, 'atLeast');
      if (b.worsenBy !== undefined) {
        const g = readGuard(m, b.worsenBy.atMost);
        if (typeof g === 'string') report([...here, key, 'worsenBy'], g, 'atMost');
        else guards.push(g);
      }
    }
    if (bounds.length === 0 && guards.length === 0 && tipping.length === 0 && !problems.some((p) => p.path.startsWith(formatPath(here)))) {
      report(here, 'an expectation names a measure with atMost, atLeast or worsenBy, e.g. recoveryTimeS: { atMost: 10m }');
    }
    out.push({ variant: e.variant, ...(e.at ? { at: e.at } : {}), scope, bounds, guards, tipping });
  });

  (loaded.base.compare?.objectives ?? []).forEach((key, i) => {
    const m = registry.get(key);
    if (!m) {
      const guess = suggest(key, registry.keys);
      report(['compare', 'objectives', i], `"${key}" is not a measure${guess ? ` (did you mean "${guess}"?)` : ''}; the measures are listed in docs/measures.md`);
    } else if (m.better === 'none') {
      report(['compare', 'objectives', i], `${key} has no better direction (it is context, not an objective)`);
    }
  });
  const objectives = loaded.base.compare?.objectives;
  for (const key of Object.keys(loaded.base.compare?.weights ?? {})) {
    const m = registry.get(key);
    if (!m) {
      const guess = suggest(key, objectives ?? registry.keys);
      report(['compare', 'weights'], `"${key}" is not a measure${guess ? ` (did you mean "${guess}"?)` : ''}; the measures are listed in docs/measures.md`, key);
    } else if (m.better === 'none') {
      report(['compare', 'weights'], `${key} has no better direction (it is context, not an objective), so it has no weight`, key);
    } else if (objectives && !objectives.includes(key)) {
      report(['compare', 'weights'], `${key} is not among compare.objectives (${objectives.join(', ')}): add it there, or weigh one of those`, key);
    }
  }

  const floors: ResolvedFloor[] = [];
  (loaded.base.compare?.floors ?? []).forEach((f, i) => {
    const here: PropertyKey[] = ['compare', 'floors', i];
    const bounds: ResolvedBound[] = [];
    for (const [key, raw] of Object.entries(f)) {
      if (key === 'population') continue;
      const m = registry.get(key);
      if (!m) {
        report(here, `"${key}" is not a measure${suggestText(suggest(key, perPopulation))}; a floor bounds a per-population measure (${perPopulation.join(', ')})`, key);
        continue;
      }
      if (!m.perPopulation) {
        report(here, `${key} is not measured per population (those are: ${perPopulation.join(', ')})`, key);
        continue;
      }
      const b = raw as { atMost?: unknown; atLeast?: unknown; worsenBy?: unknown };
      if (b.worsenBy !== undefined) report([...here, key], 'a floor is a bound, not a guard on change: write atLeast or atMost', 'worsenBy');
      for (const kind of ['atMost', 'atLeast'] as const) {
        if (b[kind] === undefined) continue;
        const limit = readBound(m, b[kind]);
        if (typeof limit === 'string') report([...here, key], limit, kind);
        else bounds.push({ measure: m, kind, limit });
      }
    }
    if (bounds.length === 0 && !problems.some((p) => p.path.startsWith(formatPath(here)))) {
      report(here, 'a floor names a per-population measure with atLeast or atMost, e.g. successRatio: { atLeast: 0.95 }');
    }
    floors.push({ population: f.population, bounds });
  });
  if (problems.length > 0) throw new ScenarioError(problems);
  return { expectations: out, floors };
}

/**
 * resolveMeasureReferences as a check the loader makes (LoadCheck): a misnamed measure is
 * said with the file's other problems, in the same pass, not once they are fixed.
 */
export function measureReferencesCheck(registry: MeasureRegistry): LoadCheck {
  return (loaded) => {
    try {
      resolveMeasureReferences(loaded, registry);
      return [];
    } catch (e) {
      if (e instanceof ScenarioError) return e.problems;
      throw e;
    }
  };
}

/**
 * The measure a key names in an expectation: a tier's (src/measures/tiers.ts) under `tier:`,
 * the registry's otherwise. A key of the other kind gets a message saying which scope it
 * needs; `complain` receives it and the result is undefined.
 */
function measureFor(key: string, perTier: boolean, registry: MeasureRegistry, complain: (message: string) => void): BoundMeasure | undefined {
  const tierMeasure = TIER_MEASURES.find((m) => m.key === key);
  const measure = registry.get(key);
  if (perTier) {
    if (tierMeasure) return tierMeasure;
    if (measure) complain(`${key} is not measured per tier (those are: ${TIER_KEYS.join(', ')}); without tier it is the users' or the edge server's`);
    else complain(`"${key}" is not a measure${suggestText(suggest(key, TIER_KEYS))}; the per-tier measures are listed in docs/measures.md`);
    return undefined;
  }
  if (measure) return measure;
  if (tierMeasure) complain(`${key} is measured per tier of a service graph: add tier: server (the edge) or a service's name`);
  else complain(`"${key}" is not a measure${suggestText(suggest(key, registry.keys))}; the measures are listed in docs/measures.md`);
  return undefined;
}

const suggestText = (guess: string | undefined) => (guess ? ` (did you mean "${guess}"?)` : '');

// A mean across seeds of identical values can land a rounding error off them (three 0.95s
// average to 0.9499999999999998): bounds are compared with that much slack.
const SLACK = 1e-9;
const within = (x: number, b: Pick<ResolvedBound, 'kind' | 'limit'>) =>
  b.kind === 'atMost' ? x <= b.limit + SLACK * Math.max(1, Math.abs(b.limit)) : x >= b.limit - SLACK * Math.max(1, Math.abs(b.limit));

function matches(at: ResolvedExpectation['at'], p: PointAggregate): boolean {
  if (!at) return true;
  return Object.entries(at).every(([k, v]) => Object.hasOwn(p.values, k) && sameValue(p.values[k], v));
}

/** The scope in words, for a check's name: " (population app)", " (tier db)", or nothing. */
export function scopeText(s: ExpectationScope): string {
  return s.population !== undefined ? ` (population ${s.population})` : s.route !== undefined ? ` (route ${s.route})` : s.tier !== undefined ? ` (tier ${s.tier})` : '';
}

/** The measures a scope reads at a point (the verdict's users' without one), or undefined when the point has no such scope. */
export function scopedMeasures<M>(p: { measures: M; populations: Array<{ name: string; measures: M }>; routes: Array<{ name: string; measures: M }>; tiers?: Array<{ name: string; measures: M }> }, scope: ExpectationScope): M | undefined {
  if (scope.population !== undefined) return p.populations.find((x) => x.name === scope.population)?.measures;
  if (scope.route !== undefined) return p.routes.find((x) => x.name === scope.route)?.measures;
  if (scope.tier !== undefined) return p.tiers?.find((x) => x.name === scope.tier)?.measures;
  return p.measures;
}

/** The value an expectation reads at a point: the verdict's users', or its scope's. */
function valueAt(p: PointAggregate, scope: ExpectationScope, key: string): number | null {
  return scopedMeasures(p, scope)?.[key]?.value ?? null;
}

/** What a missing value means, in words: for recovery time, how many seeds did recover. */
function missingText(p: PointAggregate, key: string): string {
  if (key === 'recoveryTimeS') {
    const k = seedCount(p.measures.recovered?.value ?? 0, p.runs);
    return `not every seed recovered (${k} of ${p.runs} did)`;
  }
  return 'no value';
}

/** The measured value in words: a fraction of seeds as "2 of 3 seeds", a mean across seeds marked so. */
function actualText(m: BoundMeasure, value: number, runs: number): string {
  if (m.aggregate === 'fraction') return seedsText(value, runs);
  return `${formatValue(m.unit, value)}${runs > 1 && m.aggregate !== 'max' ? ' (mean)' : ''}`;
}

/** Checks every expectation at every matching point. Points without runs (partial results) are skipped. */
export function checkExpectations(expectations: readonly ResolvedExpectation[], variants: readonly VariantAggregate[]): ExpectationResult[] {
  const results: ExpectationResult[] = [];
  for (const e of expectations) {
    const v = variants.find((x) => x.name === e.variant);
    if (!v) continue; // the loader rejects unknown variants; nothing to check here
    for (const p of v.points) {
      if (p.runs === 0 || !matches(e.at, p)) continue;
      const where = Object.keys(p.values).length ? ` at ${Object.entries(p.values).map(([k, x]) => `${k}=${x}`).join(', ')}` : '';
      for (const b of e.bounds) {
        const m = b.measure;
        const value = valueAt(p, e.scope, m.key);
        const check = `${m.label}${scopeText(e.scope)} ${b.kind === 'atMost' ? 'at most' : 'at least'} ${formatValue(m.unit, b.limit)}`;
        results.push({
          name: `${e.variant}${where}: ${check}`,
          variant: e.variant,
          at: p.values,
          scope: e.scope,
          measure: m.key,
          kind: b.kind,
          limit: b.limit,
          value,
          passed: value !== null && within(value, b),
          check,
          actual: value === null ? missingText(p, m.key) : actualText(m, value, p.runs),
        });
      }
    }
  }
  return results;
}

/**
 * Checks the bounds on tipping points against the search. Beyond an end of the range the
 * tipping point is only known to be past that end: "at least 30m" passes when the search
 * found it beyond 30m, and a bound the range cannot tell fails, saying so.
 */
export function checkTippingExpectations(expectations: readonly ResolvedExpectation[], outcome: SearchOutcome): ExpectationResult[] {
  const s = outcome.search;
  const text = (n: number) => valueText(s.kind, n);
  const results: ExpectationResult[] = [];
  for (const e of expectations) {
    const found = outcome.variants.find((v) => v.variant === e.variant)?.result;
    if (!found) continue;
    for (const b of e.tipping) {
      const { crossing, estimate, interval } = found;
      // Past the top of the range the tipping point is at least `to`; below the bottom, at most `from`.
      // Within the range but not found (the fit never crossed the level): no bound can be said to hold.
      const passed = crossing === 'within'
        ? estimate !== null && within(estimate, b)
        : crossing === 'above-range' ? b.kind === 'atLeast' && s.to >= b.limit : b.kind === 'atMost' && s.from <= b.limit;
      const check = `tipping point of ${s.parameter} ${b.kind === 'atMost' ? 'at most' : 'at least'} ${text(b.limit)}`;
      const actual = crossing === 'within'
        ? `${estimate === null ? 'not found (the fit of the tried values never crosses the level)' : text(estimate)} (95%: ${interval.lo === null ? `below ${text(s.from)}` : text(interval.lo)}–${interval.hi === null ? `above ${text(s.to)}` : text(interval.hi)}), ${found.runs} runs`
        : crossing === 'above-range' ? `beyond ${text(s.to)}, the largest searched` : `below ${text(s.from)}, the smallest searched`;
      results.push({
        name: `${e.variant}: ${check}`,
        variant: e.variant,
        at: {},
        scope: {},
        measure: TIPPING_POINT,
        kind: b.kind,
        limit: b.limit,
        value: crossing === 'within' ? estimate : crossing === 'above-range' ? s.to : s.from,
        passed,
        check,
        actual,
      });
    }
  }
  return results;
}
