/**
 * Rate limiters (src/model/server/window-limiters.ts, bucket-limiters.ts): known vectors
 * worked by hand, the fixed window's boundary burst against the sliding windows, token bucket = GCRA, the
 * leaky bucket's queue delays, exact Retry-After, key independence, and long-run
 * throughput under a Poisson stream of 3x the limit.
 */
import { describe, it, expect } from 'vitest';
import type { RateLimiter, RateLimiterSpec } from '../../../src/model/server/rate-limiters.js';
import { FixedWindow, SlidingLog, SlidingWindowCounter } from '../../../src/model/server/window-limiters.js';
import { TokenBucket, Gcra, LeakyBucketQueue } from '../../../src/model/server/bucket-limiters.js';
import { makeRateLimiter } from '../../../src/model/server/make-rate-limiter.js';
import { stream, type Rng } from '../../../src/engine/rng.js';

/** n requests of `key` at time t; returns how many were allowed. */
function burst(l: RateLimiter, t: number, n: number, key = 0): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (l.check(key, t) >= 0) ok++;
  return ok;
}

/**
 * The most of `times` (sorted) within any span of `span` seconds, (t - span, t]. A time
 * exactly `span` before t is out; "exactly" to within 1 us, since 299.9 - 60 is
 * 239.89999999999998 in floats and the limiters treat 239.9 as out then.
 */
function maxInAnySpan(times: number[], span: number): number {
  let best = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[j] <= times[i] - span + 1e-6) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Poisson arrival times at `rate` per second over [0, horizon). */
function poisson(rng: Rng, rate: number, horizon: number): number[] {
  const out: number[] = [];
  let t = 0;
  for (;;) {
    t += -Math.log(1 - rng()) / rate;
    if (t >= horizon) return out;
    out.push(t);
  }
}

const WINDOW_SPECS = (limit: number, window: number): RateLimiterSpec[] => [
  { algorithm: 'fixed-window', limit, window },
  { algorithm: 'sliding-log', limit, window },
  { algorithm: 'sliding-window-counter', limit, window },
];

const ALL_SPECS: RateLimiterSpec[] = [
  ...WINDOW_SPECS(5, 10),
  { algorithm: 'token-bucket', rate: 0.5, burst: 5 },
  { algorithm: 'gcra', rate: 0.5, burst: 5 },
  { algorithm: 'leaky-bucket-queue', rate: 0.5, capacity: 4 },
];

describe('makeRateLimiter', () => {
  it('builds the class of each algorithm, with its bytes of state per key', () => {
    const per = (spec: RateLimiterSpec) => makeRateLimiter(spec, 3);
    expect(per({ algorithm: 'fixed-window', limit: 100, window: 60 })).toBeInstanceOf(FixedWindow);
    expect(per({ algorithm: 'fixed-window', limit: 100, window: 60 }).bytesPerKey).toBe(16);
    expect(per({ algorithm: 'sliding-log', limit: 100, window: 60 })).toBeInstanceOf(SlidingLog);
    expect(per({ algorithm: 'sliding-log', limit: 100, window: 60 }).bytesPerKey).toBe(808); // 100 timestamps + head + size
    expect(per({ algorithm: 'sliding-window-counter', limit: 100, window: 60 })).toBeInstanceOf(SlidingWindowCounter);
    expect(per({ algorithm: 'sliding-window-counter', limit: 100, window: 60 }).bytesPerKey).toBe(24);
    expect(per({ algorithm: 'token-bucket', rate: 10, burst: 5 })).toBeInstanceOf(TokenBucket);
    expect(per({ algorithm: 'token-bucket', rate: 10, burst: 5 }).bytesPerKey).toBe(16);
    expect(per({ algorithm: 'gcra', rate: 10, burst: 5 })).toBeInstanceOf(Gcra);
    expect(per({ algorithm: 'gcra', rate: 10, burst: 5 }).bytesPerKey).toBe(8);
    expect(per({ algorithm: 'leaky-bucket-queue', rate: 10, capacity: 5 })).toBeInstanceOf(LeakyBucketQueue);
    expect(per({ algorithm: 'leaky-bucket-queue', rate: 10, capacity: 5 }).bytesPerKey).toBe(8);
  });

  it('refuses nonsense parameters with a RangeError naming the algorithm and the field', () => {
    expect(() => makeRateLimiter({ algorithm: 'fixed-window', limit: 0, window: 60 }, 1)).toThrow(/fixed-window: limit/);
    expect(() => makeRateLimiter({ algorithm: 'fixed-window', limit: 2.5, window: 60 }, 1)).toThrow(RangeError);
    expect(() => makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 10, window: 0 }, 1)).toThrow(/window/);
    expect(() => makeRateLimiter({ algorithm: 'token-bucket', rate: 0, burst: 5 }, 1)).toThrow(/token-bucket: rate/);
    expect(() => makeRateLimiter({ algorithm: 'gcra', rate: 1, burst: 0.5 }, 1)).toThrow(/gcra: burst/);
    expect(() => makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 1, capacity: -1 }, 1)).toThrow(/capacity/);
    expect(() => makeRateLimiter({ algorithm: 'gcra', rate: 1, burst: 1 }, 0)).toThrow(/keys/);
    expect(() => makeRateLimiter({ algorithm: 'gcra', rate: Infinity, burst: 1 }, 1)).toThrow(/rate/);
  });

  it('sliding-log: refuses more than 50M timestamps (keys x limit) with a RangeError that says why and what to use', () => {
    // 100,000 IPs x 1000/min = 1e8 doubles = 800 MB: refused before allocating.
    expect(() => makeRateLimiter({ algorithm: 'sliding-log', limit: 1000, window: 60 }, 100_000)).toThrow(RangeError);
    expect(() => makeRateLimiter({ algorithm: 'sliding-log', limit: 1000, window: 60 }, 100_000)).toThrow(
      /keys x limit = 100000 x 1000 = 100000000 .*sliding-window-counter/,
    );
    expect(() => makeRateLimiter({ algorithm: 'sliding-log', limit: 1000, window: 60 }, 50_001)).toThrow(RangeError);
    // 10,000 keys x 1000 = 1e7: fine, and the other algorithms have no such cap.
    expect(makeRateLimiter({ algorithm: 'sliding-log', limit: 1000, window: 60 }, 10_000).bytesPerKey).toBe(8008);
    expect(makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 1000, window: 60 }, 100_000).bytesPerKey).toBe(24);
  });
});

describe('check: fixed-window (Redis INCR on key:floor(now/window))', () => {
  it('limit 3 per 10 s: the 4th request of a window is refused; the window is aligned to multiples of 10 s', () => {
    const l = makeRateLimiter({ algorithm: 'fixed-window', limit: 3, window: 10 }, 1) as FixedWindow;
    // The first request comes at t = 7, so its window is [0, 10), not [7, 17).
    expect([l.check(0, 7), l.check(0, 8), l.check(0, 9)]).toEqual([0, 0, 0]);
    expect(l.check(0, 9.5)).toBe(-1);
    expect(l.check(0, 9.999)).toBe(-1);
    // Three seconds after the first request, a new window: allowed again.
    expect(l.check(0, 10)).toBe(0);
    expect(l.windowOf[0]).toBe(1);
    expect(l.count[0]).toBe(1);
  });

  it('counts every request, refused ones too (INCR), and still starts afresh in the next window', () => {
    const l = makeRateLimiter({ algorithm: 'fixed-window', limit: 3, window: 10 }, 1) as FixedWindow;
    expect(burst(l, 1, 10)).toBe(3);
    expect(l.count[0]).toBe(10); // INCR returned 4..10 for the refused ones
    expect(burst(l, 11, 10)).toBe(3); // the 7 extra attempts did not carry over
    expect(l.count[0]).toBe(10);
  });

  it('skipping windows: a key idle for several windows starts at 0', () => {
    const l = makeRateLimiter({ algorithm: 'fixed-window', limit: 2, window: 1 }, 1);
    expect(burst(l, 0.5, 5)).toBe(2);
    expect(burst(l, 7.25, 5)).toBe(2);
  });
});

describe('retryAfter: fixed-window', () => {
  it('is exactly the time until the window ends once the limit is reached, and 0 before', () => {
    const l = makeRateLimiter({ algorithm: 'fixed-window', limit: 2, window: 60 }, 1);
    expect(l.retryAfter(0, 30)).toBe(0); // never used
    l.check(0, 30);
    expect(l.retryAfter(0, 30)).toBe(0); // one left
    l.check(0, 30);
    expect(l.retryAfter(0, 30)).toBe(30); // the next would be refused until t = 60
    expect(l.check(0, 45)).toBe(-1);
    expect(l.retryAfter(0, 45)).toBe(15);
    expect(l.check(0, 59.9)).toBe(-1);
    const ra = l.retryAfter(0, 59.9);
    expect(ra).toBeCloseTo(0.1, 12);
    expect(l.check(0, 59.9 + ra)).toBe(0); // allowed exactly then
    expect(l.retryAfter(0, 61)).toBe(0);
  });

  it('is exact in later windows and with windows that are not binary fractions', () => {
    const l = makeRateLimiter({ algorithm: 'fixed-window', limit: 1, window: 0.1 }, 1);
    expect(l.check(0, 0.3)).toBe(0); // 0.3 / 0.1 = 2.9999999999999996 in floats, still window 3
    expect(l.check(0, 0.35)).toBe(-1);
    const ra = l.retryAfter(0, 0.35);
    expect(ra).toBeCloseTo(0.05, 12);
    expect(l.check(0, 0.35 + ra)).toBe(0);
    expect(l.check(0, 0.35 + ra)).toBe(-1);
  });
});

describe('check: sliding-log', () => {
  it('limit 3 per 10 s: allowed while fewer than 3 allowed requests lie in (now - 10, now]', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-log', limit: 3, window: 10 }, 1) as SlidingLog;
    expect([l.check(0, 0), l.check(0, 1), l.check(0, 2)]).toEqual([0, 0, 0]);
    expect(l.check(0, 5)).toBe(-1);
    expect(l.check(0, 9.99)).toBe(-1);
    expect(l.check(0, 10)).toBe(0); // the request at 0 is exactly 10 s old: out of the window
    expect(l.check(0, 10.5)).toBe(-1); // 1, 2 and 10 are in
    expect(l.check(0, 11)).toBe(0); // 1 left
    expect(l.check(0, 11)).toBe(-1);
    expect(l.size[0]).toBe(3);
    // The ring holds the 3 most recent allowed timestamps, oldest first from head.
    const ring = [0, 1, 2].map((i) => l.log[(l.head[0] + i) % 3]);
    expect(ring).toEqual([2, 10, 11]);
  });

  it('refused requests are not logged: hammering while refused does not extend the lockout', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-log', limit: 2, window: 10 }, 1);
    expect(burst(l, 0, 2)).toBe(2);
    for (let t = 1; t < 10; t += 0.5) expect(l.check(0, t)).toBe(-1);
    expect(burst(l, 10, 5)).toBe(2);
  });
});

describe('retryAfter: sliding-log', () => {
  it('is the time until the oldest logged request leaves the window', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-log', limit: 3, window: 10 }, 1);
    l.check(0, 1);
    l.check(0, 4);
    expect(l.retryAfter(0, 5)).toBe(0);
    l.check(0, 6);
    expect(l.check(0, 7)).toBe(-1);
    expect(l.retryAfter(0, 7)).toBe(4); // the one at 1 leaves at 11
    expect(l.check(0, 10.999)).toBe(-1);
    expect(l.check(0, 11)).toBe(0);
    expect(l.retryAfter(0, 11)).toBe(3); // now 4, 6, 11: the one at 4 leaves at 14
  });
});

describe('check: sliding-window-counter (Cloudflare)', () => {
  it("Cloudflare's example: 42 in the previous minute, 18 so far, 15 s in: 42 x 45/60 + 18 = 49.5 < 50 is allowed, then 50.5 is not", () => {
    const l = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 50, window: 60 }, 1) as SlidingWindowCounter;
    expect(burst(l, 10, 42)).toBe(42); // window [0, 60): nothing before, 42 < 50
    // 14 s into [60, 120): 42 x 46/60 = 32.2, so 18 fit (32.2 + 17 < 50) and the 19th would not.
    expect(burst(l, 74, 18)).toBe(18);
    expect(l.previous[0]).toBe(42);
    expect(l.current[0]).toBe(18);
    expect(l.check(0, 75)).toBe(0); // 49.5 < 50
    expect(l.check(0, 75)).toBe(-1); // 31.5 + 19 = 50.5
    expect(l.current[0]).toBe(19); // the refusal was not counted
  });

  it('with no previous window it is a fixed window of `limit`; a gap of two windows forgets the previous count', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 10, window: 10 }, 1) as SlidingWindowCounter;
    expect(burst(l, 0, 20)).toBe(10);
    // Next window, halfway: 10 x 0.5 + cur < 10 lets 5 through.
    expect(burst(l, 15, 20)).toBe(5);
    // Window 3 ([30, 40)) follows window 1, not window 2: previous is 0.
    expect(burst(l, 30, 20)).toBe(10);
    expect(l.previous[0]).toBe(0);
  });
});

describe('retryAfter: sliding-window-counter', () => {
  it('is when the previous window has faded enough: p > 1 - (limit - cur) / prev', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 50, window: 60 }, 1);
    burst(l, 10, 42);
    burst(l, 74, 18);
    l.check(0, 75);
    expect(l.check(0, 75)).toBe(-1);
    // prev 42, cur 19: p* = 1 - 31/42 = 11/42, i.e. t = 60 + 60 x 11/42.
    const ra = l.retryAfter(0, 75);
    expect(ra).toBeCloseTo(60 + (60 * 11) / 42 - 75, 6);
    expect(l.check(0, 75 + ra - 1e-6)).toBe(-1);
    expect(l.check(0, 75 + ra)).toBe(0);
  });

  it('when the current window is full: into the next window, until cur x (1 - p) < limit', () => {
    const l = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 10, window: 10 }, 1);
    expect(burst(l, 0, 10)).toBe(10);
    // cur = limit: refused until the next window starts (at 10 the estimate is exactly 10).
    expect(l.retryAfter(0, 5)).toBeCloseTo(5, 6);
    expect(l.check(0, 10)).toBe(-1);
    expect(l.check(0, 5 + l.retryAfter(0, 5))).toBe(0);
  });
});

describe('check: token-bucket (Stripe)', () => {
  it('rate 2/s, burst 3: three at once, then one token every 0.5 s; refusals take nothing', () => {
    const l = makeRateLimiter({ algorithm: 'token-bucket', rate: 2, burst: 3 }, 1) as TokenBucket;
    expect(burst(l, 0, 5)).toBe(3);
    expect(l.tokens[0]).toBe(0);
    expect(l.check(0, 0.25)).toBe(-1);
    expect(l.tokens[0]).toBe(0.5); // refilled, nothing taken
    expect(l.check(0, 0.5)).toBe(0);
    expect(l.check(0, 0.5)).toBe(-1);
    expect(l.check(0, 1.25)).toBe(0); // 1.5 tokens -> 0.5
    expect(l.tokens[0]).toBe(0.5);
  });

  it('refills up to burst, never beyond, however long the key was idle', () => {
    const l = makeRateLimiter({ algorithm: 'token-bucket', rate: 2, burst: 3 }, 1) as TokenBucket;
    burst(l, 0, 3);
    expect(burst(l, 100, 10)).toBe(3);
  });
});

describe('retryAfter: token-bucket', () => {
  it('is exactly (1 - tokens) / rate, and the request then is allowed', () => {
    const l = makeRateLimiter({ algorithm: 'token-bucket', rate: 2, burst: 3 }, 1);
    expect(l.retryAfter(0, 0)).toBe(0);
    burst(l, 0, 3);
    expect(l.retryAfter(0, 0)).toBe(0.5);
    expect(l.check(0, 1.25)).toBe(0); // 0 + 1.25 x 2 = 2.5 tokens -> 1.5
    expect(l.check(0, 1.25)).toBe(0); // -> 0.5
    expect(l.check(0, 1.25)).toBe(-1);
    expect(l.retryAfter(0, 1.25)).toBe(0.25);
    // Non-binary rate: 0.1 s per token.
    const m = makeRateLimiter({ algorithm: 'token-bucket', rate: 10, burst: 1 }, 1);
    expect(m.check(0, 0.3)).toBe(0);
    expect(m.check(0, 0.33)).toBe(-1);
    const ra = m.retryAfter(0, 0.33);
    expect(ra).toBeCloseTo(0.07, 12);
    expect(m.check(0, 0.33 + ra)).toBe(0);
  });
});

describe('check: gcra', () => {
  it('rate 2/s, burst 3 (T = 0.5, tau = 1): TAT advances by T per allowed request', () => {
    const l = makeRateLimiter({ algorithm: 'gcra', rate: 2, burst: 3 }, 1) as Gcra;
    expect(l.interval).toBe(0.5);
    expect(l.tolerance).toBe(1);
    expect(l.check(0, 0)).toBe(0);
    expect(l.tat[0]).toBe(0.5);
    expect(l.check(0, 0)).toBe(0); // 0 >= 0.5 - 1
    expect(l.check(0, 0)).toBe(0); // 0 >= 1.0 - 1
    expect(l.tat[0]).toBe(1.5);
    expect(l.check(0, 0)).toBe(-1); // 0 < 1.5 - 1
    expect(l.tat[0]).toBe(1.5); // refusals write nothing
    expect(l.check(0, 0.5)).toBe(0);
    expect(l.tat[0]).toBe(2);
    // After a long idle spell TAT restarts from now: a burst of 3 again, not more.
    expect(burst(l, 100, 10)).toBe(3);
    expect(l.tat[0]).toBe(101.5);
  });
});

describe('retryAfter: gcra', () => {
  it('is exactly TAT - tau - now', () => {
    const l = makeRateLimiter({ algorithm: 'gcra', rate: 2, burst: 3 }, 1);
    burst(l, 0, 3);
    expect(l.retryAfter(0, 0)).toBe(0.5);
    expect(l.retryAfter(0, 0.2)).toBeCloseTo(0.3, 15);
    expect(l.check(0, 0.4999)).toBe(-1);
    expect(l.check(0, 0.5)).toBe(0);
    const m = makeRateLimiter({ algorithm: 'gcra', rate: 10, burst: 1 }, 1);
    expect(m.check(0, 0.3)).toBe(0);
    expect(m.check(0, 0.33)).toBe(-1);
    const ra = m.retryAfter(0, 0.33);
    expect(ra).toBeCloseTo(0.07, 12);
    expect(m.check(0, 0.33 + ra)).toBe(0);
  });
});

describe('token bucket and GCRA agree', () => {
  it('same allow/refuse sequence and same retryAfter on random streams, for several rate/burst pairs', () => {
    const rng = stream(1, 'x');
    for (const [rate, burstSize] of [[1, 1], [5, 1], [10, 20], [3.7, 2.5], [0.1, 7]] as const) {
      const tb = makeRateLimiter({ algorithm: 'token-bucket', rate, burst: burstSize }, 2);
      const g = makeRateLimiter({ algorithm: 'gcra', rate, burst: burstSize }, 2);
      let t = 0;
      let allowed = 0;
      let refused = 0;
      let disagreements = 0;
      let worstRetryAfterGap = 0;
      for (let i = 0; i < 20_000; i++) {
        // Poisson at 1.5x the rate, with an occasional idle spell and simultaneous repeats.
        t += rng() < 0.01 ? (10 * burstSize) / rate : -Math.log(1 - rng()) / (1.5 * rate);
        const key = rng() < 0.8 ? 0 : 1;
        const repeats = rng() < 0.1 ? 3 : 1;
        for (let r = 0; r < repeats; r++) {
          const a = tb.check(key, t);
          const b = g.check(key, t);
          if (a !== b) disagreements++;
          if (a < 0) {
            refused++;
            worstRetryAfterGap = Math.max(worstRetryAfterGap, Math.abs(g.retryAfter(key, t) - tb.retryAfter(key, t)));
          } else allowed++;
        }
      }
      expect(disagreements).toBe(0);
      expect(worstRetryAfterGap).toBeLessThan(1e-9);
      // A meaningful comparison: both outcomes happen a lot.
      expect(allowed).toBeGreaterThan(5000);
      expect(refused).toBeGreaterThan(2000);
    }
  });
});

describe('check: leaky-bucket-queue', () => {
  it('a simultaneous burst waits 0, T, 2T, ... (linear in queue position) and is refused beyond capacity', () => {
    const l = makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 4, capacity: 3 }, 1) as LeakyBucketQueue;
    const delays = Array.from({ length: 6 }, () => l.check(0, 0));
    expect(delays).toEqual([0, 0.25, 0.5, 0.75, -1, -1]);
    expect(l.waiting(0, 0)).toBe(3); // the first left at once
    // At 0.25 the first queued one leaves: room for one, which waits behind the other two.
    expect(l.waiting(0, 0.25)).toBe(2);
    expect(l.check(0, 0.25)).toBe(0.75);
    expect(l.check(0, 0.25)).toBe(-1);
    // Idle long enough, it passes straight through.
    expect(l.check(0, 10)).toBe(0);
    expect(l.waiting(0, 10)).toBe(0);
  });

  it('delays grow linearly over a long burst: the k-th allowed of a flood at rate 10 with capacity 50 waits (k - 1) / 10', () => {
    const l = makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 10, capacity: 50 }, 1);
    const delays: number[] = [];
    for (let i = 0; i < 80; i++) delays.push(l.check(0, 5));
    expect(delays.filter((d) => d < 0)).toHaveLength(80 - 51);
    delays.slice(0, 51).forEach((d, k) => expect(d).toBeCloseTo(k / 10, 9));
  });

  it('capacity 0 queues nothing: one request per 1 / rate, the rest refused', () => {
    const l = makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 2, capacity: 0 }, 1);
    expect(l.check(0, 0)).toBe(0);
    expect(l.check(0, 0.25)).toBe(-1);
    expect(l.check(0, 0.5)).toBe(0);
  });

  it('under a steady overload the allowed leave exactly 1 / rate apart', () => {
    const l = makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 5, capacity: 2 }, 1);
    const departures: number[] = [];
    for (let t = 0; t < 4; t += 0.05) {
      const d = l.check(0, t);
      if (d >= 0) departures.push(t + d);
    }
    for (let i = 1; i < departures.length; i++) expect(departures[i] - departures[i - 1]).toBeCloseTo(0.2, 9);
  });
});

describe('retryAfter: leaky-bucket-queue', () => {
  it('is when the queue is one shorter, and a request then is allowed with the longest wait', () => {
    const l = makeRateLimiter({ algorithm: 'leaky-bucket-queue', rate: 4, capacity: 3 }, 1);
    burst(l, 0, 4);
    expect(l.check(0, 0.1)).toBe(-1);
    expect(l.retryAfter(0, 0.1)).toBeCloseTo(0.15, 12); // next = 1.0, minus 3 x 0.25
    expect(l.check(0, 0.25)).toBe(0.75);
  });
});

describe('boundary burst: fixed window vs sliding windows', () => {
  it('limit 100/min: 100 at 59.9 s and 100 at 60.1 s all pass a fixed window (2x in 0.2 s); the sliding log lets none of the second 100 through, the counter 1', () => {
    const fixed = makeRateLimiter({ algorithm: 'fixed-window', limit: 100, window: 60 }, 1);
    const log = makeRateLimiter({ algorithm: 'sliding-log', limit: 100, window: 60 }, 1);
    const counter = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 100, window: 60 }, 1);
    expect(burst(fixed, 59.9, 100) + burst(fixed, 60.1, 100)).toBe(200);
    expect(burst(log, 59.9, 100)).toBe(100);
    expect(burst(log, 60.1, 100)).toBe(0);
    expect(burst(counter, 59.9, 100)).toBe(100);
    // 100 x (1 - 0.1/60) = 99.83 < 100: one more fits.
    expect(burst(counter, 60.1, 100)).toBe(1);
  });

  /** Allowed times of `spec` (limit 100/min) over a script: bursts of 150 at 0.1 s either side of each minute boundary, a background of one request every 2 s, and optionally 150 at mid-minute every other minute. */
  function script(spec: RateLimiterSpec, midMinute: boolean): number[] {
    const times: number[] = [];
    for (let t = 0; t < 600; t += 2) times.push(t);
    for (let m = 1; m < 10; m++) {
      for (let i = 0; i < 150; i++) times.push(60 * m - 0.1, 60 * m + 0.1);
      if (midMinute && m % 2 === 0) for (let i = 0; i < 150; i++) times.push(60 * m + 30);
    }
    times.sort((a, b) => a - b);
    const l = makeRateLimiter(spec, 1);
    return times.filter((t) => l.check(0, t) >= 0);
  }

  it('over scripted boundary-straddling bursts, the most allowed in any 60 s: fixed ~2x, sliding log <= limit, counter <= limit + 1', () => {
    const limit = 100;
    const fixed = maxInAnySpan(script({ algorithm: 'fixed-window', limit, window: 60 }, false), 60);
    const log = maxInAnySpan(script({ algorithm: 'sliding-log', limit, window: 60 }, false), 60);
    const counter = maxInAnySpan(script({ algorithm: 'sliding-window-counter', limit, window: 60 }, false), 60);
    expect(fixed).toBeGreaterThanOrEqual(2 * limit - 5); // 199: one background request shares the window
    expect(log).toBeLessThanOrEqual(limit);
    expect(log).toBeGreaterThanOrEqual(limit - 1); // and it does fill up
    expect(counter).toBeLessThanOrEqual(limit + 1); // the fractional weight: 99.83 < 100 lets one more in
    expect(counter).toBeGreaterThanOrEqual(limit - 1);
  });

  it('bursts inside a window break the counter\'s evenly-spread assumption: it overshoots the limit, the sliding log never does', () => {
    const limit = 100;
    const log = maxInAnySpan(script({ algorithm: 'sliding-log', limit, window: 60 }, true), 60);
    const counter = maxInAnySpan(script({ algorithm: 'sliding-window-counter', limit, window: 60 }, true), 60);
    expect(log).toBeLessThanOrEqual(limit);
    expect(counter).toBeGreaterThan(1.1 * limit); // 134 with this script
    expect(counter).toBeLessThan(1.5 * limit);
  });

  it('the counter is an approximation, not a bound: limit at the end of one window, then ~limit late in the next, lets ~2x through within 60 s', () => {
    const counter = makeRateLimiter({ algorithm: 'sliding-window-counter', limit: 100, window: 60 }, 1);
    const log = makeRateLimiter({ algorithm: 'sliding-log', limit: 100, window: 60 }, 1);
    // At 119.85 the burst at 59.9 weighs 100 x (1 - 59.85/60) = 0.25.
    const c = burst(counter, 59.9, 100) + burst(counter, 119.85, 100);
    const s = burst(log, 59.9, 100) + burst(log, 119.85, 100);
    expect(c).toBe(200); // 0.25 + 99 < 100: all of them, within (59.85, 119.85]
    expect(s).toBe(100);
  });
});

describe('keys are independent', () => {
  for (const spec of ALL_SPECS) {
    it(`${spec.algorithm}: exhausting key 1 leaves keys 0 and 2 untouched`, () => {
      const l = makeRateLimiter(spec, 3);
      const fresh = makeRateLimiter(spec, 1);
      const capacity = burst(fresh, 0, 1000);
      expect(capacity).toBeGreaterThanOrEqual(5);
      expect(burst(l, 0, 1000, 1)).toBe(capacity);
      expect(l.check(1, 0)).toBe(-1);
      expect(l.retryAfter(1, 0)).toBeGreaterThan(0);
      expect(l.retryAfter(0, 0)).toBe(0);
      expect(l.retryAfter(2, 0)).toBe(0);
      expect(burst(l, 0, 1000, 0)).toBe(capacity);
      expect(burst(l, 0, 1000, 2)).toBe(capacity);
    });
  }
});

describe('long-run throughput', () => {
  const specs: RateLimiterSpec[] = [
    ...WINDOW_SPECS(100, 1),
    { algorithm: 'token-bucket', rate: 100, burst: 20 },
    { algorithm: 'gcra', rate: 100, burst: 20 },
    { algorithm: 'leaky-bucket-queue', rate: 100, capacity: 20 },
  ];
  for (const spec of specs) {
    it(`${spec.algorithm}: a Poisson stream at 3x the limit gets the limit (100/s) within 2%`, () => {
      const horizon = 300;
      const arrivals = poisson(stream(1, 'x'), 300, horizon);
      const l = makeRateLimiter(spec, 1);
      let allowed = 0;
      for (const t of arrivals) if (l.check(0, t) >= 0) allowed++;
      const rate = allowed / horizon;
      expect(rate).toBeGreaterThan(98);
      expect(rate).toBeLessThan(102);
      expect(allowed).toBeLessThan(arrivals.length / 2); // most were refused
    });
  }
});
