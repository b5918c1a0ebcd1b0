/**
 * How long a client waits before retry number `retry` (1 = the first retry). Exponential
 * backoff caps the wait at min(max, base * multiplier^(retry-1)); full jitter ("Exponential
 * Backoff And Jitter", AWS Architecture Blog, 2015) draws the wait uniformly in [0, cap),
 * which is what spreads a synchronised wave of retries.
 */
import type { Backoff } from '../scenario/schema.js';
import type { Rng } from '../engine/rng.js';

/** `attemptsMade` is the number of attempts already sent (so the coming retry is number attemptsMade). */
export function backoffDelay(b: Backoff, attemptsMade: number, rng: Rng): number {
  switch (b.kind) {
    case 'none':
      return 0;
    case 'constant':
      return b.delay;
    case 'exponential': {
      const cap = Math.min(b.max, b.base * Math.pow(b.multiplier, attemptsMade - 1));
      return b.jitter === 'full' ? rng() * cap : cap;
    }
  }
}
