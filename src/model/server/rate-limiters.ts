/**
 * Server-side rate limiters, as they are built on a shared store such as Redis (story 001):
 * fixed window (INCR + EXPIRE), sliding log, Cloudflare's sliding window counter, Stripe's
 * token bucket, GCRA, and the leaky bucket as a queue (nginx `limit_req` with `burst`).
 * docs/rate-limiters.md explains each, what it lets through at window boundaries and the
 * memory it needs per key; the sources are cited there and next to each class.
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

/** Most timestamps a sliding log may hold in all (keys x limit): 50M x 8 bytes = 400 MB. */
export const MAX_SLIDING_LOG_ENTRIES = 50_000_000;

/**
 * Fixed window: the Redis INCR pattern ("Pattern: Rate limiter 1" of the INCR command
 * docs, and story 001's key `rate-limit:<user>:<minute>`). Every request INCRs the counter
 * of the current window, floor(now / window), and is allowed while the value INCR returned
 * is <= limit. EXPIRE only garbage-collects old keys; the window is in the key name, so
 * windows are aligned to multiples of `window`, not to a key's first request.
 *
 * Refused requests are counted too, as INCR counts every call. Because the counter starts
 * afresh in the next window whatever it reached, this changes no decision: it only means
 * the counter reports attempts, not admissions (`count` here).
 *
 * Boundary: `limit` requests just before a boundary and `limit` just after are all allowed,
 * so up to 2 x limit pass within an instant.
 */
export class FixedWindow implements RateLimiter {
  readonly bytesPerKey: number = 16;
  /** floor(now / window) of the window `count` belongs to; -Infinity before a key's first request. */
  readonly windowOf: Float64Array;
  /** The INCR counter: every request seen in that window, refused ones included. */
  readonly count: Float64Array;

  constructor(keys: number, readonly limit: number, readonly window: number) {
    this.windowOf = new Float64Array(keys).fill(-Infinity);
    this.count = new Float64Array(keys);
  }

  private index(now: number): number {
    return Math.floor(now / this.window + EPS);
  }

  check(key: number, now: number): number {
    const w = this.index(now);
    if (this.windowOf[key] !== w) {
      this.windowOf[key] = w;
      this.count[key] = 0;
    }
    return ++this.count[key] <= this.limit ? 0 : -1;
  }

  /** 0 while the window has room; otherwise the time until the window ends. */
  retryAfter(key: number, now: number): number {
    const w = this.index(now);
    const c = this.windowOf[key] === w ? this.count[key] : 0;
    if (c < this.limit) return 0;
    return Math.max(0, (w + 1) * this.window - now);
  }
}

/**
 * The fixed window of a shared store whose window is named by each application server's own
 * clock, as in story 001's key `rate-limit:<user>:<timestamp rounded to the minute>` built by
 * the server: with clocks out of step, two windows of a key are written at once around each
 * boundary (a server ahead already INCRs the next minute's key while one behind still INCRs
 * the last one's). `now` here is the clock of the server that sent the request, so it may go
 * back, by less than a window: each key keeps its newest window's counter and the one before.
 * A request naming a window older than both finds its key expired (EXPIRE ran out) and starts
 * a new count of 1, which is not kept: clocks a window or more apart are not counted exactly.
 */
export class FixedWindowByServerClock extends FixedWindow {
  override readonly bytesPerKey: number = 24;
  /** The INCR counter of window windowOf - 1 (0 when that key was never written). */
  readonly previous: Float64Array;

  constructor(keys: number, limit: number, window: number) {
    super(keys, limit, window);
    this.previous = new Float64Array(keys);
  }

  override check(key: number, now: number): number {
    const w = Math.floor(now / this.window + EPS);
    const newest = this.windowOf[key];
    if (w > newest) {
      this.previous[key] = w === newest + 1 ? this.count[key] : 0;
      this.windowOf[key] = w;
      this.count[key] = 0;
    } else if (w === newest - 1) {
      return ++this.previous[key] <= this.limit ? 0 : -1;
    } else if (w < newest) {
      return 0;
    }
    return ++this.count[key] <= this.limit ? 0 : -1;
  }

  /** On the sending server's clock: 0 while its window has room, otherwise until it ends. */
  override retryAfter(key: number, now: number): number {
    const w = Math.floor(now / this.window + EPS);
    const newest = this.windowOf[key];
    const c = w === newest ? this.count[key] : w === newest - 1 ? this.previous[key] : 0;
    if (c < this.limit) return 0;
    return Math.max(0, (w + 1) * this.window - now);
  }
}

/**
 * Sliding log: the timestamps of the requests allowed in the last `window` seconds (in
 * Redis a sorted set: ZREMRANGEBYSCORE key -inf now-window, ZCARD, ZADD). A request is
 * allowed when fewer than `limit` timestamps lie in (now - window, now]; only allowed
 * requests are logged, so a client that keeps hammering while refused does not extend its
 * own lockout (variants that ZADD every request do). As at most `limit` timestamps can be
 * in the window, each key has a ring buffer of `limit` slots: keys x limit doubles.
 *
 * Exact: no span of `window` seconds ever holds more than `limit` allowed requests.
 */
export class SlidingLog implements RateLimiter {
  readonly bytesPerKey: number;
  /** Ring buffers, `limit` slots per key: key k's slots are [k * limit, (k + 1) * limit). */
  readonly log: Float64Array;
  /** Slot (0..limit-1) of the oldest timestamp of each key. */
  readonly head: Uint32Array;
  /** How many timestamps each key holds. */
  readonly size: Uint32Array;

  constructor(keys: number, readonly limit: number, readonly window: number) {
    const entries = keys * limit;
    if (entries > MAX_SLIDING_LOG_ENTRIES) {
      throw new RangeError(
        `rate limiter sliding-log: keys x limit = ${keys} x ${limit} = ${entries} timestamps ` +
          `(${Math.round((entries * 8) / 1e6)} MB) is more than the ${MAX_SLIDING_LOG_ENTRIES} allowed; ` +
          `use sliding-window-counter (24 bytes per key), a smaller limit, or fewer keys`,
      );
    }
    this.bytesPerKey = 8 * limit + 8;
    this.log = new Float64Array(entries);
    this.head = new Uint32Array(keys);
    this.size = new Uint32Array(keys);
  }

  /** Drops the timestamps that have left the window; returns how many remain. */
  private evict(key: number, now: number): number {
    const limit = this.limit;
    const base = key * limit;
    const cutoff = now - this.window + EPS * this.window;
    let h = this.head[key];
    let n = this.size[key];
    while (n > 0 && this.log[base + h] <= cutoff) {
      h = h + 1 === limit ? 0 : h + 1;
      n--;
    }
    this.head[key] = h;
    this.size[key] = n;
    return n;
  }

  check(key: number, now: number): number {
    const n = this.evict(key, now);
    if (n >= this.limit) return -1;
    let tail = this.head[key] + n;
    if (tail >= this.limit) tail -= this.limit;
    this.log[key * this.limit + tail] = now;
    this.size[key] = n + 1;
    return 0;
  }

  /** 0 while fewer than `limit` are in the window; otherwise when the oldest leaves it. */
  retryAfter(key: number, now: number): number {
    if (this.evict(key, now) < this.limit) return 0;
    return Math.max(0, this.log[key * this.limit + this.head[key]] + this.window - now);
  }
}

/**
 * Sliding window counter: Cloudflare's approximation of a sliding window from two fixed
 * windows ("How we built rate limiting capable of scaling to millions of domains", 2017).
 * The count in the last `window` seconds is estimated as
 *   previous window's count x (share of the sliding window still over it) + current count,
 * i.e. prev x (1 - p) + cur with p the elapsed fraction of the current window, assuming
 * the previous window's requests were spread evenly. Allowed when the estimate < limit;
 * Cloudflare's example: 42 x (45/60) + 18 = 49.5 < 50, allowed.
 *
 * Only allowed requests are counted (the usual Redis variant: INCR only on success).
 * Cloudflare's edge counts every matching request and then blocks for a mitigation
 * period; counting refusals here would starve a client that keeps sending above the limit,
 * and the estimate would never fall back under it.
 *
 * Boundary: a burst just before a boundary still weighs almost fully just after it, so the
 * fixed window's 2 x limit burst is blocked. But the estimate is not a bound: `limit` sent
 * at the end of one window count only (1 - p) in the next, so another ~`limit` sent late in
 * the next window pass too, up to ~2 x limit within one window span (see the tests).
 */
export class SlidingWindowCounter implements RateLimiter {
  readonly bytesPerKey = 24;
  /** floor(now / window) of the current window; -Infinity before a key's first request. */
  readonly windowOf: Float64Array;
  /** Requests allowed in the current window. */
  readonly current: Float64Array;
  /** Requests allowed in the window before it (0 if that window saw none). */
  readonly previous: Float64Array;

  constructor(keys: number, readonly limit: number, readonly window: number) {
    this.windowOf = new Float64Array(keys).fill(-Infinity);
    this.current = new Float64Array(keys);
    this.previous = new Float64Array(keys);
  }

  private index(now: number): number {
    return Math.floor(now / this.window + EPS);
  }

  /** Elapsed fraction of window w at now, in [0, 1]. */
  private elapsed(now: number, w: number): number {
    const p = (now - w * this.window) / this.window;
    return p < 0 ? 0 : p > 1 ? 1 : p;
  }

  check(key: number, now: number): number {
    const w = this.index(now);
    const last = this.windowOf[key];
    if (last !== w) {
      this.previous[key] = last === w - 1 ? this.current[key] : 0;
      this.current[key] = 0;
      this.windowOf[key] = w;
    }
    const estimate = this.previous[key] * (1 - this.elapsed(now, w)) + this.current[key];
    if (estimate < this.limit) {
      this.current[key]++;
      return 0;
    }
    return -1;
  }

  /**
   * 0 while the estimate is under the limit; otherwise the first time it is (to within
   * EPS x window: at the exact crossing the estimate equals the limit, which is refused).
   */
  retryAfter(key: number, now: number): number {
    const w = this.index(now);
    const last = this.windowOf[key];
    const prev = last === w ? this.previous[key] : last === w - 1 ? this.current[key] : 0;
    const cur = last === w ? this.current[key] : 0;
    const limit = this.limit;
    if (prev * (1 - this.elapsed(now, w)) + cur < limit) return 0;
    // Still under the limit once the previous window has faded enough, within this window:
    // prev x (1 - p) + cur < limit  <=>  p > 1 - (limit - cur) / prev   (prev > 0 here).
    // Otherwise this window is full: in the next one it is `prev`, and cur x (1 - p') < limit.
    const p = cur < limit ? w + 1 - (limit - cur) / prev : w + 2 - limit / cur;
    return Math.max(0, p * this.window + EPS * this.window - now);
  }
}

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

function fail(algorithm: string, message: string): never {
  throw new RangeError(`rate limiter ${algorithm}: ${message}`);
}

function positiveInteger(algorithm: string, name: string, v: number): number {
  if (!Number.isInteger(v) || v < 1) fail(algorithm, `${name} must be a positive integer (got ${v})`);
  return v;
}

function positiveFinite(algorithm: string, name: string, v: number): number {
  if (!Number.isFinite(v) || v <= 0) fail(algorithm, `${name} must be a positive finite number (got ${v})`);
  return v;
}

/** A limiter for `keys` keys (0 .. keys - 1), each starting fresh (empty window, full bucket). */
export function makeRateLimiter(spec: RateLimiterSpec, keys: number): RateLimiter {
  const a = spec.algorithm;
  if (!Number.isInteger(keys) || keys < 1) fail(a, `keys must be a positive integer (got ${keys})`);
  switch (spec.algorithm) {
    case 'fixed-window':
      return new FixedWindow(keys, positiveInteger(a, 'limit', spec.limit), positiveFinite(a, 'window', spec.window));
    case 'sliding-log':
      return new SlidingLog(keys, positiveInteger(a, 'limit', spec.limit), positiveFinite(a, 'window', spec.window));
    case 'sliding-window-counter':
      return new SlidingWindowCounter(keys, positiveInteger(a, 'limit', spec.limit), positiveFinite(a, 'window', spec.window));
    case 'token-bucket':
    case 'gcra': {
      const rate = positiveFinite(a, 'rate', spec.rate);
      if (!Number.isFinite(spec.burst) || spec.burst < 1) fail(a, `burst must be a finite number >= 1 (got ${spec.burst})`);
      return spec.algorithm === 'gcra' ? new Gcra(keys, rate, spec.burst) : new TokenBucket(keys, rate, spec.burst);
    }
    case 'leaky-bucket-queue': {
      const rate = positiveFinite(a, 'rate', spec.rate);
      if (!Number.isInteger(spec.capacity) || spec.capacity < 0) fail(a, `capacity must be an integer >= 0 (got ${spec.capacity})`);
      return new LeakyBucketQueue(keys, rate, spec.capacity);
    }
    default: {
      const never: never = spec;
      throw new RangeError(`rate limiter: unknown algorithm ${(never as { algorithm: string }).algorithm}`);
    }
  }
}
