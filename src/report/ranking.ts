/**
 * The ranking of the variants: which policy brings the service back, best first, and what
 * it saves against a baseline (the scenario's `compare` block: `baseline`, default the first
 * variant; `at`, the sweep points to rank, default every point, each ranked on its own).
 *
 * Order, per ranked point: every seed recovered first (recoveredFraction, descending), then
 * recovery time (ascending; not recovered last), then perceived outage (ascending), then
 * success ratio (descending; none last; to the whole percent, as the last word between
 * variants otherwise equal, such as several that never recovered, is noise finer than
 * that). The other values are compared as summary.json writes them (6 significant
 * digits), so two variants that read the same are tied: they share a rank
 * ("1, 2, 2, 4") and keep the scenario's order. A variant without runs at a point (an
 * interrupted experiment) is left out of that point.
 *
 * With one swept parameter whose values are durations (an outage length), each variant also
 * gets the longest swept value at which every seed recovered (null when none did).
 *
 * Pure: aggregates in, plain data out; summary.json writes it as `ranking`, and the CLI,
 * report.html and summary.md show it.
 */
import type { RunSummary } from '../measures/measures.js';
import type { ExperimentResult } from '../experiment/experiment.js';
import type { CompareSpec } from '../scenario/schema.js';
import { parseDuration } from '../scenario/units.js';
import { sameValue } from '../scenario/sweep.js';
import { round6 } from './numbers.js';

type Value = string | number;

/** What the ranking reads of one variant at one sweep point (a PointAggregate fits). */
export interface RankablePoint {
  point: number;
  values: Record<string, Value>;
  runs: number;
  recoveredFraction: number;
  measures: Pick<
    RunSummary,
    'recoveryTimeS' | 'perceivedOutageS' | 'successRatio' | 'peakLoadMultiple' | 'retryShareAtPeak' | 'originalSuccessAfterFault' | 'relapses' | 'retryWaves'
  >;
}

export interface RankableVariant {
  name: string;
  points: readonly RankablePoint[];
}

export interface RankingEntry {
  /** 1 is best; tied variants share a rank. */
  rank: number;
  variant: string;
  runs: number;
  recoveredFraction: number;
  /** Mean across seeds; null unless every seed recovered. */
  recoveryTimeS: number | null;
  perceivedOutageS: number;
  /** The baseline's perceived outage minus this one's (s): positive when this variant saves users time. */
  outageSavedS: number | null;
  /** outageSavedS as a share of the baseline's perceived outage; null when the baseline's is 0. */
  outageSavedRatio: number | null;
  successRatio: number | null;
  peakLoadMultiple: number;
  retryShareAtPeak: number | null;
  originalSuccessAfterFault: number | null;
  relapses: number;
  retryWaves: number;
  /** The longest swept value (as written) at which every seed recovered; only with one duration-valued parameter. */
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

const r6 = (x: number | null): number | null => (x === null ? null : round6(x));

/** Negative when a ranks before b; 0 when they are tied on every key. */
export function compareEntries(a: RankablePoint, b: RankablePoint): number {
  return (
    order(a.recoveredFraction, b.recoveredFraction, -1) ||
    order(a.measures.recoveryTimeS, b.measures.recoveryTimeS, 1) ||
    order(a.measures.perceivedOutageS, b.measures.perceivedOutageS, 1) ||
    order(successKey(a.measures.successRatio), successKey(b.measures.successRatio), -1)
  );
}

/** The success ratio to the whole percent: finer differences do not order variants. */
const successKey = (x: number | null): number | null => (x === null ? null : Math.round(x * 100) / 100);

/** Ascending (1) or descending (-1) on the values as written (6 digits); null after any number either way. */
function order(x: number | null, y: number | null, dir: 1 | -1): number {
  const [a, b] = [r6(x), r6(y)];
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a === b ? 0 : (a < b ? -1 : 1) * dir;
}

/** The ranking, or null when there is no variant to rank. */
export function rankVariants(variants: readonly RankableVariant[], opts: RankingOptions): Ranking | null {
  if (variants.length === 0) return null;
  const baseline = opts.compare?.baseline ?? variants[0].name;
  const at = opts.compare?.at;
  const picked = (p: RankablePoint) => !at || Object.entries(at).every(([k, v]) => p.values[k] !== undefined && sameValue(p.values[k], v));
  const longest = longestRecovered(variants, opts.parameters);

  const indices = [...new Set(variants.flatMap((v) => v.points.map((p) => p.point)))].sort((a, b) => a - b);
  const points: RankedPoint[] = [];
  for (const index of indices) {
    const here = variants.flatMap((v) => {
      const p = v.points.find((x) => x.point === index);
      return p && p.runs > 0 && picked(p) ? [{ name: v.name, p }] : [];
    });
    if (here.length === 0) continue;
    // Array.prototype.sort is stable: tied variants keep the scenario's order.
    const sorted = [...here].sort((a, b) => compareEntries(a.p, b.p));
    const base = here.find((x) => x.name === baseline)?.p;
    const entries = sorted.map(({ name, p }, i): RankingEntry => {
      const m = p.measures;
      const saved = base ? base.measures.perceivedOutageS - m.perceivedOutageS : null;
      let rank = i + 1;
      for (let j = i; j > 0 && compareEntries(sorted[j - 1].p, p) === 0; j--) rank = j;
      return {
        rank,
        variant: name,
        runs: p.runs,
        recoveredFraction: p.recoveredFraction,
        recoveryTimeS: m.recoveryTimeS,
        perceivedOutageS: m.perceivedOutageS,
        outageSavedS: saved,
        outageSavedRatio: saved !== null && base!.measures.perceivedOutageS > 0 ? saved / base!.measures.perceivedOutageS : null,
        successRatio: m.successRatio,
        peakLoadMultiple: m.peakLoadMultiple,
        retryShareAtPeak: m.retryShareAtPeak,
        originalSuccessAfterFault: m.originalSuccessAfterFault,
        relapses: m.relapses,
        retryWaves: m.retryWaves,
        ...(longest ? { longestRecovered: longest.byVariant.get(name) ?? null } : {}),
      };
    });
    points.push({ point: index, values: here[0].p.values, entries });
  }
  return {
    baseline,
    ...(at && Object.keys(at).length > 0 ? { at } : {}),
    ...(longest ? { longestRecoveredParameter: longest.parameter } : {}),
    points,
  };
}

/**
 * With exactly one swept parameter, all of whose values are durations: per variant, the
 * longest value at which every seed recovered (points without runs do not count).
 */
function longestRecovered(variants: readonly RankableVariant[], parameters: readonly string[]): { parameter: string; byVariant: Map<string, Value> } | null {
  if (parameters.length !== 1) return null;
  const parameter = parameters[0];
  const all = variants.flatMap((v) => v.points.map((p) => p.values[parameter]));
  if (all.length === 0 || !all.every((x) => x !== undefined && parseDuration(x).ok)) return null;
  const seconds = (x: Value) => {
    const d = parseDuration(x);
    return d.ok ? d.value : -Infinity;
  };
  const byVariant = new Map<string, Value>();
  for (const v of variants) {
    let best: Value | undefined;
    for (const p of v.points) {
      const x = p.values[parameter];
      if (p.runs > 0 && p.recoveredFraction >= 1 && (best === undefined || seconds(x) > seconds(best))) best = x;
    }
    if (best !== undefined) byVariant.set(v.name, best);
  }
  return { parameter, byVariant };
}

/**
 * The ranking an experiment's outputs show: none for one shard of a split experiment (it
 * holds only some runs; the merge ranks them all), nor for a lone variant without a
 * `compare` block (there is nothing to compare it with).
 */
export function experimentRanking(x: ExperimentResult): Ranking | null {
  if (x.shard && x.shard.count > 1) return null;
  const base = x.loaded.base;
  if (x.variants.length < 2 && !base.compare) return null;
  return rankVariants(x.variants, { compare: base.compare, parameters: (base.sweep ?? []).map((s) => s.parameter) });
}
