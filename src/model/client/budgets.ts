/**
 * Retry budgets shared across the requests of one client, or of a whole population (one
 * proxy, one process): gRPC retry throttling, the AWS SDK standard retry quota, Envoy's
 * retry budget and max concurrent retries, Finagle's RetryBudget. Each keeps its state in
 * typed arrays indexed by key (client id, or 0 for the population), not per request.
 *
 * A layer asks `acquire` when it wants to retry: a refusal means the call gives up with
 * its last failure. What `acquire` took is handed back to `release` when that retry ends.
 */
import type { BudgetSpec } from '../../scenario/schema.js';
import { SecondBuckets } from './second-buckets.js';

export interface RetryBudget {
  /** A try of the layer starts (first try, or a retry when `retry`). */
  started(key: number, now: number, retry: boolean): void;
  /** May a retry happen now? Returns what it took (>= 0), or -1 when refused. */
  acquire(key: number, now: number, afterTimeout: boolean): number;
  /** A retry that was lent budget never happened (its wait was cancelled, or a gate refused it): give back what it took. */
  cancel(key: number, now: number, taken: number): void;
  /** A try ended; `taken` is what acquire returned for it (-1 for a first try). */
  ended(key: number, now: number, ok: boolean, taken: number): void;
}

/** gRPC retry throttling (gRFC A6): retries only while tokens > maxTokens / 2. */
export class GrpcThrottle implements RetryBudget {
  readonly tokens: Float64Array;
  constructor(keys: number, private readonly maxTokens: number, private readonly tokenRatio: number) {
    this.tokens = new Float64Array(keys).fill(maxTokens);
  }
  started(): void {}
  acquire(key: number): number {
    return this.tokens[key] > this.maxTokens / 2 ? 0 : -1;
  }
  cancel(): void {}
  ended(key: number, _now: number, ok: boolean): void {
    const t = this.tokens[key];
    this.tokens[key] = ok ? Math.min(this.maxTokens, t + this.tokenRatio) : Math.max(0, t - 1);
  }
}

/** AWS SDK standard retry quota: a retry takes its cost; a success gives it back (or a small refund for a first try). */
export class AwsRetryQuota implements RetryBudget {
  readonly quota: Float64Array;
  constructor(keys: number, private readonly capacity: number, private readonly retryCost: number, private readonly timeoutCost: number, private readonly successRefund: number) {
    this.quota = new Float64Array(keys).fill(capacity);
  }
  started(): void {}
  acquire(key: number, _now: number, afterTimeout: boolean): number {
    const cost = afterTimeout ? this.timeoutCost : this.retryCost;
    if (this.quota[key] < cost) return -1;
    this.quota[key] -= cost;
    return cost;
  }
  ended(key: number, _now: number, ok: boolean, taken: number): void {
    if (ok) this.quota[key] = Math.min(this.capacity, this.quota[key] + (taken > 0 ? taken : this.successRefund));
  }
  cancel(key: number, _now: number, taken: number): void {
    if (taken > 0) this.quota[key] = Math.min(this.capacity, this.quota[key] + taken);
  }
}

/**
 * Envoy: retries in flight at most max(minRetryConcurrency, budgetPercent% of requests in
 * flight) with a retry budget, or at most maxRetries with the max_retries circuit breaker.
 */
export class EnvoyRetryLimit implements RetryBudget {
  readonly active: Float64Array;
  readonly activeRetries: Float64Array;
  constructor(keys: number, private readonly percent: number, private readonly minConcurrency: number) {
    this.active = new Float64Array(keys);
    this.activeRetries = new Float64Array(keys);
  }
  started(key: number): void {
    this.active[key]++;
  }
  acquire(key: number): number {
    // Envoy converts percent/100 * active to uint64_t: rounded down.
    const allowed = Math.max(this.minConcurrency, Math.floor((this.percent / 100) * this.active[key]));
    if (this.activeRetries[key] >= allowed) return -1;
    this.activeRetries[key]++;
    return 1;
  }
  ended(key: number, _now: number, _ok: boolean, taken: number): void {
    this.active[key]--;
    if (taken > 0) this.activeRetries[key]--;
  }
  cancel(key: number, _now: number, taken: number): void {
    if (taken > 0) this.activeRetries[key]--;
  }
}

/**
 * Finagle RetryBudget: every request deposits, every retry withdraws; a retry is allowed
 * while minRetriesPerSec*ttl + percentCanRetry*(requests in the last ttl) - (retries in the
 * last ttl) >= 1. Counts are kept in one-second buckets over the ttl.
 */
export class FinagleBudget implements RetryBudget {
  /** a: deposits (requests), b: withdrawals (retries), per second over the ttl. */
  private readonly window: SecondBuckets;
  constructor(keys: number, ttl: number, private readonly minPerSec: number, private readonly percent: number) {
    this.window = new SecondBuckets(keys, ttl);
  }
  started(key: number, now: number, retry: boolean): void {
    // Finagle's RetryFilter deposits once per request, not per retry.
    if (!retry) this.window.a[this.window.slot(key, now)]++;
  }
  acquire(key: number, now: number): number {
    const w = this.window;
    const b = w.slot(key, now);
    const balance = this.minPerSec * w.secs + this.percent * w.sumA(key) - w.sumB(key);
    if (balance < 1) return -1;
    w.b[b]++;
    return 1;
  }
  ended(): void {}
  cancel(): void {} // a withdrawal stays withdrawn, as in Finagle
}

export function makeBudget(spec: BudgetSpec, keys: number): RetryBudget {
  switch (spec.kind) {
    case 'grpc-throttle':
      return new GrpcThrottle(keys, spec.maxTokens, spec.tokenRatio);
    case 'aws-quota':
      return new AwsRetryQuota(keys, spec.capacity ?? 500, spec.retryCost ?? 5, spec.timeoutCost ?? 10, spec.successRefund ?? 1);
    case 'envoy-budget':
      return new EnvoyRetryLimit(keys, spec.budgetPercent ?? 20, spec.minRetryConcurrency ?? 3);
    case 'envoy-max-retries':
      return new EnvoyRetryLimit(keys, 0, spec.maxRetries ?? 3);
    case 'finagle':
      return new FinagleBudget(keys, spec.ttl ?? 10, spec.minRetriesPerSec ?? 10, spec.percentCanRetry ?? 0.2);
    case 'sre-throttle':
      throw new Error('sre-throttle is a gate on every request, not a retry budget: use makeGate');
  }
}
