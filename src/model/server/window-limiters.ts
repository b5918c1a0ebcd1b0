/**
 * The rate limiters counted in windows of time: the fixed window (INCR + EXPIRE), and its
 * variant whose window each server names on its own clock; the sliding log; Cloudflare's
 * sliding window counter. The contract they keep, and why every comparison has a tolerance
 * EPS, are in rate-limiters.ts; docs/rate-limiters.md compares them.
 *
 * Why a module of its own: the window limiters share their arithmetic (which window a time
 * falls in, what is left of it) and are read together; apart from the bucket limiters
 * (bucket-limiters.ts), which share none of it.
 */
import { EPS, type RateLimiter } from './rate-limiters.js';

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
