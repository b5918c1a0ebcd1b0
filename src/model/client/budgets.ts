/**
 * Retry budgets shared across the requests of one client, or of a whole population (one
 * proxy, one process): gRPC retry throttling, the AWS SDK standard retry quota, Envoy's
 * retry budget and max concurrent retries, Finagle's RetryBudget. Each keeps its state in
 * typed arrays indexed by key (client id, or 0 for the population), not per request.
 *
 * A layer asks `acquire` when it wants to retry: a refusal means the call gives up with
 * its last failure. What `acquire` took is handed back to `release` when that retry ends.
 * Budgets see outcome codes (src/model/outcomes.ts) and classify them once, when they are
 * built, from the layer's retry list and the run's wire statuses (`OutcomeClasses`): the
 * libraries charge by kind of failure (AWS: throttling or transient; gRPC: only statuses
 * the policy retries; Finagle: deposits only for a successful response, not a 5xx).
 */
import type { BudgetSpec } from '../../scenario/schema.js';
import { SecondBuckets } from './second-buckets.js';
import { OUTCOME_OK } from '../outcomes.js';

export interface RetryBudget {
  /**
   * A try of the layer starts (first try, or a retry when `retry`). For a first try it
   * returns the most retries this call may make (Finagle's per-request cap), Infinity when
   * the budget does not cap a call.
   */
  started(key: number, now: number, retry: boolean): number;
  /** May a retry after a try that ended in `outcome` happen now? Returns what it took (>= 0), or -1 when refused. */
  acquire(key: number, now: number, outcome: number): number;
  /** A retry that was lent budget never happened (its wait was cancelled, or a gate refused it): give back what it took. */
  cancel(key: number, now: number, taken: number): void;
  /** A try ended in `outcome`; `taken` is what acquire returned for it (-1 for a first try). */
  ended(key: number, now: number, outcome: number, taken: number): void;
  /** A try ended without an outcome: its caller cancelled it (see Gate.cancelled). It is no longer in flight, and counts neither way. */
  cancelledTry(key: number, now: number, taken: number): void;
}

/** How the layer that owns a budget sees each outcome code, indexed by outcome. */
export interface OutcomeClasses {
  /** The layer retries this outcome by its status (its retryOn), before the server's retryable flag. */
  retryOn: readonly boolean[];
  /** The status the outcome has on the wire (0: no answer: a timeout, a reset, a local refusal). */
  status: readonly number[];
}

/**
 * gRPC retry throttling (gRFC A6, "Throttling Retry Attempts and Hedged RPCs"): retries only
 * while tokens > maxTokens / 2. A success adds tokenRatio; a failure takes a token only when
 * its status is one the retry policy retries: "the only RPCs that are counted as failures
 * for the throttling policy are RPCs that fail with a status code that qualifies as a
 * retryable ... status code" (grpc-java RetriableStream.makeRetryDecision, grpc-go
 * csAttempt.shouldRetry, grpc-js RetryingCall.handleProcessedStatus all do this). An
 * INVALID_ARGUMENT or a DEADLINE_EXCEEDED the policy does not retry changes nothing.
 */
export class GrpcThrottle implements RetryBudget {
  /**
   * Tokens in thousandths, as grpc-java keeps them (Throttle: "1000 times the maxTokens
   * field"; A6: tokenRatio decimals beyond 3 are ignored): sums of 0.1 stay exact, so the
   * threshold test never flips on a rounding error.
   */
  readonly milliTokens: Int32Array;
  private readonly max: number;
  private readonly ratio: number;
  private readonly threshold: number;
  /** qualified[outcome]: a failure that takes a token. */
  private readonly qualified: Uint8Array;
  constructor(keys: number, maxTokens: number, tokenRatio: number, classes: OutcomeClasses) {
    this.max = Math.round(maxTokens * 1000);
    this.ratio = Math.floor(tokenRatio * 1000 + 1e-9);
    this.threshold = Math.floor(this.max / 2);
    this.milliTokens = new Int32Array(keys).fill(this.max);
    this.qualified = Uint8Array.from(classes.retryOn, (r, o) => (r && o !== OUTCOME_OK ? 1 : 0));
  }
  /** The key's tokens, in tokens. */
  tokens(key: number): number {
    return this.milliTokens[key] / 1000;
  }
  started(): number {
    return Infinity;
  }
  acquire(key: number): number {
    return this.milliTokens[key] > this.threshold ? 0 : -1;
  }
  cancel(): void {}
  cancelledTry(): void {}
  ended(key: number, _now: number, outcome: number): void {
    const t = this.milliTokens[key];
    if (outcome === OUTCOME_OK) this.milliTokens[key] = Math.min(this.max, t + this.ratio);
    else if (this.qualified[outcome] === 1) this.milliTokens[key] = Math.max(0, t - 1000);
  }
}

/**
 * AWS SDK standard retry quota (@smithy/util-retry StandardRetryStrategy): a retry takes
 * its cost from the quota; a success gives back what its retry took, or `successRefund` for
 * a first try. The cost depends on the failure: a throttling error (429) costs
 * throttlingCost, any other retried failure (timeouts, resets, 500/502/503/504: the SDK's
 * TRANSIENT errors) transientCost.
 *
 * refill 'capped' is min(capacity, quota + refund), the specified behaviour
 * (@smithy/util-retry >= 4.3.0). refill 'floor' is max(capacity, quota + refund), what
 * releases before 4.3.0 did: any success puts the quota back to at least the capacity, and
 * every success without retry adds 1 above it, without limit.
 */
export class AwsRetryQuota implements RetryBudget {
  readonly quota: Float64Array;
  /** cost[outcome]: what a retry after that failure takes. */
  private readonly cost: Float64Array;
  constructor(
    keys: number,
    private readonly capacity: number,
    transientCost: number,
    throttlingCost: number,
    private readonly successRefund: number,
    private readonly floor: boolean,
    classes: OutcomeClasses,
  ) {
    this.quota = new Float64Array(keys).fill(capacity);
    this.cost = Float64Array.from(classes.status, (s) => (s === 429 ? throttlingCost : transientCost));
  }
  started(): number {
    return Infinity;
  }
  acquire(key: number, _now: number, outcome: number): number {
    const cost = this.cost[outcome];
    if (this.quota[key] < cost) return -1;
    this.quota[key] -= cost;
    return cost;
  }
  ended(key: number, _now: number, outcome: number, taken: number): void {
    if (outcome !== OUTCOME_OK) return;
    const refilled = this.quota[key] + (taken > 0 ? taken : this.successRefund);
    this.quota[key] = this.floor ? Math.max(this.capacity, refilled) : Math.min(this.capacity, refilled);
  }
  cancel(key: number, _now: number, taken: number): void {
    // A retry that never happened gives back what it took: undoes the lending exactly, except
    // that a capped quota refilled in the meantime stays capped.
    if (taken > 0) this.quota[key] = this.floor ? this.quota[key] + taken : Math.min(this.capacity, this.quota[key] + taken);
  }
  cancelledTry(): void {} // a retry made and cancelled keeps its cost, as a failed one does
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
  started(key: number): number {
    this.active[key]++;
    return Infinity;
  }
  acquire(key: number): number {
    // Envoy converts percent/100 * active to uint64_t: rounded down.
    const allowed = Math.max(this.minConcurrency, Math.floor((this.percent / 100) * this.active[key]));
    if (this.activeRetries[key] >= allowed) return -1;
    this.activeRetries[key]++;
    return 1;
  }
  ended(key: number, _now: number, _outcome: number, taken: number): void {
    this.active[key]--;
    if (taken > 0) this.activeRetries[key]--;
  }
  cancel(key: number, _now: number, taken: number): void {
    if (taken > 0) this.activeRetries[key]--;
  }
  cancelledTry(key: number, now: number, taken: number): void {
    this.ended(key, now, OUTCOME_OK, taken); // no longer in flight; the outcome is not read
  }
}

/**
 * Finagle RetryBudget (RetryBudget.scala) as the RequeueFilter uses it (RequeueFilter.scala,
 * Retries.scala): a retry is allowed while the balance,
 *   minRetriesPerSec*ttl + percentCanRetry*(deposits in the last ttl) - (retries in the last ttl),
 * is at least 1, and each retry withdraws 1. Counts are kept in one-second buckets over the ttl.
 *
 * deposit 'success' (the RequeueFilter, lines 155-166: `retryBudget.deposit()` only for
 * ResponseClass.Successful): a request deposits once, when it ends with a successful
 * response. Finagle's HTTP client classifies responses with ServerErrorsAsFailures by default
 * (Http.scala line 110, flag serverErrorsAsFailures true): a 5xx is a failure, and so is an
 * exception (timeout, connection failure, NACK); a 2xx, 3xx or 4xx answer is a success. Here
 * that is an answer below 500 that the layer does not retry. In a storm, failures, the
 * server's 503s included, stop funding retries.
 * deposit 'request' (the RetryFilter of a RetryPolicy): every request deposits when it starts.
 *
 * perRequest: a request may make at most ceil(perRequest * balance) retries, the balance
 * read when the request starts (MaxRequeuesPerReq 0.2; Finagle's balance is a whole number,
 * count / withdrawalAmount rounded down). Infinity lifts the cap.
 */
export class FinagleBudget implements RetryBudget {
  /** a: deposits, b: withdrawals (retries), per second over the ttl. */
  private readonly window: SecondBuckets;
  /** depositOn[outcome]: a request ending in that outcome deposits (deposit 'success'). */
  private readonly depositOn: Uint8Array;
  constructor(
    keys: number,
    ttl: number,
    private readonly minPerSec: number,
    private readonly percent: number,
    private readonly perRequest: number,
    private readonly depositOnSuccess: boolean,
    classes: OutcomeClasses,
  ) {
    this.window = new SecondBuckets(keys, ttl);
    this.depositOn = Uint8Array.from(classes.status, (status, o) => (o === OUTCOME_OK || (status !== 0 && status < 500 && !classes.retryOn[o]) ? 1 : 0));
  }
  private balance(key: number): number {
    const w = this.window;
    return this.minPerSec * w.secs + this.percent * w.sumA(key) - w.sumB(key);
  }
  started(key: number, now: number, retry: boolean): number {
    if (retry) return Infinity;
    const slot = this.window.slot(key, now);
    if (!this.depositOnSuccess) this.window.a[slot]++;
    return this.perRequest === Infinity ? Infinity : Math.ceil(this.perRequest * Math.floor(this.balance(key)));
  }
  acquire(key: number, now: number): number {
    const b = this.window.slot(key, now);
    if (this.balance(key) < 1) return -1;
    this.window.b[b]++;
    return 1;
  }
  ended(key: number, now: number, outcome: number, _taken?: number): void {
    // A try that ends in a deposit outcome ends its request (the layer does not retry it).
    if (this.depositOnSuccess && this.depositOn[outcome] === 1) this.window.a[this.window.slot(key, now)]++;
  }
  cancel(): void {} // a withdrawal stays withdrawn, as in Finagle
  cancelledTry(): void {} // no deposit: the request did not end in an answer
}

/** The budget a layer's spec describes, for `keys` keys, classifying outcomes as the layer sees them. */
export function makeBudget(spec: BudgetSpec, keys: number, classes: OutcomeClasses): RetryBudget {
  switch (spec.kind) {
    case 'grpc-throttle':
      return new GrpcThrottle(keys, spec.maxTokens, spec.tokenRatio, classes);
    case 'aws-quota':
      return new AwsRetryQuota(keys, spec.capacity, spec.transientCost, spec.throttlingCost, spec.successRefund, spec.refill === 'floor', classes);
    case 'envoy-budget':
      return new EnvoyRetryLimit(keys, spec.budgetPercent, spec.minRetryConcurrency);
    case 'envoy-max-retries':
      return new EnvoyRetryLimit(keys, 0, spec.maxRetries);
    case 'finagle': {
      const perRequest = spec.perRequest === 'none' ? Infinity : spec.perRequest;
      return new FinagleBudget(keys, spec.ttl, spec.minRetriesPerSec, spec.percentCanRetry, perRequest, spec.deposit === 'success', classes);
    }
    case 'sre-throttle':
      throw new Error('sre-throttle is a gate on every request, not a retry budget: use makeGate');
  }
}
