/**
 * Folds the runs of each (variant, sweep point) into one line of the comparison: each
 * measure folded across seeds the way its descriptor says (a mean with a t interval, a share
 * or a fraction of seeds with a proportion interval, a maximum), the users' histograms
 * summed, and the same for every population and route. Recovery time is null unless every
 * seed recovered: a mean over the seeds that happened to recover would flatter a policy that
 * sometimes never does. Pure: results come in expansion order, whatever order they finished in.
 */
import type { MeasureDescriptor } from '../measures/measure.js';
import type { MeasureRegistry, MeasureValues } from '../measures/registry.js';
import type { QuotaOutcome, ScopeOutcome } from '../measures/summarize.js';
import type { FaultWindow, FiredAction } from '../model/series.js';
import type { RunResult } from './run-one.js';
import { TIER_MEASURES, type TierOutcome } from '../measures/tiers.js';
import { foldRateLimits, type RateLimitOutcome } from '../measures/top-consumers.js';
import { meanInterval, proportionInterval, shareInterval } from './stats.js';

/** A measure across seeds: its value (null where the measure says so) and a 95% interval when there are two seeds or more. */
export interface Aggregate {
  value: number | null;
  lo: number | null;
  hi: number | null;
}

export interface ScopeAggregate {
  name: string;
  measures: Record<string, Aggregate>;
}

export interface PointAggregate {
  point: number;
  values: Record<string, string | number>;
  runs: number;
  measures: Record<string, Aggregate>;
  /** The verdict's users' finished actions by attempts taken, summed over the seeds. */
  attemptsHistogram: number[];
  populations: ScopeAggregate[];
  routes: ScopeAggregate[];
  quotas: QuotaOutcome[];
  /** Each service of a graph (edge first), its tier measures folded over the seeds; absent without services. */
  tiers?: Array<ScopeAggregate & { callers: string[] }>;
  /** Each rate-limit stage of the edge, its counts and top consumers folded over the seeds; absent without one. */
  rateLimits?: RateLimitOutcome[];
  perSeed: Array<{ seed: number; measures: MeasureValues; actions: FiredAction[] }>;
  /** The fault windows of this point's runs (the same for every seed). */
  faults: FaultWindow[];
}

export interface VariantAggregate {
  name: string;
  description?: string;
  points: PointAggregate[];
}

const NONE: Aggregate = { value: null, lo: null, hi: null };

/** One measure's per-seed values, folded as its descriptor says; intervals stay inside its range. */
export function foldMeasure(m: Omit<MeasureDescriptor, 'compute'>, xs: ReadonlyArray<number | null>, horizonS: number): Aggregate {
  const n = xs.length;
  if (n === 0) return NONE;
  const numbers = xs.filter((x): x is number => x !== null);
  switch (m.aggregate) {
    case 'fraction': {
      // No seed had a value (recovery with nobody in the verdict's users): nothing to count.
      if (numbers.length === 0) return NONE;
      const k = numbers.filter((x) => x >= 0.5).length;
      const i = n > 1 ? proportionInterval(k, n) : null;
      return { value: k / n, lo: i?.lo ?? null, hi: i?.hi ?? null };
    }
    case 'max':
      return { value: numbers.length ? Math.max(...numbers) : null, lo: null, hi: null };
    case 'share':
    case 'mean': {
      if (numbers.length < n) return NONE;
      const value = numbers.reduce((a, b) => a + b, 0) / n;
      if (n < 2) return { value, lo: null, hi: null };
      const min = Math.min(m.range?.min ?? 0, value);
      const rawMax = m.range?.max ?? Infinity;
      const max = Math.max(rawMax === 'horizon' ? horizonS : rawMax, value);
      const i = m.aggregate === 'share' ? shareInterval(numbers) : meanInterval(numbers, min, max);
      return { value, lo: i.lo, hi: i.hi };
    }
  }
}

function foldValues(measures: ReadonlyArray<Omit<MeasureDescriptor, 'compute'>>, rows: ReadonlyArray<Record<string, number | null>>, horizonS: number): Record<string, Aggregate> {
  const out: Record<string, Aggregate> = {};
  for (const m of measures) out[m.key] = foldMeasure(m, rows.map((r) => r[m.key] ?? null), horizonS);
  return out;
}

/** Scopes (populations or routes) are listed in the same order in every run of a point. */
function foldScopes(measures: readonly MeasureDescriptor[], perRun: ScopeOutcome[][], horizonS: number): ScopeAggregate[] {
  if (perRun.length === 0) return [];
  return perRun[0].map((scope, i) => ({ name: scope.name, measures: foldValues(measures, perRun.map((r) => r[i].measures), horizonS) }));
}

/** Tiers are listed in the same order in every run of a point (the edge, then the services as declared). */
function foldTiers(perRun: TierOutcome[][], horizonS: number): Array<ScopeAggregate & { callers: string[] }> {
  return perRun[0].map((t, i) => ({ name: t.name, callers: t.callers, measures: foldValues(TIER_MEASURES, perRun.map((r) => r[i].measures), horizonS) }));
}

/** Quota use across seeds: counts and shares averaged, an alert's time only when every seed crossed it. */
function foldQuotas(perRun: QuotaOutcome[][]): QuotaOutcome[] {
  if (perRun.length === 0) return [];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return perRun[0].map((q, i) => {
    const all = perRun.map((r) => r[i]);
    return {
      name: q.name,
      peakWindowUse: mean(all.map((x) => x.peakWindowUse)),
      providerRefused: mean(all.map((x) => x.providerRefused)),
      guardRefused: mean(all.map((x) => x.guardRefused)),
      failedOver: mean(all.map((x) => x.failedOver)),
      alerts: q.alerts.map((a, k) => {
        const times = all.map((x) => x.alerts[k].firstS);
        return { threshold: a.threshold, firstS: times.every((t): t is number => t !== null) ? mean(times) : null };
      }),
    };
  });
}

export function aggregatePoint(
  registry: MeasureRegistry,
  point: number,
  values: Record<string, string | number>,
  runs: RunResult[],
  horizonS: number,
): PointAggregate {
  const hist: number[] = [];
  for (const r of runs) r.summary.attemptsHistogram.forEach((c, k) => (hist[k] = (hist[k] ?? 0) + c));
  return {
    point,
    values,
    runs: runs.length,
    measures: foldValues(registry.all, runs.map((r) => r.summary.measures), horizonS),
    attemptsHistogram: Array.from(hist, (c) => c ?? 0),
    populations: foldScopes(registry.perPopulation, runs.map((r) => r.summary.populations), horizonS),
    routes: foldScopes(registry.perPopulation, runs.map((r) => r.summary.routes), horizonS),
    quotas: foldQuotas(runs.map((r) => r.summary.quotas)),
    ...(runs[0]?.summary.tiers ? { tiers: foldTiers(runs.map((r) => r.summary.tiers ?? []), horizonS) } : {}),
    ...(runs[0]?.summary.rateLimits ? { rateLimits: foldRateLimits(runs.map((r) => r.summary.rateLimits ?? [])) } : {}),
    perSeed: runs.map((r) => ({ seed: r.seed, measures: r.summary.measures, actions: r.actions })),
    faults: runs[0]?.faults ?? [],
  };
}
