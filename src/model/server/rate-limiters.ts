/**
 * Server-side rate limiters, as they are built on a shared store such as Redis (story 001):
 * fixed window (INCR + EXPIRE), sliding log, Cloudflare's sliding window counter, Stripe's
 * token bucket, GCRA, and the leaky bucket as a queue (nginx `limit_req` with `burst`).
 * docs/rate-limiters.md explains each, what it lets through at window boundaries and the
 * memory it needs per key; the sources are cited there and next to each class. The limiters
 * counted in windows are in window-limiters.ts, those that refill or drain at a rate in
 * bucket-limiters.ts; make-rate-limiter.ts makes one from its spec. This file is what they
 * share: the interface, the spec, and the tolerance of their float time.
 *
 * The simulator's hot loop makes millions of decisions per second, so a limiter keeps its
 * state in typed arrays indexed by a dense integer key in [0, keys) (a client id, an IP
 * index, a tier, a route index, or 0 for a global limit), never in per-request objects.
 * Keys are not range-checked on the hot path. Time `now` is in seconds and must not
 * decrease from one call to the next.
 *
 * Float time. Real implementations compare integer clocks (Redis `TIME` in microseconds,
 * Throttled in nanoseconds); here time is a float, so sums such as "last arrival + 1/rate"
 * carry rounding error. Every comparison therefore has a tolerance of EPS = 1e-9 of the
 * limiter's period (its window, or its emission interval 1/rate): a request that arrives
 * within a billionth of a period of being conforming is treated as conforming. Without it a
 * request sent exactly at the time `retryAfter` named could be refused by one ulp.
 */

export interface RateLimiter {
  /** Decide for one request with this key at time now. Returns >= 0 when allowed: the delay (s) before it may proceed (0 except for the leaky-bucket queue); -1 when refused. */
  check(key: number, now: number): number;
  /** When a refused key could next be allowed (s from now) — for Retry-After; >= 0. */
  retryAfter(key: number, now: number): number;
  /** Bytes of state this limiter holds per key (for the report: what a shared store would need). */
  readonly bytesPerKey: number;
}

export type RateLimiterSpec =
  | { algorithm: 'fixed-window'; limit: number; window: number }
  | { algorithm: 'sliding-log'; limit: number; window: number }
  | { algorithm: 'sliding-window-counter'; limit: number; window: number }
  | { algorithm: 'token-bucket'; rate: number /* tokens per s */; burst: number }
  | { algorithm: 'gcra'; rate: number; burst: number }
  | { algorithm: 'leaky-bucket-queue'; rate: number /* drained per s */; capacity: number /* queued requests */ };

/** Tolerance of every time comparison, as a fraction of the limiter's period (see the header). */
export const EPS = 1e-9;
