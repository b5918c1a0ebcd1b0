/**
 * The ranking of the variants: which policy brings the service back, best first, what it
 * saves against a baseline, and which objective decided each place.
 *
 * Order, per ranked point (the scenario's `compare.at`, default every point, each on its own):
 * first every variant that was healthy before the first trigger (one that was already failing
 * cannot "recover in 0 s" its way to the top), then the objectives in order (`compare.
 * objectives`; default the most seeds recovered, the shortest recovery time, the shortest
 * perceived outage, then the costs: peak load, excess load, wasted work, attempts per action), each in its
 * better direction, null (not recovered, no value) last. Values within a measure's tie
 * tolerance of each other are a tie on it (src/measures/measure.ts tieTolerance: recovery time
 * within 10 s or 5%, shares within a point, and a default by unit for a measure that declares
 * none), so noise finer than that does not order variants: the variants are sorted on the
 * first objective and cut into groups wherever two neighbours differ by more than the
 * tolerance, each group is ordered by the next objective the same way, and so on. Variants
 * left in one group share a rank ("1, 2, 2, 4") and keep the scenario's order. A variant
 * without runs at a point (an interrupted experiment) is left out of that point.
 *
 * With one swept parameter whose values are durations (an outage length), each variant also
 * gets how far it recovers, as a threshold: the longest swept value such that every seed
 * recovered at it and at every shorter swept value (null when not even the shortest). Recovery
 * need not be monotone in the outage's length (a seed can fail at 6m and recover at 30m);
 * "recovers up to 30m" beside "not recovered at 12m" would contradict itself.
 */
import type { CompareSpec } from '../scenario/schema.js';
import { parseDuration } from '../scenario/units.js';
import { FAULT_LENGTH, sameValue } from '../scenario/sweep.js';
import { tieLimit, tieTolerance, type MeasureDescriptor } from '../measures/measure.js';
import type { MeasureRegistry } from '../measures/registry.js';
import type { PointAggregate, VariantAggregate } from './aggregate.js';

type Value = string | number;

export const DEFAULT_OBJECTIVES = ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'excessAttempts', 'wastedWorkShare', 'attemptsPerAction'] as const;

/** Measures every ranking entry carries besides its objectives, for the writers' columns. */
export const RANKING_CONTEXT = [...DEFAULT_OBJECTIVES, 'successRatio', 'originalSuccessAfterFault', 'retryWaves', 'relapses', 'retryShareAtPeak'] as const;

export interface RankingEntry {
  /** 1 is best; tied variants share a rank. */
  rank: number;
  variant: string;
  runs: number;
  /** False when any seed was unhealthy before the first trigger: the variant ranks below every healthy one. */
  healthyBefore: boolean;
  /**
   * What put this variant below the one above it: an objective's key, 'healthyBeforeTrigger'
   * (that one was healthy before the fault, this one not), or null (the first, or a tie).
   */
  decidedBy: string | null;
  /** Means across seeds (recovered: the fraction of seeds) of the objectives and RANKING_CONTEXT. */
  values: Record<string, number | null>;
  /** The baseline's perceived outage minus this one's (s): positive when this variant saves users time. */
  outageSavedS: number | null;
  /** outageSavedS as a share of the baseline's perceived outage; null when the baseline's is 0. */
  outageSavedRatio: number | null;
  /**
   * The longest swept value (as written) such that every seed recovered at it and at every
   * shorter swept value: a threshold ("recovers up to"); null when not even the shortest.
   * Only with one duration-valued parameter.
   */
  longestRecovered?: Value | null;
}

export interface RankedPoint {
  /** Sweep point index (0 without a sweep). */
  point: number;
  values: Record<string, Value>;
  entries: RankingEntry[];
}

export interface Ranking {
  baseline: string;
  /** The objectives, in order. */
  objectives: string[];
  /** compare.at as written; absent when every point is ranked. */
  at?: Record<string, Value>;
  /** The swept duration that `longestRecovered` refers to; absent without one. */
  longestRecoveredParameter?: string;
  points: RankedPoint[];
}

export interface RankingOptions {
  compare?: CompareSpec;
  /** Swept parameter paths, in the scenario's order (empty without a sweep). */
  parameters: readonly string[];
}

/**
 * Are two values of a measure a tie? Within the larger of its absolute and relative
 * tolerance (tieTolerance: its own, else its unit's default; "10 s or 5%": 156 s and 166 s
 * tie, 20 min and 21 min do not); with a tolerance of 0, equal as summary.json writes them
 * (6 significant digits). No value ties only with no value.
 */
export function tied(m: MeasureDescriptor, a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  const { relative, absolute } = tieTolerance(m);
  if (relative === 0 && absolute === 0) return Number(a.toPrecision(6)) === Number(b.toPrecision(6));
  return Math.abs(a - b) <= tieLimit(m, a, b) + 1e-12;
}

/** Sorts better first on one measure, null last; a stable sort keeps the scenario's order among equals. */
function better(m: MeasureDescriptor, a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a === b ? 0 : (a < b ? -1 : 1) * (m.better === 'higher' ? -1 : 1);
}

const healthyAt = (p: PointAggregate) => (p.measures.healthyBeforeTrigger?.value ?? 1) >= 1;

/** The objectives as measures, checked by the caller (see resolveObjectives). */
export function objectivesOf(compare: CompareSpec | undefined, registry: MeasureRegistry): MeasureDescriptor[] {
  return (compare?.objectives ?? [...DEFAULT_OBJECTIVES]).map((k) => registry.get(k)).filter((m): m is MeasureDescriptor => m !== undefined);
}

/** The ranking, or null when there is no variant to rank. */
export function rankVariants(variants: readonly VariantAggregate[], registry: MeasureRegistry, opts: RankingOptions): Ranking | null {
  if (variants.length === 0) return null;
  const objectives = objectivesOf(opts.compare, registry);
  const baseline = opts.compare?.baseline ?? variants[0].name;
  const at = opts.compare?.at;
  const picked = (p: PointAggregate) => !at || Object.entries(at).every(([k, v]) => Object.hasOwn(p.values, k) && sameValue(p.values[k], v));
  const longest = longestRecovered(variants, opts.parameters);

  // Healthy before the fault comes first: a variant unhealthy in any seed is not healthy.
  const health = registry.get('healthyBeforeTrigger');
  const keys = [
    ...(health ? [{ m: health, value: (p: PointAggregate) => (healthyAt(p) ? 1 : 0) }] : []),
    ...objectives.map((m) => ({ m, value: (p: PointAggregate) => p.measures[m.key]?.value ?? null })),
  ];

  type Item = { name: string; p: PointAggregate };
  /** A run of variants that tie on every objective, and what set it below the group before it. */
  type Group = { items: Item[]; by: string | null };
  /**
   * Orders a point's variants into groups that tie on every objective: sort on the objective
   * at `depth`, cut before the first that does not tie with its group's best, order each part
   * by the next objective.
   * The first part keeps what set the whole below the group before it (`by`); each later part
   * was set apart by this objective.
   */
  const scenarioOrder = new Map(variants.map((v, i) => [v.name, i]));
  const order = (items: Item[], depth: number, by: string | null): Group[] => {
    // A group that ties on every objective shares a rank and lists its variants in the
    // scenario's order (the sorts above left them in the last objective's order).
    if (depth === keys.length || items.length < 2) return [{ items: items.sort((a, b) => scenarioOrder.get(a.name)! - scenarioOrder.get(b.name)!), by }];
    const { m, value } = keys[depth];
    const sorted = [...items].sort((a, b) => better(m, value(a.p), value(b.p)));
    // A variant joins a group when it ties with the group's best, not merely with the one
    // before it: ties chained through neighbours (100, 109, 118, 127 s against 10 s) would
    // rank 127 s with 100 s, and diff would call the same pair a change.
    const parts: Item[][] = [];
    for (const it of sorted) {
      const last = parts[parts.length - 1];
      if (last && tied(m, value(last[0].p), value(it.p))) last.push(it);
      else parts.push([it]);
    }
    return parts.flatMap((part, i) => order(part, depth + 1, i === 0 ? by : m.key));
  };

  const shown = [...new Set([...objectives.map((m) => m.key), ...RANKING_CONTEXT])];
  const indices = [...new Set(variants.flatMap((v) => v.points.map((p) => p.point)))].sort((a, b) => a - b);
  const points: RankedPoint[] = [];
  for (const index of indices) {
    const here = variants.flatMap((v) => {
      const p = v.points.find((x) => x.point === index);
      return p && p.runs > 0 && picked(p) ? [{ name: v.name, p }] : [];
    });
    if (here.length === 0) continue;
    const base = here.find((x) => x.name === baseline)?.p;
    const outage = (p: PointAggregate) => p.measures.perceivedOutageS?.value ?? null;
    const baseOutage = base ? outage(base) : null;
    const entry = ({ name, p }: Item, rank: number, decidedBy: string | null): RankingEntry => {
      const own = outage(p);
      const saved = baseOutage !== null && own !== null ? baseOutage - own : null;
      return {
        rank,
        variant: name,
        runs: p.runs,
        healthyBefore: healthyAt(p),
        decidedBy,
        values: Object.fromEntries(shown.map((key) => [key, p.measures[key]?.value ?? null])),
        outageSavedS: saved,
        outageSavedRatio: saved !== null && baseOutage! > 0 ? saved / baseOutage! : null,
        ...(longest ? { longestRecovered: longest.byVariant.get(name) ?? null } : {}),
      };
    };
    let position = 0;
    const entries = order(here, 0, null).flatMap(({ items, by }) => {
      const rank = position + 1;
      position += items.length;
      return items.map((it, k) => entry(it, rank, k === 0 ? by : null));
    });
    points.push({ point: index, values: here[0].p.values, entries });
  }
  return {
    baseline,
    objectives: objectives.map((m) => m.key),
    ...(at && Object.keys(at).length > 0 ? { at } : {}),
    ...(longest ? { longestRecoveredParameter: longest.parameter } : {}),
    points,
  };
}

/**
 * With exactly one swept parameter, a fault's length (faults[i].duration): per variant, the
 * threshold it recovers up to. (Another duration, such as when a fault starts, has no "up
 * to": "recovers from every swept length up to 12h" was said of faults[0].at.) Its points are read from the shortest value up; the first at
 * which not every seed recovered ends it, and so does one without runs (an interrupted
 * experiment: nothing is known there, and "up to" would vouch for it). The answer is the last
 * value before that, absent (null) when the shortest already ends it.
 */
function longestRecovered(variants: readonly VariantAggregate[], parameters: readonly string[]): { parameter: string; byVariant: Map<string, Value> } | null {
  if (parameters.length !== 1) return null;
  const parameter = parameters[0];
  if (!FAULT_LENGTH.test(parameter)) return null;
  const all = variants.flatMap((v) => v.points.map((p) => p.values[parameter]));
  if (all.length === 0 || !all.every((x) => x !== undefined && parseDuration(x).ok)) return null;
  const seconds = (x: Value) => {
    const d = parseDuration(x);
    return d.ok ? d.value : -Infinity;
  };
  const byVariant = new Map<string, Value>();
  for (const v of variants) {
    // A stable sort: two values of one length ("60s", "1m") keep the sweep's order, and both must recover.
    const ascending = [...v.points].sort((a, b) => seconds(a.values[parameter]) - seconds(b.values[parameter]));
    let best: Value | undefined;
    for (const p of ascending) {
      // Unhealthy before the fault, "recovering" is returning to a broken state: not a recovery.
      if (p.runs === 0 || (p.measures.recovered?.value ?? 0) < 1 || !healthyAt(p)) break;
      best = p.values[parameter];
    }
    if (best !== undefined) byVariant.set(v.name, best);
  }
  return { parameter, byVariant };
}
