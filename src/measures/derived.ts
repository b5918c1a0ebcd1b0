/**
 * The foundations every measure stands on: the settings that tune them, the real width of
 * each time bucket, the per-bucket derived series (load multiple, retry share, goodput,
 * success ratio) and the 1x baseline they are all compared against.
 *
 * They live apart from the scalar measures so that the report can draw the very same
 * per-bucket curves the summary numbers were computed from, without a second definition.
 */
import type { BucketSeries, RunRecord } from '../model/series.js';

/** Knobs of the measures. Scenario settings; the report shows the values it used. */
export interface MeasureSettings {
  /** Seconds at the start of the run left out of the baseline (queues and clients settle). */
  warmupS: number;
  /** Seconds the service must stay healthy, without a break, to count as recovered. */
  holdS: number;
  /** How far (absolute) a bucket's success ratio may sit below the pre-fault ratio and still be healthy. */
  successRatioDrop: number;
  /** How far (relative) a bucket's offered load multiple may sit above the pre-fault one and still be healthy. */
  loadExcess: number;
  /** Users perceive an outage in a bucket whose success ratio is below this. */
  perceivedOutageThreshold: number;
  /** Declared 1x user-action rate (actions/s); measured from the pre-fault window when absent. */
  baselineRate?: number;
  /** Buckets with fewer attempts have no retry share: a handful of attempts makes a noisy ratio. */
  minAttemptsForShare: number;
  /** How long users must see the service up again before a fall counts as a relapse. */
  relapseUpS: number;
}

export const DEFAULT_MEASURE_SETTINGS: Readonly<MeasureSettings> = Object.freeze({
  warmupS: 60,
  holdS: 120,
  successRatioDrop: 0.02,
  loadExcess: 0.2,
  perceivedOutageThreshold: 0.9,
  minAttemptsForShare: 20,
  relapseUpS: 60,
});

/** Start time (s) of bucket i. Always computed the same way so comparisons agree everywhere. */
export function bucketStartS(series: BucketSeries, i: number): number {
  return i * series.bucketS;
}

/**
 * Real width (s) of each bucket. All are `bucketS` except possibly the last, which stops at
 * the horizon; counts are divided by this width so a short last bucket is not under-read.
 */
export function bucketWidths(series: BucketSeries, horizonS: number): Float64Array {
  const w = new Float64Array(series.n);
  for (let i = 0; i < series.n; i++) {
    const end = Math.min((i + 1) * series.bucketS, horizonS);
    w[i] = Math.max(0, end - i * series.bucketS);
  }
  return w;
}

/** Per-bucket derived series; NaN marks a bucket where the ratio has no meaning. */
export interface DerivedSeries {
  /** Real width of each bucket (s). */
  widthS: Float64Array;
  /** Attempts per second ÷ baseline rate; NaN when the baseline is 0. */
  offeredLoadMultiple: Float64Array;
  /** Retries ÷ attempts (ground truth); NaN below `minAttemptsForShare` attempts. */
  retryShare: Float64Array;
  /** User actions completed successfully per second. */
  goodput: Float64Array;
  /** actionsOk ÷ (actionsOk + actionsFailed); NaN when no action ended in the bucket. */
  successRatio: Float64Array;
}

export interface DerivedSeriesOptions {
  /** The 1x user-action rate (actions/s). */
  baselineRate: number;
  minAttemptsForShare: number;
  /** Run horizon (s); only the last bucket's width depends on it. Defaults to n × bucketS. */
  horizonS?: number;
}

export function derivedSeries(series: BucketSeries, opts: DerivedSeriesOptions): DerivedSeries {
  const widthS = bucketWidths(series, opts.horizonS ?? series.n * series.bucketS);
  const n = series.n;
  const offeredLoadMultiple = new Float64Array(n);
  const retryShare = new Float64Array(n);
  const goodput = new Float64Array(n);
  const successRatio = new Float64Array(n);
  const base = opts.baselineRate > 0 ? opts.baselineRate : NaN;
  for (let i = 0; i < n; i++) {
    const w = widthS[i];
    const attempts = series.attempts[i];
    offeredLoadMultiple[i] = w > 0 ? attempts / w / base : NaN;
    // Max with 1 so that minAttemptsForShare 0 still leaves an empty bucket without a share.
    retryShare[i] = attempts >= Math.max(1, opts.minAttemptsForShare) ? series.retries[i] / attempts : NaN;
    goodput[i] = w > 0 ? series.actionsOk[i] / w : NaN;
    const ended = series.actionsOk[i] + series.actionsFailed[i];
    successRatio[i] = ended > 0 ? series.actionsOk[i] / ended : NaN;
  }
  return { widthS, offeredLoadMultiple, retryShare, goodput, successRatio };
}

/** The 1x reference: the arrival rate and how the service behaved before anything broke. */
export interface Baseline {
  /** 1x user-action rate (actions/s). 0 when nothing arrived in the window and none was declared. */
  rate: number;
  /** True when the rate came from `settings.baselineRate` rather than the record. */
  declared: boolean;
  /** The reference window [fromS, toS): whole buckets only. Empty (fromS = toS) when the run has no buckets. */
  fromS: number;
  toS: number;
  /** Pooled over the window: Σ actionsOk ÷ Σ (actionsOk + actionsFailed). NaN when no action ended. */
  successRatio: number;
  /** Pooled over the window: Σ attempts ÷ (rate × window duration). NaN when the rate is 0. */
  loadMultiple: number;
}

/** Start of the first fault, or the horizon when there is none. */
export function firstFaultStartS(record: RunRecord): number {
  let start = record.horizonS;
  for (const f of record.faults) start = Math.min(start, f.startS);
  return start;
}

/** Index range [lo, hi) of the buckets lying wholly inside [fromS, toS). */
function wholeBucketsWithin(record: RunRecord, fromS: number, toS: number): [number, number] {
  const s = record.series;
  const widths = bucketWidths(s, record.horizonS);
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < s.n; i++) {
    const start = bucketStartS(s, i);
    if (start >= fromS && start + widths[i] <= toS && widths[i] > 0) {
      if (lo < 0) lo = i;
      hi = i + 1;
    }
  }
  return lo < 0 ? [0, 0] : [lo, hi];
}

/**
 * Chooses the reference window: whole buckets inside [warmupS, first fault start); if there
 * is none, whole buckets inside [0, first fault start) (a fault that comes before warm-up
 * ends still deserves a comparison); if still none, the first bucket alone, which is the
 * least-disturbed data the run has. Without faults the first fault start is the horizon.
 */
export function baselineWindow(record: RunRecord, settings: MeasureSettings): [number, number] {
  const faultStart = Math.min(firstFaultStartS(record), record.horizonS);
  let [lo, hi] = wholeBucketsWithin(record, settings.warmupS, faultStart);
  if (hi === lo) [lo, hi] = wholeBucketsWithin(record, 0, faultStart);
  if (hi === lo && record.series.n > 0) [lo, hi] = [0, 1];
  return [lo, hi];
}

export function baseline(record: RunRecord, settings: MeasureSettings): Baseline {
  const s = record.series;
  const widths = bucketWidths(s, record.horizonS);
  const [lo, hi] = baselineWindow(record, settings);
  let duration = 0;
  let started = 0;
  let ok = 0;
  let ended = 0;
  let attempts = 0;
  for (let i = lo; i < hi; i++) {
    duration += widths[i];
    started += s.actionsStarted[i];
    ok += s.actionsOk[i];
    ended += s.actionsOk[i] + s.actionsFailed[i];
    attempts += s.attempts[i];
  }
  const declared = settings.baselineRate !== undefined;
  const measured = duration > 0 ? started / duration : 0;
  const rate = declared ? (settings.baselineRate as number) : measured;
  return {
    rate,
    declared,
    fromS: hi > lo ? bucketStartS(s, lo) : 0,
    toS: hi > lo ? bucketStartS(s, hi - 1) + widths[hi - 1] : 0,
    successRatio: ended > 0 ? ok / ended : NaN,
    loadMultiple: rate > 0 && duration > 0 ? attempts / (rate * duration) : NaN,
  };
}
