/**
 * Retry budgets (src/model/client/budgets.ts) and gates (gates.ts) on known vectors, and
 * end to end through simulate.
 */
import { describe, it, expect } from 'vitest';
import { GrpcThrottle, AwsRetryQuota, EnvoyRetryLimit, FinagleBudget, makeBudget, type OutcomeClasses } from '../../../src/model/client/budgets.js';
import { matchesRetryOn } from '../../../src/model/client/population.js';
import type { RetryOnItem } from '../../../src/model/client/layer-spec.js';
import {
  OUTCOME_COUNT, OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_RESET, OUTCOME_TIMEOUT, OUTCOME_INVALID, OUTCOME_RATE_LIMITED,
  OUTCOME_REFUSED_LOCALLY, OUTCOME_QUEUE_FULL, DEFAULT_CONTRACT, responseContract,
} from '../../../src/model/outcomes.js';
import { CircuitBreaker, AdaptiveThrottle } from '../../../src/model/client/gates.js';
import { stream } from '../../../src/engine/rng.js';
// Specs that rely on defaults go through the schema, which owns them.
import { budgetSchema, breakerSchema } from '../../../src/scenario/schema-clients.js';
import { run, failures, histogram, sum } from './harness.js';

/** How a layer retrying `retryOn` classifies each outcome, under the default response contract (503s, 429s, a 400). */
function classes(retryOn: RetryOnItem[]): OutcomeClasses {
  const r: boolean[] = [];
  for (let o = 0; o < OUTCOME_COUNT; o++) r.push(o !== OUTCOME_OK && matchesRetryOn(retryOn, o));
  return { retryOn: r, status: DEFAULT_CONTRACT.status };
}
const GRPC = classes(['reset', 503]);

describe('GrpcThrottle (gRFC A6 retry throttling)', () => {
  it('maxTokens 4, tokenRatio 1.6: 4 -> fail 3 (allowed) -> ok 4 -> fail 3 (allowed) -> fail 2 (blocked)', () => {
    const g = new GrpcThrottle(1, 4, 1.6, GRPC);
    expect(g.tokens(0)).toBe(4);
    g.ended(0, 0, OUTCOME_DEPENDENCY);
    expect(g.tokens(0)).toBe(3);
    expect(g.acquire(0)).toBeGreaterThanOrEqual(0);
    g.ended(0, 0, OUTCOME_OK);
    expect(g.tokens(0)).toBe(4); // 3 + 1.6 capped at 4
    g.ended(0, 0, OUTCOME_RESET);
    expect(g.tokens(0)).toBe(3);
    expect(g.acquire(0)).toBeGreaterThanOrEqual(0);
    g.ended(0, 0, OUTCOME_DEPENDENCY);
    expect(g.tokens(0)).toBe(2);
    expect(g.acquire(0)).toBe(-1); // 2 is not > 4/2
  });
  it('successes add tokenRatio (fractional) and reopen retries above the threshold; tokens never go below 0', () => {
    const g = new GrpcThrottle(2, 4, 1.6, GRPC);
    for (let i = 0; i < 10; i++) g.ended(0, 0, OUTCOME_DEPENDENCY);
    expect(g.tokens(0)).toBe(0);
    g.ended(0, 0, OUTCOME_OK);
    expect(g.tokens(0)).toBe(1.6);
    expect(g.acquire(0)).toBe(-1);
    g.ended(0, 0, OUTCOME_OK);
    expect(g.tokens(0)).toBe(3.2);
    expect(g.acquire(0)).toBeGreaterThanOrEqual(0);
    expect(g.tokens(1)).toBe(4); // keys are independent
  });
  it('A6 example (maxTokens 10, tokenRatio 0.1): only failures with a retryable status take a token', () => {
    // The policy retries UNAVAILABLE (503 and broken connections here). A6: "The only RPCs that are
    // counted as failures for the throttling policy are RPCs that fail with a status code that
    // qualifies as a retryable ... status code".
    const g = new GrpcThrottle(1, 10, 0.1, GRPC);
    for (let i = 0; i < 20; i++) {
      g.ended(0, 0, OUTCOME_INVALID); // INVALID_ARGUMENT (400)
      g.ended(0, 0, OUTCOME_RATE_LIMITED); // a 429 the policy does not retry
      g.ended(0, 0, OUTCOME_TIMEOUT); // DEADLINE_EXCEEDED, not retryable by this policy
    }
    expect(g.tokens(0)).toBe(10);
    const after: number[] = [];
    const allowed: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      g.ended(0, 0, i % 2 === 0 ? OUTCOME_DEPENDENCY : OUTCOME_RESET);
      after.push(g.tokens(0));
      allowed.push(g.acquire(0) >= 0);
    }
    expect(after).toEqual([9, 8, 7, 6, 5, 4]);
    expect(allowed).toEqual([true, true, true, true, false, false]); // retries while tokens > 5
    g.ended(0, 0, OUTCOME_INVALID);
    expect(g.tokens(0)).toBe(4); // a 400 still takes nothing
    // 4 + 10 x 0.1 = 5.0 is not above the threshold; the 11th success makes 5.1 (exact: thousandths).
    for (let i = 0; i < 10; i++) g.ended(0, 0, OUTCOME_OK);
    expect(g.tokens(0)).toBe(5);
    expect(g.acquire(0)).toBe(-1);
    g.ended(0, 0, OUTCOME_OK);
    expect(g.tokens(0)).toBe(5.1);
    expect(g.acquire(0)).toBe(0);
    // A refusal that never reached the server (a breaker) is not a failure of the RPC either.
    g.ended(0, 0, OUTCOME_REFUSED_LOCALLY);
    expect(g.tokens(0)).toBe(5.1);
  });
  it('a layer that also retries timeouts counts them (what retryOn says is what qualifies)', () => {
    const g = new GrpcThrottle(1, 10, 0.1, classes(['timeout', 'reset', 503]));
    g.ended(0, 0, OUTCOME_TIMEOUT);
    expect(g.tokens(0)).toBe(9);
  });
});

describe('AwsRetryQuota (AWS SDK standard retry mode)', () => {
  const AWS = classes(['timeout', 'reset', 429, 500, 502, 503, 504]);
  it('starts at 500; a retry after a transient failure (timeout, reset, 503) takes 10, after throttling (429) 5', () => {
    const q = makeBudget(budgetSchema.parse({ kind: 'aws-quota' }), 1, AWS) as AwsRetryQuota;
    expect(q.quota[0]).toBe(500);
    expect(q.acquire(0, 0, OUTCOME_RATE_LIMITED)).toBe(5);
    expect(q.quota[0]).toBe(495);
    expect(q.acquire(0, 0, OUTCOME_TIMEOUT)).toBe(10);
    expect(q.acquire(0, 0, OUTCOME_RESET)).toBe(10);
    expect(q.acquire(0, 0, OUTCOME_DEPENDENCY)).toBe(10); // a 503
    expect(q.quota[0]).toBe(465);
  });
  it('the 429 class follows the wire: an overload answered with 429 is throttling', () => {
    const w = responseContract({ status: 429 });
    const r: boolean[] = Array.from({ length: OUTCOME_COUNT }, (_, o) => o !== OUTCOME_OK);
    const q = makeBudget(budgetSchema.parse({ kind: 'aws-quota', transientCost: 14 }), 1, { retryOn: r, status: w.status }) as AwsRetryQuota;
    expect(q.acquire(0, 0, OUTCOME_QUEUE_FULL)).toBe(5);
    expect(q.acquire(0, 0, OUTCOME_DEPENDENCY)).toBe(14);
  });
  it('refuses when the quota is below the cost (and takes nothing)', () => {
    const q = new AwsRetryQuota(1, 500, 10, 5, 1, false, AWS);
    for (let i = 0; i < 100; i++) expect(q.acquire(0, 0, OUTCOME_RATE_LIMITED)).toBe(5);
    expect(q.quota[0]).toBe(0);
    expect(q.acquire(0, 0, OUTCOME_RATE_LIMITED)).toBe(-1);
    expect(q.quota[0]).toBe(0);
    const r = new AwsRetryQuota(1, 7, 10, 5, 1, false, AWS);
    expect(r.acquire(0, 0, OUTCOME_TIMEOUT)).toBe(-1);
    expect(r.quota[0]).toBe(7);
    expect(r.acquire(0, 0, OUTCOME_RATE_LIMITED)).toBe(5);
    expect(r.quota[0]).toBe(2);
    expect(r.acquire(0, 0, OUTCOME_RATE_LIMITED)).toBe(-1);
  });
  it('refill capped: a success refunds what its retry took, or 1 for a first try; failures refund nothing; never above capacity', () => {
    const q = new AwsRetryQuota(1, 500, 10, 5, 1, false, AWS);
    q.acquire(0, 0, OUTCOME_TIMEOUT); // 490
    q.acquire(0, 0, OUTCOME_RATE_LIMITED); // 485
    q.ended(0, 0, OUTCOME_TIMEOUT, 10);
    expect(q.quota[0]).toBe(485);
    q.ended(0, 0, OUTCOME_OK, 10);
    expect(q.quota[0]).toBe(495);
    q.ended(0, 0, OUTCOME_OK, -1);
    expect(q.quota[0]).toBe(496);
    q.ended(0, 0, OUTCOME_OK, 5);
    expect(q.quota[0]).toBe(500); // 501 capped
    q.ended(0, 0, OUTCOME_OK, -1);
    expect(q.quota[0]).toBe(500);
  });
  it('refill floor (@smithy/util-retry < 4.3.0): any success puts the quota back to at least 500, and first tries bank 1 each without limit', () => {
    const q = new AwsRetryQuota(1, 500, 10, 5, 1, true, AWS);
    for (let i = 0; i < 45; i++) q.acquire(0, 0, OUTCOME_TIMEOUT);
    expect(q.quota[0]).toBe(50);
    q.ended(0, 0, OUTCOME_OK, 10); // max(500, 60)
    expect(q.quota[0]).toBe(500);
    for (let i = 0; i < 1000; i++) q.ended(0, 0, OUTCOME_OK, -1);
    expect(q.quota[0]).toBe(1500);
    // the bank pays for 150 retries after timeouts before the first refusal
    let n = 0;
    while (q.acquire(0, 0, OUTCOME_TIMEOUT) >= 0) n++;
    expect(n).toBe(150);
  });
});

describe('EnvoyRetryLimit', () => {
  it('retry budget: retries in flight <= max(minRetryConcurrency, percent% of active requests)', () => {
    const e = new EnvoyRetryLimit(1, 20, 3);
    for (let i = 0; i < 10; i++) e.started(0);
    // 20% of 10 = 2 < 3: three retries
    expect([e.acquire(0), e.acquire(0), e.acquire(0), e.acquire(0)]).toEqual([1, 1, 1, -1]);
    // a retry ends: one more may go
    e.ended(0, 0, OUTCOME_DEPENDENCY, 1);
    expect(e.acquire(0)).toBe(1);
    expect(e.acquire(0)).toBe(-1);
  });
  it('percent of active counts when above the minimum: 30 active at 20% -> 6', () => {
    const e = new EnvoyRetryLimit(1, 20, 3);
    for (let i = 0; i < 30; i++) e.started(0);
    const got = Array.from({ length: 8 }, () => e.acquire(0));
    expect(got.filter((x) => x >= 0).length).toBe(6);
  });
  it('a fractional allowance is rounded down, as Envoy does (uint64 of percent/100 * active): 17 active at 20% -> 3, not 4', () => {
    const e = new EnvoyRetryLimit(1, 20, 3);
    for (let i = 0; i < 17; i++) e.started(0);
    const got = Array.from({ length: 5 }, () => e.acquire(0));
    expect(got.filter((x) => x >= 0).length).toBe(3);
    const f = new EnvoyRetryLimit(1, 25, 0);
    for (let i = 0; i < 10; i++) f.started(0); // 2.5 -> 2
    expect([f.acquire(0), f.acquire(0), f.acquire(0)]).toEqual([1, 1, -1]);
  });
  it('ending a first try (taken -1) frees no retry; every ended try leaves the active count', () => {
    const e = new EnvoyRetryLimit(1, 100, 0);
    e.started(0);
    e.started(0);
    expect(e.active[0]).toBe(2);
    expect(e.acquire(0)).toBe(1);
    expect(e.acquire(0)).toBe(1);
    expect(e.acquire(0)).toBe(-1);
    e.ended(0, 0, OUTCOME_DEPENDENCY, -1);
    expect(e.active[0]).toBe(1);
    expect(e.activeRetries[0]).toBe(2);
  });
  it('max-retries: a fixed number of concurrent retries whatever the load', () => {
    const e = makeBudget(budgetSchema.parse({ kind: 'envoy-max-retries', maxRetries: 2 }), 1, GRPC) as EnvoyRetryLimit;
    for (let i = 0; i < 100; i++) e.started(0);
    expect([e.acquire(0), e.acquire(0), e.acquire(0)]).toEqual([1, 1, -1]);
    const d = makeBudget(budgetSchema.parse({ kind: 'envoy-max-retries' }), 1, GRPC);
    expect([1, 2, 3, 4].map(() => d.acquire(0, 0, OUTCOME_DEPENDENCY))).toEqual([1, 1, 1, -1]);
  });
});

describe('FinagleBudget (ttl 10s, minRetriesPerSec 10, percentCanRetry 0.2)', () => {
  const FIN = classes(['reset']);
  /** A RetryFilter-style budget: every request deposits when it starts. */
  const perRequest = (keys: number, min: number) => new FinagleBudget(keys, 10, min, 0.2, 0.2, false, FIN);
  /** The RequeueFilter's budget: a request deposits when it ends with a successful response. */
  const onSuccess = (keys: number, min: number) => new FinagleBudget(keys, 10, min, 0.2, 0.2, true, FIN);
  const allowed = (b: FinagleBudget, now: number, limit = 10_000) => {
    let n = 0;
    while (n < limit && b.acquire(0, now) >= 0) n++;
    return n;
  };
  it('100 retries with no requests in the window', () => {
    expect(allowed(perRequest(1, 10), 0.5)).toBe(100);
    expect(allowed(onSuccess(1, 10), 0.5)).toBe(100);
  });
  it('deposit request: plus 0.2 per request: 50 requests -> 110', () => {
    const b = perRequest(1, 10);
    for (let i = 0; i < 50; i++) b.started(0, 0.5, false);
    expect(allowed(b, 0.5)).toBe(110);
  });
  it('deposit request: only first tries deposit: a retry try deposits nothing', () => {
    const b = perRequest(1, 0);
    for (let i = 0; i < 50; i++) b.started(0, 0.5, true);
    expect(allowed(b, 0.5)).toBe(0);
    for (let i = 0; i < 5; i++) b.started(0, 0.5, false);
    expect(allowed(b, 0.5)).toBe(1);
  });
  it('deposit success: a request deposits when it ends with a response below 500 the layer does not retry, not when it starts or fails', () => {
    const b = onSuccess(1, 0);
    for (let i = 0; i < 50; i++) b.started(0, 0.5, false);
    expect(allowed(b, 0.5)).toBe(0); // starting deposits nothing
    for (let i = 0; i < 20; i++) {
      b.ended(0, 0.5, OUTCOME_RESET, -1); // a connection failure: an exception, retried
      b.ended(0, 0.5, OUTCOME_TIMEOUT, -1); // a timeout: an exception
      b.ended(0, 0.5, OUTCOME_REFUSED_LOCALLY, -1);
    }
    expect(allowed(b, 0.5)).toBe(0);
    // A 503 is a failure for the HTTP client's default classifier (ServerErrorsAsFailures).
    for (let i = 0; i < 50; i++) b.ended(0, 0.5, OUTCOME_DEPENDENCY, -1);
    expect(allowed(b, 0.5)).toBe(0);
    for (let i = 0; i < 10; i++) b.ended(0, 0.5, OUTCOME_OK, -1);
    for (let i = 0; i < 5; i++) b.ended(0, 0.5, OUTCOME_INVALID, -1); // a 400: a response below 500, a success
    expect(allowed(b, 0.5)).toBe(3); // 0.2 x 15
  });
  it('deposit success: a 503 the layer retries (standing for a NACK) is a failure and deposits nothing', () => {
    const b = new FinagleBudget(1, 10, 0, 0.2, 0.2, true, classes(['reset', 503]));
    for (let i = 0; i < 50; i++) b.ended(0, 0.5, OUTCOME_DEPENDENCY, -1);
    expect(allowed(b, 0.5)).toBe(0);
  });
  it('per request: at most ceil(0.2 x balance) retries, the balance (a whole number) read when the request starts', () => {
    const b = onSuccess(1, 10);
    expect(b.started(0, 0.5, false)).toBe(20); // reserve 10/s x 10 s = 100
    for (let i = 0; i < 50; i++) b.ended(0, 0.5, OUTCOME_OK, -1); // balance 110
    expect(b.started(0, 0.5, false)).toBe(22);
    expect(b.started(0, 0.5, true)).toBe(Infinity); // a retry does not reset the call's cap
    expect(allowed(b, 0.5, 104)).toBe(104); // balance 6
    expect(b.started(0, 0.5, false)).toBe(2); // ceil(1.2)
    b.ended(0, 0.5, OUTCOME_OK, -1); // 6.2 -> floor 6
    expect(b.started(0, 0.5, false)).toBe(2);
    expect(allowed(b, 0.5)).toBe(6);
    expect(b.started(0, 0.5, false)).toBe(0); // balance 0.2 -> 0: no retry at all
    const none = new FinagleBudget(1, 10, 10, 0.2, Infinity, true, FIN);
    expect(none.started(0, 0.5, false)).toBe(Infinity);
  });
  it('makeBudget: deposit success and a 0.2 per-request share by default; perRequest none lifts the cap', () => {
    const d = makeBudget(budgetSchema.parse({ kind: 'finagle' }), 1, FIN);
    expect(d.started(0, 0.5, false)).toBe(20);
    expect(allowed(d as FinagleBudget, 0.5)).toBe(100);
    d.started(0, 0.6, false);
    expect(allowed(d as FinagleBudget, 0.6)).toBe(0); // starting did not deposit
    expect(makeBudget(budgetSchema.parse({ kind: 'finagle', perRequest: 'none' }), 1, FIN).started(0, 0.5, false)).toBe(Infinity);
  });
  it('the window slides: withdrawals and deposits older than ttl expire', () => {
    const b = perRequest(1, 10);
    expect(allowed(b, 0.5)).toBe(100);
    expect(allowed(b, 5)).toBe(0);
    expect(allowed(b, 9.9)).toBe(0);
    expect(allowed(b, 10.5)).toBe(100); // the withdrawals of second 0 left the window
    const d = perRequest(1, 0);
    for (let i = 0; i < 50; i++) d.started(0, 0.5, false);
    expect(allowed(d, 3)).toBe(10); // 10 withdrawals in second 3
    for (let i = 0; i < 50; i++) d.started(0, 4.5, false);
    expect(allowed(d, 10.2)).toBe(0); // second 0's deposits gone; second 3's withdrawals still count
    expect(allowed(d, 13.5)).toBe(10); // second 3 gone: second 4's 50 deposits remain
    expect(allowed(d, 15)).toBe(0); // everything from second 4 is gone at second 15
  });
  it('a long silence clears the whole window', () => {
    const b = perRequest(2, 10);
    allowed(b, 0.5);
    expect(allowed(b, 1000.5)).toBe(100);
  });
});

describe('AdaptiveThrottle (SRE client-side throttling)', () => {
  it('never refuses while K * accepts >= requests (refuses whenever p > 0 with rng = 0)', () => {
    const t = new AdaptiveThrottle(1, 2, 120, () => 0);
    for (let i = 0; i < 200; i++) {
      // half of the requests are accepted: requests = 2 * accepts
      expect(t.admit(0, i * 0.1)).toBe(true);
      t.ended(0, i * 0.1, i % 2 === 1);
    }
  });
  it('refuses once requests exceed K * accepts', () => {
    const t = new AdaptiveThrottle(1, 2, 120, () => 0);
    expect(t.admit(0, 1)).toBe(true); // p = 0/1
    t.ended(0, 1, true);
    expect(t.admit(0, 1)).toBe(false); // p = (1 - 0)/2
  });
  it('refusal probability = (requests - K * accepts) / (requests + 1), measured over 20000 throttles', () => {
    for (const [requests, accepts] of [[100, 10], [100, 30], [50, 24], [4, 1]] as const) {
      const keys = 20000;
      const t = new AdaptiveThrottle(keys, 2, 1, stream(1, 't'));
      let refused = 0;
      for (let k = 0; k < keys; k++) {
        for (let i = 0; i < requests; i++) t.admit(k, 0.5);
        for (let i = 0; i < accepts; i++) t.ended(k, 0.5, false);
        if (!t.admit(k, 0.5)) refused++;
      }
      const p = Math.max(0, (requests - 2 * accepts) / (requests + 1));
      const sd = Math.sqrt((p * (1 - p)) / keys);
      expect(Math.abs(refused / keys - p)).toBeLessThan(4 * sd + 1e-9);
    }
  });
  it('refuses exactly when the draw is below (requests - K * accepts) / (requests + 1): 3 requests, 1 accept -> 0.25', () => {
    const at = (u: number) => {
      const t = new AdaptiveThrottle(1, 2, 120, () => u);
      for (let i = 0; i < 3; i++) t.admit(0, 1);
      t.ended(0, 1, false);
      return t.admit(0, 1);
    };
    expect(at(0.2499)).toBe(false);
    expect(at(0.2501)).toBe(true);
  });
  it('counts older than the window are forgotten', () => {
    const t = new AdaptiveThrottle(1, 2, 10, () => 0);
    for (let i = 0; i < 100; i++) t.admit(0, 0.5);
    expect(t.admit(0, 9.5)).toBe(false);
    expect(t.admit(0, 10.5)).toBe(false); // second 9's request is still in the window
    expect(t.admit(0, 30)).toBe(true);
  });
});

describe('CircuitBreaker', () => {
  const cb = (extra: object = {}) => new CircuitBreaker(2, { window: { calls: 10 }, failureRateThreshold: 0.5, minimumCalls: 5, openFor: 30, halfOpenCalls: 3, ...extra });

  it('count window: opens when the failure rate reaches the threshold once minimumCalls are in', () => {
    const b = cb();
    for (const failed of [false, false, true, true]) { expect(b.admit(0, 0)).toBe(true); b.ended(0, 0, failed); }
    expect(b.stateOf(0)).toBe('closed'); // 2/4 but fewer than 5 calls
    b.ended(0, 0, false);
    expect(b.stateOf(0)).toBe('closed'); // 2/5 = 0.4
    b.ended(0, 1, true);
    expect(b.stateOf(0)).toBe('open'); // 3/6 = 0.5
    expect(b.stateOf(1)).toBe('closed'); // other key
    expect(b.admit(1, 2)).toBe(true);
  });

  it('refuses while open, then half-open after openFor with halfOpenCalls probes; good probes close it', () => {
    const b = cb();
    for (let i = 0; i < 5; i++) b.ended(0, 1, true);
    expect(b.stateOf(0)).toBe('open');
    expect(b.reopensAt(0, 0)).toBe(31);
    expect(b.admit(0, 2)).toBe(false);
    expect(b.admit(0, 30.99)).toBe(false);
    expect([b.admit(0, 31), b.admit(0, 31), b.admit(0, 31), b.admit(0, 31)]).toEqual([true, true, true, false]);
    expect(b.stateOf(0)).toBe('half-open');
    b.ended(0, 32, false);
    b.ended(0, 32, false);
    expect(b.stateOf(0)).toBe('half-open');
    b.ended(0, 32, false);
    expect(b.stateOf(0)).toBe('closed');
    // the window starts empty again: 4 failures do not reopen it, the 5th does
    for (let i = 0; i < 4; i++) b.ended(0, 33, true);
    expect(b.stateOf(0)).toBe('closed');
    b.ended(0, 33, true);
    expect(b.stateOf(0)).toBe('open');
  });

  it('half-open probes: a failure rate >= threshold reopens for another openFor; below it closes', () => {
    const b = cb();
    for (let i = 0; i < 5; i++) b.ended(0, 0, true);
    for (let i = 0; i < 3; i++) b.admit(0, 30);
    b.ended(0, 31, true);
    b.ended(0, 31, true);
    b.ended(0, 31, false); // 2/3
    expect(b.stateOf(0)).toBe('open');
    expect(b.admit(0, 60)).toBe(false);
    expect(b.admit(0, 61)).toBe(true);
    b.admit(0, 61);
    b.admit(0, 61);
    b.ended(0, 62, true);
    b.ended(0, 62, false);
    b.ended(0, 62, false); // 1/3
    expect(b.stateOf(0)).toBe('closed');
  });

  it('a try its caller cancelled counts neither way, and a cancelled half-open probe gives its permit back', () => {
    const b = cb();
    for (let i = 0; i < 20; i++) { b.admit(0, 0); b.cancelled(0, 0); }
    expect(b.stateOf(0)).toBe('closed'); // 20 cancellations are no failures
    for (let i = 0; i < 5; i++) b.ended(0, 1, true);
    expect(b.stateOf(0)).toBe('open');
    expect([b.admit(0, 31), b.admit(0, 31), b.admit(0, 31), b.admit(0, 31)]).toEqual([true, true, true, false]);
    b.cancelled(0, 31.5); // one probe will never report: another may go
    expect(b.admit(0, 31.5)).toBe(true);
    for (let i = 0; i < 3; i++) b.ended(0, 32, false);
    expect(b.stateOf(0)).toBe('closed');
  });

  it('an outcome of a try admitted before the breaker opened is ignored while open', () => {
    const b = cb();
    for (let i = 0; i < 5; i++) b.ended(0, 0, true);
    for (let i = 0; i < 10; i++) b.ended(0, 1, false);
    expect(b.stateOf(0)).toBe('open');
    expect(b.reopensAt(0, 0)).toBe(30);
  });

  it('count window slides: only the last `calls` outcomes count', () => {
    const b = new CircuitBreaker(1, { window: { calls: 4 }, failureRateThreshold: 0.75, minimumCalls: 4, openFor: 10, halfOpenCalls: 1 });
    for (const failed of [false, true, true, false]) b.ended(0, 0, failed);
    expect(b.stateOf(0)).toBe('closed'); // 2/4
    b.ended(0, 0, true); // window: F F O F = 3/4 (cumulative would be 3/5)
    expect(b.stateOf(0)).toBe('open');
  });

  it('minimumCalls above a count window is capped at the window size, as in Resilience4j (window 20, default minimumCalls 100)', () => {
    const b = new CircuitBreaker(1, breakerSchema.parse({ window: { calls: 20 } }));
    for (let i = 0; i < 19; i++) b.ended(0, 0, true);
    expect(b.stateOf(0)).toBe('closed');
    b.ended(0, 0, true);
    expect(b.stateOf(0)).toBe('open');
  });

  it('time window forgets outcomes older than the window', () => {
    const spec = { window: { time: 10 }, failureRateThreshold: 0.5, minimumCalls: 5, openFor: 30, halfOpenCalls: 1 };
    const stale = new CircuitBreaker(1, spec);
    for (let i = 0; i < 4; i++) stale.ended(0, 0.5, true);
    stale.ended(0, 11.5, true); // second 0 has left the window: 1 call
    expect(stale.stateOf(0)).toBe('closed');
    const fresh = new CircuitBreaker(1, spec);
    for (let i = 0; i < 4; i++) fresh.ended(0, 0.5, true);
    fresh.ended(0, 9.5, true); // still 5 calls in the window
    expect(fresh.stateOf(0)).toBe('open');
  });

  it('time window counts successes against failures', () => {
    const b = new CircuitBreaker(1, { window: { time: 10 }, failureRateThreshold: 0.5, minimumCalls: 5, openFor: 30, halfOpenCalls: 1 });
    for (let i = 0; i < 6; i++) b.ended(0, 1.5, false);
    for (let i = 0; i < 5; i++) b.ended(0, 2.5, true); // 5/11
    expect(b.stateOf(0)).toBe('closed');
    b.ended(0, 11.5, true); // second 1 gone: 6 of 6 failures
    expect(b.stateOf(0)).toBe('open');
  });
});

// ── End to end ──────────────────────────────────────────────────────────────

const outage = (retry: string, opts: { rate?: string; horizon?: string; faults?: string; clients?: number; behaviour?: string; serviceTime?: string } = {}) => `
name: e2e
horizon: ${opts.horizon ?? '5m'}
clients:
  app:
    clients: ${opts.clients ?? 100}
    arrivals: { kind: constant, rate: ${opts.rate ?? '20/s'} }
${retry}
${opts.behaviour ? `    behaviour: ${opts.behaviour}` : ''}
server:
  slots: 200
  serviceTime: { kind: constant, value: ${opts.serviceTime ?? '5ms'} }
faults: ${opts.faults ?? '[{ kind: dependency-down, at: 60s, duration: 2m }]'}
`;

describe('end to end', () => {
  it('a breaker (scope population) during an outage refuses locally and sends far fewer attempts', () => {
    const layer = (breaker: string) => `    retry: { maxAttempts: 3, backoff: { kind: constant, base: 200ms, jitter: none }${breaker} }`;
    const without = run(outage(layer('')));
    const withBreaker = run(outage(layer(', breaker: { window: { calls: 50 }, minimumCalls: 20, openFor: 10s, halfOpenCalls: 5, scope: population }')));
    expect(failures(without.series, 'refused-locally')).toBe(0);
    expect(failures(withBreaker.series, 'refused-locally')).toBeGreaterThan(1000);
    const during = (r: typeof without) => sum(r.series.attempts, 60, 180);
    expect(during(withBreaker)).toBeLessThan(0.2 * during(without));
    // and the service comes back: successes after the outage
    expect(sum(withBreaker.series.actionsOk, 200, 300)).toBeGreaterThan(0.95 * sum(withBreaker.series.actionsStarted, 200, 300) - 30);
  });

  it('gRPC throttling (scope population) stops retrying within a few failures of an outage', () => {
    const r = run(outage(`    retry: { maxAttempts: 5, backoff: { kind: none }, budget: { kind: grpc-throttle, maxTokens: 10, tokenRatio: 0.1, scope: population } }`));
    const n = sum(r.series.firstTries, 60, 180);
    expect(n).toBeGreaterThan(2000);
    expect(sum(r.series.retries, 60, 180)).toBeLessThan(10);
  });

  it('Finagle budget, deposit request: in a long outage retries settle at percentCanRetry of requests (20%), not 25% (retries must not deposit)', () => {
    const r = run(outage(`    retry: { maxAttempts: 50, backoff: { kind: none }, budget: { kind: finagle, ttl: 10s, minRetriesPerSec: 0, percentCanRetry: 0.2, deposit: request, perRequest: none, scope: population } }`,
      { faults: '[{ kind: dependency-down, at: 0s, duration: 5m }]', horizon: '5m' }));
    const ratio = sum(r.series.retries) / sum(r.series.firstTries);
    expect(ratio).toBeGreaterThan(0.18);
    expect(ratio).toBeLessThanOrEqual(0.2);
  });

  it('Finagle budget, deposit success: in a long outage nothing funds retries but the reserve (10/s)', () => {
    // The outage answers 503 and this layer retries it, as it would a NACK: no request ends
    // with a successful response, so only minRetriesPerSec x ttl remains to spend.
    const r = run(outage(`    retry: { maxAttempts: 50, retryOn: [503], backoff: { kind: none }, budget: { kind: finagle, scope: population } }`,
      { faults: '[{ kind: dependency-down, at: 60s, duration: 5m }]', horizon: '6m' }));
    const perSecond = sum(r.series.retries, 80, 360) / 280;
    expect(perSecond).toBeGreaterThan(9);
    expect(perSecond).toBeLessThanOrEqual(10.5);
    const control = run(outage(`    retry: { maxAttempts: 50, retryOn: [503], backoff: { kind: none }, budget: { kind: finagle, deposit: request, scope: population } }`,
      { faults: '[{ kind: dependency-down, at: 60s, duration: 5m }]', horizon: '6m' }));
    // deposit request: 20/s requests fund 4 more retries per second
    expect(sum(control.series.retries, 80, 360) / 280).toBeGreaterThan(13);
  });

  it('AWS quota (scope population): 50 retries then nothing while every try fails with a 503 (a transient error costs 10)', () => {
    const r = run(outage(`    retry: { maxAttempts: 3, backoff: { kind: none }, budget: { kind: aws-quota, scope: population } }`));
    expect(sum(r.series.retries, 60, 180)).toBe(50);
  });

  it('AWS quota (scope population): 100 retries then nothing while every try is throttled with a 429 (costs 5)', () => {
    const r = run(outage(`    retry: { maxAttempts: 3, backoff: { kind: none }, budget: { kind: aws-quota, scope: population } }`,
      { faults: '[{ kind: capacity-cut, at: 60s, duration: 2m, slots: 0 }]' })
      .replace('slots: 200', 'slots: 200\n  queue: 0\n  overload: { status: 429 }'));
    expect(failures(r.series, 'queue-full')).toBeGreaterThan(2000);
    expect(sum(r.series.retries, 60, 180)).toBe(100);
  });

  it('SRE throttle (scope population) refuses a large share locally during an outage, and none when healthy', () => {
    const r = run(outage(`    retry: { maxAttempts: 1, budget: { kind: sre-throttle, k: 2, window: 30s, scope: population } }`));
    expect(failures(r.series, 'refused-locally')).toBeGreaterThan(0.5 * sum(r.series.actionsStarted, 60, 180));
    expect(sum(r.series.failures[6], 0, 60)).toBe(0);
  });
});

describe('abandoned and refused tries give back what they hold (bugs found by these tests, now fixed)', () => {
  // Controls: the same scenarios without the abandonment behave as expected.
  it('control: without the outer timeout, every action of the Envoy scenario retries once', () => {
    const r = run(outage(`    layers:
      app: { maxAttempts: 1 }
      http: { maxAttempts: 2, backoff: { kind: constant, base: 100ms, jitter: none }, budget: { kind: envoy-max-retries, maxRetries: 1, scope: population } }`,
      { rate: '0.05/s', horizon: '30m', faults: '[{ kind: dependency-down, at: 0s, duration: 30m }]', serviceTime: '1ms' }).replace('slots: 200', 'slots: 200\n  failFastTime: 600ms'));
    expect((histogram(r)[2] ?? 0) / r.totals.actionsFailed).toBeGreaterThan(0.8);
  });
  it('control: without giveUpAfter, the breaker of the half-open scenario closes again after the fault', () => {
    const r = run(outage(`    retry: { maxAttempts: 1, breaker: { window: { calls: 10 }, minimumCalls: 5, openFor: 10s, halfOpenCalls: 1, scope: population } }`,
      { rate: '5/s', faults: '[{ kind: dependency-down, at: 10s, duration: 20s }, { kind: capacity-cut, at: 30s, duration: 60s, slots: 0 }]' }));
    expect(failures(r.series, 'refused-locally')).toBeGreaterThan(0);
    expect(sum(r.series.actionsOk, 150, 300)).toBeGreaterThan(0.9 * sum(r.series.actionsStarted, 150, 300));
  });

  // Envoy budget on an inner layer: the retry cut by the outer per-try timeout never ends
  // for the budget, so activeRetries leaks and, with maxRetries 1, no later action may retry.
  it('an inner layer budget gets back the retry cut by an outer timeout', () => {
    const r = run(outage(`    layers:
      app: { maxAttempts: 1, timeout: 1s }
      http: { maxAttempts: 2, backoff: { kind: constant, base: 100ms, jitter: none }, budget: { kind: envoy-max-retries, maxRetries: 1, scope: population } }`,
      { rate: '0.05/s', horizon: '30m', faults: '[{ kind: dependency-down, at: 0s, duration: 30m }]', serviceTime: '1ms' }).replace('slots: 200', 'slots: 200\n  failFastTime: 600ms'));
    const h = histogram(r);
    expect(r.totals.actionsFailed).toBeGreaterThan(50);
    expect((h[2] ?? 0) / r.totals.actionsFailed).toBeGreaterThan(0.8); // before the fix: one action ever retried
  });

  // A half-open probe abandoned by the user (giveUpAfter) never ends for the breaker:
  // probesLeft stays 0 and the breaker refuses every try for the rest of the run.
  it('a breaker whose half-open probe was abandoned still recovers after the fault', () => {
    const r = run(outage(`    retry: { maxAttempts: 1, breaker: { window: { calls: 10 }, minimumCalls: 5, openFor: 10s, halfOpenCalls: 1, scope: population } }`,
      { rate: '5/s', behaviour: '{ giveUpAfter: 2s }', faults: '[{ kind: dependency-down, at: 10s, duration: 20s }, { kind: capacity-cut, at: 30s, duration: 60s, slots: 0 }]' }));
    expect(sum(r.series.actionsOk, 150, 300)).toBeGreaterThan(0);
  });

  // A retry that acquired an Envoy retry and is then refused by the layer's breaker ends as
  // refused-locally, which skips budget.ended: the retry is never given back. Two clients with
  // their own breakers share one budget of 1 retry: the second client never gets to retry.
  it('a retry refused by the breaker gives its Envoy retry back', () => {
    const r = run(outage(`    retry: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none }, budget: { kind: envoy-max-retries, maxRetries: 1, scope: population }, breaker: { window: { calls: 2 }, minimumCalls: 2, openFor: 1h, halfOpenCalls: 1, scope: client } }`,
      { clients: 2, rate: '0.05/s', horizon: '10m', faults: '[{ kind: dependency-down, at: 0s, duration: 10m }]' }));
    expect(failures(r.series, 'refused-locally')).toBeGreaterThan(10);
    expect(sum(r.series.retries)).toBe(2); // before the fix: 1
  });

  // whenOpen: wait: callers wait for the breaker instead of failing with refused-locally.
  it('breaker whenOpen: wait makes callers wait instead of failing with refused-locally', () => {
    const r = run(outage(`    retry: { maxAttempts: 1, breaker: { window: { calls: 10 }, minimumCalls: 5, openFor: 10s, whenOpen: wait, scope: population } }`));
    expect(failures(r.series, 'refused-locally')).toBe(0);
  });
});
