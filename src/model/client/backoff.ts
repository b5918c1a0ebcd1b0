/**
 * How long a layer waits before retry number n (n = 1 for the first retry).
 *
 * cap(n) = base for constant, min(max, base*n) for linear,
 * min(max, base * multiplier^(n-1)) for exponential. Then the jitter:
 *   none           cap
 *   full           uniform(0, cap)                        ("Exponential Backoff And Jitter", AWS Architecture Blog, 2015)
 *   equal          cap/2 + uniform(0, cap/2)              (same article)
 *   decorrelated   min(max, uniform(base, 3 * previous)), previous starting at base (same article)
 *   decorrelated-v2  Polly.Contrib.WaitAndRetry's DecorrelatedJitterBackoffV2: with t = n-1 + uniform(0,1),
 *                  f(t) = 2^t * tanh(sqrt(4t)), wait = min(max, (f(t) - f(previous t)) / 1.4 * base):
 *                  base is the median first delay
 *   proportional   cap * (1 + jitterFactor * uniform(-1, 1))
 *   scaled         cap * uniform(jitterMin, jitterMax)       (gRFC A6 since 2024-08-29: uniform(0.8, 1.2))
 * Stateful jitters keep their state in the caller's `state` slot (one per action and layer).
 */
import type { Rng } from '../../engine/rng.js';
import type { BackoffSpec } from './layer-spec.js';

/** The state a stateful jitter starts from, for a new call of the layer. */
export function initialBackoffState(b: BackoffSpec): number {
  return b.jitter === 'decorrelated' ? b.base : 0;
}

export function capOf(b: BackoffSpec, n: number): number {
  switch (b.kind) {
    case 'none':
      return 0;
    case 'constant':
    case 'visibility':
      // A constant wait is what it says: `max` bounds growing waits only (a default 10 s cap
      // would silently shorten a 180 s constant wait).
      return b.base;
    case 'linear':
      return Math.min(b.max, b.base * n);
    case 'exponential':
      return Math.min(b.max, b.base * Math.pow(b.multiplier, n - 1));
  }
}

/** The wait before retry `n`; `state` holds the stateful jitters' previous value and is updated in place. */
export function backoffDelay(b: BackoffSpec, n: number, rng: Rng, state: Float64Array, slot: number): number {
  if (b.kind === 'none') return 0;
  switch (b.jitter) {
    case 'none':
      return capOf(b, n);
    case 'full':
      return rng() * capOf(b, n);
    case 'equal': {
      const cap = capOf(b, n);
      return cap / 2 + rng() * (cap / 2);
    }
    case 'proportional':
      return Math.max(0, capOf(b, n) * (1 + b.jitterFactor * (2 * rng() - 1)));
    case 'scaled':
      return capOf(b, n) * (b.jitterMin + rng() * (b.jitterMax - b.jitterMin));
    case 'decorrelated': {
      const prev = state[slot];
      const sleep = Math.min(b.max, b.base + rng() * (prev * 3 - b.base));
      state[slot] = sleep;
      return sleep;
    }
    case 'decorrelated-v2': {
      const t = n - 1 + rng();
      const next = Math.pow(2, t) * Math.tanh(Math.sqrt(4 * t));
      const wait = Math.min(b.max, ((next - state[slot]) / 1.4) * b.base);
      state[slot] = next;
      return wait;
    }
  }
}

/**
 * A layer's backoff prepared once per run: the caps of the first retries in a table, so the
 * usual case (full jitter) costs one table read and one draw per retry instead of walking
 * two switches on strings and a Math.pow. The table holds exactly what capOf computes, so
 * the delays, and the run, are the same to the bit.
 */
export interface PreparedBackoff {
  spec: BackoffSpec;
  /** caps[n] = capOf(spec, n) for n < caps.length (caps[0] unused); empty when the fast path does not apply. */
  caps: Float64Array;
  /** No jitter: the wait is the cap itself, with no draw (full jitter otherwise). */
  exact: boolean;
}

/** Retry numbers the table covers; later ones (rare: more than 32 tries) take the general path. */
const CAP_TABLE = 33;

export function prepareBackoff(b: BackoffSpec): PreparedBackoff {
  // Full jitter and no jitter (the flagship's clients mostly wait exactly their cap) take the table.
  if (b.kind === 'none' || (b.jitter !== 'full' && b.jitter !== 'none')) return { spec: b, caps: new Float64Array(0), exact: false };
  return { spec: b, caps: Float64Array.from({ length: CAP_TABLE }, (_, n) => (n === 0 ? 0 : capOf(b, n))), exact: b.jitter === 'none' };
}

/** backoffDelay, through the prepared table when it covers retry `n`. */
export function preparedDelay(p: PreparedBackoff, n: number, rng: Rng, state: Float64Array, slot: number): number {
  const caps = p.caps;
  if (n < caps.length) return p.exact ? caps[n] : rng() * caps[n];
  return backoffDelay(p.spec, n, rng, state, slot);
}
