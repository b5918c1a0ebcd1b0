/**
 * A rate limiter made from its spec, its numbers checked (a limit, a window, a rate, a burst,
 * a capacity), with one clear error for a spec the loader would not have passed.
 *
 * Why a module of its own: it is the one place that knows every algorithm, so the limiters
 * (window-limiters.ts, bucket-limiters.ts) need not know one another.
 */
import type { RateLimiter, RateLimiterSpec } from './rate-limiters.js';
import { FixedWindow, SlidingLog, SlidingWindowCounter } from './window-limiters.js';
import { TokenBucket, Gcra, LeakyBucketQueue } from './bucket-limiters.js';

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
