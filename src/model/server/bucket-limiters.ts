/**
 * The rate limiters that refill or drain at a rate: Stripe's token bucket, GCRA (the same
 * decisions in one number per key), and the leaky bucket as a queue (nginx `limit_req` with
 * `burst`). The contract they keep, and why every comparison has a tolerance EPS, are in
 * rate-limiters.ts; docs/rate-limiters.md compares them.
 *
 * Why a module of its own: these limiters have no windows; each is a rate and a depth, and
 * they share that arithmetic with one another and none with the window limiters
 * (window-limiters.ts).
 */
import { EPS, type RateLimiter } from './rate-limiters.js';

/**
 * Token bucket: a bucket of `burst` tokens, refilled continuously at `rate` tokens/s up to
 * `burst`; a request takes one token and is refused when less than one is left (taking
 * nothing). Stripe limits its API's request rate with a token bucket in Redis ("Scaling
 * your API with rate limiters", 2017; its gist runs it as a Redis script). As in the common
 * Redis Lua form of it (e.g. Spring Cloud Gateway's request_rate_limiter.lua:
 * filled = min(capacity, tokens + elapsed x rate); allowed when filled >= requested), the
 * state is the tokens and the time they were last computed, and a refusal stores the
 * refill without consuming. A bucket starts full.
 *
 * Boundary: there are no windows. At most `burst` pass at once, and at most
 * burst + rate x t in any span of t seconds.
 */
export class TokenBucket implements RateLimiter {
  readonly bytesPerKey = 16;
  /** Tokens left at `last` (may be below 0 by at most EPS, from the tolerance). */
  readonly tokens: Float64Array;
  /** When `tokens` was last brought up to date; -Infinity before a key's first request. */
  readonly last: Float64Array;

  constructor(keys: number, readonly rate: number, readonly burst: number) {
    this.tokens = new Float64Array(keys).fill(burst);
    this.last = new Float64Array(keys).fill(-Infinity);
  }

  private filled(key: number, now: number): number {
    return Math.min(this.burst, this.tokens[key] + (now - this.last[key]) * this.rate);
  }

  check(key: number, now: number): number {
    const t = this.filled(key, now);
    this.last[key] = now;
    if (t >= 1 - EPS) {
      this.tokens[key] = t - 1;
      return 0;
    }
    this.tokens[key] = t;
    return -1;
  }

  /** 0 while a token is left; otherwise (1 - tokens) / rate, when the next one is. */
  retryAfter(key: number, now: number): number {
    const t = this.filled(key, now);
    return t >= 1 - EPS ? 0 : (1 - t) / this.rate;
  }
}

/**
 * GCRA, the generic cell rate algorithm (ATM Forum; Brandur Leach, "Rate Limiting, Cells,
 * and GCRA", 2015, and its reference implementation Throttled). One float per key: the
 * theoretical arrival time TAT, when the key's next request would be due if it had always
 * sent at exactly `rate`. With emission interval T = 1 / rate and tolerance
 * tau = (burst - 1) x T, a request at t is refused when t < TAT - tau; otherwise allowed
 * and TAT = max(t, TAT) + T.
 *
 * It makes exactly the token bucket's decisions for the same rate and burst: the bucket's
 * tokens are burst - max(0, TAT - t) / T, so "tokens >= 1" is "t >= TAT - tau", taking a
 * token is adding T to TAT, and the refill cap at `burst` is the max(t, TAT). It needs one
 * number per key instead of two, and no write when it refuses.
 */
export class Gcra implements RateLimiter {
  readonly bytesPerKey = 8;
  /** Theoretical arrival time of each key; -Infinity before its first request. */
  readonly tat: Float64Array;
  /** Emission interval T = 1 / rate. */
  readonly interval: number;
  /** Delay variation tolerance tau = (burst - 1) x T. */
  readonly tolerance: number;
  private readonly slack: number;

  constructor(keys: number, readonly rate: number, readonly burst: number) {
    this.tat = new Float64Array(keys).fill(-Infinity);
    this.interval = 1 / rate;
    this.tolerance = (burst - 1) * this.interval;
    this.slack = this.tolerance + EPS * this.interval;
  }

  check(key: number, now: number): number {
    const tat = this.tat[key];
    if (now < tat - this.slack) return -1;
    this.tat[key] = (tat > now ? tat : now) + this.interval;
    return 0;
  }

  /** TAT - tau - now: when the request would conform. */
  retryAfter(key: number, now: number): number {
    return Math.max(0, this.tat[key] - this.tolerance - now);
  }
}

/**
 * The leaky bucket as a queue (Tanenbaum, Computer Networks: a finite queue that releases
 * one request per tick; in HTTP servers nginx's `limit_req ... burst=N` without `nodelay`):
 * requests of a key leave one every 1 / rate seconds; a request that finds the bucket idle
 * leaves at once, one that finds others waiting joins the end of the queue, and one that
 * finds `capacity` waiting is refused. check returns the allowed request's wait, so the
 * k-th of a simultaneous burst waits (k - 1) / rate, and the (capacity + 2)-th is refused.
 *
 * As departures are evenly spaced, the queue is one float per key: when the next request
 * may leave. Unlike Tanenbaum's clocked queue, departures are not tied to a fixed phase: a
 * request arriving at an idle bucket leaves immediately (as in nginx).
 */
export class LeakyBucketQueue implements RateLimiter {
  readonly bytesPerKey = 8;
  /** When the key's next request may leave (previous departure + 1 / rate); -Infinity when never used. */
  readonly next: Float64Array;
  /** 1 / rate. */
  readonly interval: number;
  private readonly maxDelay: number;

  constructor(keys: number, readonly rate: number, readonly capacity: number) {
    this.next = new Float64Array(keys).fill(-Infinity);
    this.interval = 1 / rate;
    this.maxDelay = (capacity + EPS) * this.interval;
  }

  check(key: number, now: number): number {
    const n = this.next[key];
    const start = n > now ? n : now;
    const delay = start - now;
    // Waiting ahead of it: the requests that leave after now, ceil(delay / T) - 1 of them.
    // It is refused when that is >= capacity, i.e. when delay > capacity x T.
    if (delay > this.maxDelay) return -1;
    this.next[key] = start + this.interval;
    return delay;
  }

  /** Requests of this key waiting in the queue at now (not counting one leaving at now). */
  waiting(key: number, now: number): number {
    const ahead = (this.next[key] - now) / this.interval;
    return ahead > EPS ? Math.max(0, Math.ceil(ahead - EPS) - 1) : 0;
  }

  /** 0 while there is room; otherwise when the queue is one shorter. */
  retryAfter(key: number, now: number): number {
    return Math.max(0, this.next[key] - this.capacity * this.interval - now);
  }
}
