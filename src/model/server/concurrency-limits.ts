// Over 300 lines because it is one port of Netflix's three limit algorithms, kept together so it can be read against its sources line by line.
/**
 * Adaptive concurrency limits, ported from Netflix's concurrency-limits (Java, Apache-2.0),
 * github.com/Netflix/concurrency-limits, module concurrency-limits-core, package
 * com.netflix.concurrency.limits.limit. docs/concurrency-limits.md explains each algorithm.
 *
 * Sources (file @ commit, as stored by the reference index):
 *   AIMDLimit.java                        @ 784c960d278e75791c12fa107b002accb3888b87
 *   VegasLimit.java                       @ 7989055a5dfd1f2bb654ca8a200db8ac8d629eda
 *   Gradient2Limit.java                   @ f2528defbbf080dcaf5567861faec1506bac0aa2
 *   functions/Log10RootFunction.java      @ 3fbad85a963d3db8d90168d96e03206b178e4627
 *   measurement/ExpAvgMeasurement.java    (2-argument form, see ExpAvg below)
 *   AbstractLimit.java                    @ 37ee6dea54f2e061bab85b65d6816f0255b85edc
 *
 * Semantics. A limiter holds the current concurrency `limit`; the server admits a request
 * only while in-flight < floor(limit). For each completed request the server calls
 * onSample(now, rtt, inflightAtStart, didDrop), and the limiter updates its limit exactly as
 * the Java `_update` does. As in AbstractLimit, the published `limit` is the integer the Java
 * `_update` returns (`(int) estimatedLimit` for Vegas and Gradient2); the fractional estimate
 * is kept in `estimatedLimit`. Java measures rtt in nanoseconds; here rtt and the AIMD timeout
 * are in seconds (only ratios of RTTs and the timeout comparison use them, so the unit
 * change alters nothing). Rejected requests produce no sample (as in the Java limiters).
 *
 * Each class keeps plain number fields: onSample allocates nothing.
 */
import { stream } from '../../engine/rng.js';

export interface ConcurrencyLimit {
  /** Current concurrency limit (the integer the Java getLimit() would return). */
  readonly limit: number;
  /** One completed request: completion time (s), its rtt (s), in-flight count when it started, and whether it was dropped/timed out. */
  onSample(now: number, rtt: number, inflight: number, dropped: boolean): void;
}

export type ConcurrencyLimitSpec = {
  algorithm: 'aimd' | 'vegas' | 'gradient2';
  initialLimit?: number;
  minLimit?: number;
  maxLimit?: number;
};

/** The defaults of each Java Builder, with the file they come from. Times in seconds. */
export const CONCURRENCY_LIMIT_DEFAULTS = {
  aimd: {
    source: 'AIMDLimit.java @ 784c960d278e75791c12fa107b002accb3888b87 (Builder)',
    initialLimit: 20,
    minLimit: 20,
    maxLimit: 200,
    backoffRatio: 0.9,
    /** DEFAULT_TIMEOUT = TimeUnit.SECONDS.toNanos(5): an rtt above it counts as a drop. */
    timeout: 5,
  },
  vegas: {
    source: 'VegasLimit.java @ 7989055a5dfd1f2bb654ca8a200db8ac8d629eda (Builder); Log10RootFunction.java @ 3fbad85a',
    initialLimit: 20,
    /** No minLimit in the Java: the limit is clamped with Math.max(1, ...). */
    minLimit: 1,
    /** maxConcurrency */
    maxLimit: 1000,
    smoothing: 1.0,
    probeMultiplier: 30,
    /** alpha = 3 * log10root(limit), beta = 6 * log10root(limit), threshold = log10root(limit),
     *  increase: limit + log10root(limit), decrease: limit - log10root(limit),
     *  where log10root(n) = max(1, floor(log10(n))) (for n >= 1000: floor(log10(n))). */
    alphaFactor: 3,
    betaFactor: 6,
    /** Probe jitter: uniform in [0.5, 1) (ThreadLocalRandom.nextDouble(0.5, 1)). */
    probeJitterMin: 0.5,
    probeJitterMax: 1,
  },
  gradient2: {
    source: 'Gradient2Limit.java @ f2528defbbf080dcaf5567861faec1506bac0aa2 (Builder)',
    initialLimit: 20,
    minLimit: 20,
    /** maxConcurrency */
    maxLimit: 200,
    smoothing: 0.2,
    /** queueSize = concurrency -> 4 (a constant; sqrt(limit) is the older GradientLimit's default). */
    queueSize: 4,
    longWindow: 600,
    rttTolerance: 1.5,
    /** ExpAvgMeasurement(longWindow, 10): the first 10 samples are averaged plainly. */
    warmupWindow: 10,
  },
} as const;

/** Log10RootFunction.create(0): max(1, (int) log10(n)) below 1000 (lookup table), (int) log10(n) above. */
export function log10Root(n: number): number {
  const t = Math.trunc(n);
  if (t < 1000) return t <= 0 ? 1 : Math.max(1, Math.trunc(Math.log10(t)));
  return Math.trunc(Math.log10(t));
}

export interface AimdOptions {
  initialLimit?: number;
  minLimit?: number;
  maxLimit?: number;
  backoffRatio?: number;
  /** Seconds; an rtt strictly above it is a drop. */
  timeout?: number;
}

/**
 * AIMDLimit: on a drop or rtt > timeout, limit = (int)(limit * backoffRatio); otherwise when
 * inflight * 2 >= limit, limit + 1; then clamped to [minLimit, maxLimit]. (The clamp applies
 * on every sample, also when nothing changed.)
 */
export class AimdLimit implements ConcurrencyLimit {
  limit: number;
  readonly minLimit: number;
  readonly maxLimit: number;
  readonly backoffRatio: number;
  readonly timeout: number;

  constructor(o: AimdOptions = {}) {
    const d = CONCURRENCY_LIMIT_DEFAULTS.aimd;
    this.limit = o.initialLimit ?? d.initialLimit;
    this.minLimit = o.minLimit ?? d.minLimit;
    this.maxLimit = o.maxLimit ?? d.maxLimit;
    this.backoffRatio = o.backoffRatio ?? d.backoffRatio;
    this.timeout = o.timeout ?? d.timeout;
    if (!(this.backoffRatio < 1.0 && this.backoffRatio >= 0.5)) throw new Error('Backoff ratio must be in the range [0.5, 1.0)');
    if (!(this.timeout > 0)) throw new Error('Timeout must be positive');
  }

  onSample(_now: number, rtt: number, inflight: number, dropped: boolean): void {
    let current = this.limit;
    if (dropped || rtt > this.timeout) {
      current = Math.trunc(current * this.backoffRatio);
    } else if (inflight * 2 >= current) {
      current = current + 1;
    }
    this.limit = Math.min(this.maxLimit, Math.max(this.minLimit, current));
  }
}

export interface VegasOptions {
  initialLimit?: number;
  /** Floor of the limit; the Java hard-codes 1. */
  minLimit?: number;
  maxLimit?: number;
  smoothing?: number;
  probeMultiplier?: number;
  /** Uniform [0, 1) source for the probe jitter (Java: ThreadLocalRandom). */
  rng?: () => number;
}

/**
 * VegasLimit. rtt_noload is the minimum rtt seen, reset to the current rtt on a probe, which
 * happens once probeCount >= jitter * probeMultiplier * estimatedLimit (jitter uniform in
 * [0.5, 1), redrawn at each probe). Otherwise queueSize = ceil(L * (1 - rtt_noload / rtt)) and
 *   drop                      -> L - log10root(L)
 *   inflight * 2 < L          -> unchanged (app-limited)
 *   queueSize <= threshold    -> L + beta            (threshold = log10root(L), beta = 6 log10root(L))
 *   queueSize <  alpha        -> L + log10root(L)    (alpha = 3 log10root(L))
 *   queueSize >  beta         -> L - log10root(L)
 *   otherwise                 -> unchanged
 * then clamped to [max(1, minLimit), maxLimit] and smoothed: (1 - s) L + s newL.
 * (The functions take (int) L, as the Java does.)
 */
export class VegasLimit implements ConcurrencyLimit {
  limit: number;
  estimatedLimit: number;
  rttNoLoad = 0;
  probeCount = 0;
  probeJitter = 0;
  readonly minLimit: number;
  readonly maxLimit: number;
  readonly smoothing: number;
  readonly probeMultiplier: number;
  private readonly rng: () => number;

  constructor(o: VegasOptions = {}) {
    const d = CONCURRENCY_LIMIT_DEFAULTS.vegas;
    this.estimatedLimit = o.initialLimit ?? d.initialLimit;
    this.limit = Math.trunc(this.estimatedLimit);
    this.minLimit = Math.max(1, o.minLimit ?? d.minLimit);
    this.maxLimit = o.maxLimit ?? d.maxLimit;
    this.smoothing = o.smoothing ?? d.smoothing;
    this.probeMultiplier = o.probeMultiplier ?? d.probeMultiplier;
    this.rng = o.rng ?? stream(1, 'server/concurrency-limit'); // reproducible when no stream is given
    this.resetProbeJitter();
  }

  private resetProbeJitter(): void {
    const d = CONCURRENCY_LIMIT_DEFAULTS.vegas;
    this.probeJitter = d.probeJitterMin + (d.probeJitterMax - d.probeJitterMin) * this.rng();
  }

  onSample(_now: number, rtt: number, inflight: number, dropped: boolean): void {
    if (!(rtt > 0)) throw new Error(`rtt must be >0 but got ${rtt}`);
    this.probeCount++;
    if (this.probeJitter * this.probeMultiplier * this.estimatedLimit <= this.probeCount) {
      this.resetProbeJitter();
      this.probeCount = 0;
      this.rttNoLoad = rtt;
      return;
    }
    if (this.rttNoLoad === 0 || rtt < this.rttNoLoad) {
      this.rttNoLoad = rtt;
      return;
    }
    const est = this.estimatedLimit;
    const queueSize = Math.ceil(est * (1 - this.rttNoLoad / rtt));
    const l = Math.trunc(est);
    const lg = log10Root(l);
    let newLimit: number;
    if (dropped) {
      newLimit = est - log10Root(l);
    } else if (inflight * 2 < est) {
      return;
    } else {
      const alpha = 3 * lg;
      const beta = 6 * lg;
      const threshold = lg;
      if (queueSize <= threshold) newLimit = est + beta;
      else if (queueSize < alpha) newLimit = est + lg;
      else if (queueSize > beta) newLimit = est - lg;
      else return;
    }
    newLimit = Math.max(this.minLimit, Math.min(this.maxLimit, newLimit));
    newLimit = (1 - this.smoothing) * est + this.smoothing * newLimit;
    this.estimatedLimit = newLimit;
    this.limit = Math.trunc(newLimit);
  }
}

export interface Gradient2Options {
  initialLimit?: number;
  minLimit?: number;
  maxLimit?: number;
  smoothing?: number;
  queueSize?: number;
  longWindow?: number;
  rttTolerance?: number;
}

/**
 * Gradient2Limit. longRtt is an exponential average (ExpAvgMeasurement(longWindow, 10): plain
 * mean of the first 10 samples, then factor 2 / (longWindow + 1)); shortRtt is the sample.
 *   if longRtt / shortRtt > 2: longRtt *= 0.95            (recovering after a long overload)
 *   if inflight < L / 2: unchanged                        (app-limited)
 *   gradient = max(0.5, min(1, tolerance * longRtt / shortRtt))
 *   newL = L * gradient + queueSize;  newL = L (1 - smoothing) + newL smoothing
 *   clamp to [minLimit, maxLimit]
 */
export class Gradient2Limit implements ConcurrencyLimit {
  limit: number;
  estimatedLimit: number;
  longRtt = 0;
  lastRtt = 0;
  private longCount = 0;
  private longSum = 0;
  readonly minLimit: number;
  readonly maxLimit: number;
  readonly smoothing: number;
  readonly queueSize: number;
  readonly longWindow: number;
  readonly rttTolerance: number;
  private readonly warmupWindow: number = CONCURRENCY_LIMIT_DEFAULTS.gradient2.warmupWindow;

  constructor(o: Gradient2Options = {}) {
    const d = CONCURRENCY_LIMIT_DEFAULTS.gradient2;
    this.estimatedLimit = o.initialLimit ?? d.initialLimit;
    this.limit = Math.trunc(this.estimatedLimit);
    this.minLimit = o.minLimit ?? d.minLimit;
    this.maxLimit = o.maxLimit ?? d.maxLimit;
    this.smoothing = o.smoothing ?? d.smoothing;
    this.queueSize = o.queueSize ?? d.queueSize;
    this.longWindow = o.longWindow ?? d.longWindow;
    this.rttTolerance = o.rttTolerance ?? d.rttTolerance;
    if (!(this.rttTolerance >= 1.0)) throw new Error('Tolerance must be >= 1.0');
  }

  private addLong(sample: number): number {
    if (this.longCount < this.warmupWindow) {
      this.longCount++;
      this.longSum += sample;
      this.longRtt = this.longSum / this.longCount;
    } else {
      const f = 2.0 / (this.longWindow + 1);
      this.longRtt = this.longRtt * (1 - f) + sample * f;
    }
    return this.longRtt;
  }

  onSample(_now: number, rtt: number, inflight: number, _dropped: boolean): void {
    const queueSize = this.queueSize;
    this.lastRtt = rtt;
    const shortRtt = rtt;
    const longRtt = this.addLong(rtt);
    if (longRtt / shortRtt > 2) this.longRtt *= 0.95;
    const est = this.estimatedLimit;
    if (inflight < est / 2) return;
    // The gradient uses longRtt as read before the 0.95 decay, as in the Java (a local copy).
    const gradient = Math.max(0.5, Math.min(1.0, (this.rttTolerance * longRtt) / shortRtt));
    let newLimit = est * gradient + queueSize;
    newLimit = est * (1 - this.smoothing) + newLimit * this.smoothing;
    newLimit = Math.max(this.minLimit, Math.min(this.maxLimit, newLimit));
    this.estimatedLimit = newLimit;
    this.limit = Math.trunc(newLimit);
  }
}

/** Build a limiter from a scenario spec; `rng` feeds Vegas's probe jitter (ignored by the others). */
export function makeConcurrencyLimit(spec: ConcurrencyLimitSpec, rng?: () => number): ConcurrencyLimit {
  const o = { initialLimit: spec.initialLimit, minLimit: spec.minLimit, maxLimit: spec.maxLimit };
  switch (spec.algorithm) {
    case 'aimd':
      return new AimdLimit(o);
    case 'vegas':
      return new VegasLimit({ ...o, rng });
    case 'gradient2':
      return new Gradient2Limit(o);
    default:
      throw new Error(`unknown concurrency limit algorithm: ${(spec as { algorithm: string }).algorithm}`);
  }
}
