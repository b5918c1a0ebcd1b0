/**
 * Folds the runs of each (variant, sweep point) into one line of the comparison: the mean
 * of each measure across seeds with its 95% interval, and the fraction of seeds that
 * recovered. Recovery time is reported only when every seed recovered: a mean over the
 * seeds that happened to recover would flatter a policy that sometimes never does.
 * Pure: results come in expansion order, whatever order they finished in.
 */
import type { RunSummary } from '../measures/measures.js';
import type { RunResult } from './run-one.js';
import { estimate } from './stats.js';

/** Measures that get a 95% interval across seeds (recoveryTimeS only when all seeds recovered). */
export const INTERVAL_MEASURES = [
  'recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'peakRetryShare', 'retryShareAtPeak', 'wastedWorkS',
  'wastedWorkShare', 'successRatio', 'goodputMean', 'utilisation', 'meanQueueWaitS',
  'relapses', 'retryWaves', 'originalSuccessAfterFault',
] as const;

export interface PointAggregate {
  point: number;
  values: Record<string, string | number>;
  runs: number;
  recoveredFraction: number;
  measures: RunSummary;
  intervals: Partial<Record<(typeof INTERVAL_MEASURES)[number] | 'attemptsPerActionMean', [number, number]>>;
  perSeed: Array<{ seed: number } & RunSummary>;
}

export interface VariantAggregate {
  name: string;
  description?: string;
  points: PointAggregate[];
}

/** Every interval measure is a time, a multiple or a share: none is negative, and shares stay at most 1. */
const SHARES = new Set<string>(['peakRetryShare', 'retryShareAtPeak', 'wastedWorkShare', 'successRatio', 'utilisation', 'originalSuccessAfterFault']);
function clampInterval(measure: string, [lo, hi]: [number, number]): [number, number] {
  return [Math.max(0, lo), SHARES.has(measure) ? Math.min(1, hi) : hi];
}

export function aggregatePoint(point: number, values: Record<string, string | number>, runs: RunResult[]): PointAggregate {
  const ss = runs.map((r) => r.summary);
  const recovered = ss.filter((s) => s.recovered).length;
  const intervals: PointAggregate['intervals'] = {};
  if (ss.length > 1) {
    for (const m of INTERVAL_MEASURES) {
      const xs = ss.map((s) => s[m]);
      if (xs.every((x): x is number => typeof x === 'number')) intervals[m] = clampInterval(m, estimate(xs).ci95);
    }
    intervals.attemptsPerActionMean = estimate(ss.map((s) => s.attemptsPerAction.mean)).ci95;
  }
  return {
    point,
    values,
    runs: runs.length,
    recoveredFraction: runs.length ? recovered / runs.length : 0,
    measures: ss.length === 1 ? ss[0] : meanSummary(ss),
    intervals,
    perSeed: runs.map((r) => ({ seed: r.seed, ...r.summary })),
  };
}

/**
 * The across-seed mean of every field of RunSummary, generically so a new measure needs no
 * change here: numbers average; a null in any seed makes the mean null (so recovery time is
 * null unless every seed recovered); booleans hold only if they hold for every seed; a
 * field named `max` takes the maximum; an array (a histogram) is summed element by element.
 */
function meanSummary(ss: RunSummary[]): RunSummary {
  return meanOf(ss, '') as RunSummary;
}

function meanOf(values: unknown[], key: string): unknown {
  const first = values[0];
  if (typeof first === 'boolean') return values.every(Boolean);
  if (Array.isArray(first)) {
    // A histogram (counts by index) is summed across seeds: the distribution of all their actions.
    const sum: number[] = [];
    for (const h of values as number[][]) h.forEach((c, i) => (sum[i] = (sum[i] ?? 0) + c));
    return Array.from(sum, (c) => c ?? 0);
  }
  if (first !== null && typeof first === 'object') {
    return Object.fromEntries(Object.keys(first).map((k) => [k, meanOf(values.map((v) => (v as Record<string, unknown>)[k]), k)]));
  }
  if (values.some((v) => v === null || typeof v !== 'number')) return null;
  const xs = values as number[];
  return key === 'max' ? Math.max(...xs) : estimate(xs).mean;
}
