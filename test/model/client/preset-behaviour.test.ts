/**
 * The presets behave as the libraries do, version by version, in whole simulations:
 *  - aws-sdk-js-v3 before @smithy/util-retry 4.3.0 refills its retry quota with Math.max, so
 *    after a healthy warm-up 100 clients keep making 3 attempts per action through a
 *    10-minute outage; from 4.3.0 (Math.min) the quota runs out after 25 actions per client.
 *  - gRPC: every backoff of the current releases lies in [0.8, 1.2] x the exponential value,
 *    uniformly; the old releases draw from [0, 1] (and grpc-java 1.71-1.79 from [0.4, 1.2]).
 *  - gRPC retry throttling: only failures with a retryable status take a token (A6 vector,
 *    maxTokens 10, tokenRatio 0.1).
 *  - Finagle: a request deposits only when it succeeds, and may retry at most
 *    ceil(0.2 x balance) times, the balance read when it starts.
 * Fixed seeds; the expected figures are derived from the libraries' rules in each test.
 */
import { describe, it, expect } from 'vitest';
import { run, drive, sum, histogram, offsets, type Driven } from './harness.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY, OUTCOME_INVALID, OUTCOME_RATE_LIMITED, OUTCOME_RESET } from '../../../src/model/outcomes.js';
import type { RunRecord } from '../../../src/model/series.js';

describe('aws-sdk-js-v3: the retry quota through a 10-minute outage after a 4-hour healthy warm-up (100 clients, an action every 2 s each)', () => {
  const WARMUP = 4 * 3600;
  const scenario = (preset: string) => `
name: aws-outage
horizon: 4h15m
measures: { bucket: 10s }
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 50/s }
    layers:
      sdk: { preset: "${preset}" }
server: { slots: 100, serviceTime: { kind: constant, value: 5ms } }
faults: [{ kind: dependency-down, at: 4h, duration: 10m }]
`;
  /** Buckets of 10 s strictly inside the outage, clear of its edges. */
  const during = (series: ArrayLike<number>) => sum(series, WARMUP / 10 + 1, (WARMUP + 600) / 10 - 1);
  const results = new Map<string, RunRecord>();
  const runOf = (preset: string) => {
    if (!results.has(preset)) results.set(preset, run(scenario(preset)));
    return results.get(preset)!;
  };

  it('before 4.3.0 (client 3.1025): every action during the outage makes 3 attempts (the quota banked one token per warm-up success)', () => {
    const r = runOf('aws-sdk-js-v3@3.1025+locked');
    const first = during(r.series.firstTries);
    expect(first).toBeGreaterThan(27_000); // ~50/s for 580 s
    // two retries per first try (to a few actions straddling the window's edges)
    expect(Math.abs(during(r.series.retries) - 2 * first)).toBeLessThan(10);
    // every action that failed made its 3 attempts, none was cut short by the quota: the only
    // actions with 2 or 3 attempts besides are the few that straddle the outage's end and succeed
    const h = histogram(r);
    expect(r.totals.actionsFailed).toBeGreaterThan(29_000);
    expect(h[3]).toBeGreaterThanOrEqual(r.totals.actionsFailed);
    expect(h[3] - r.totals.actionsFailed + (h[2] ?? 0)).toBeLessThan(30);
  });

  it('before 4.3.0 the bank is what lasts: after a 30-minute warm-up the retries stop once the banked tokens are spent', () => {
    // 500 + one token per success without retry, 10 per retry after a 503: (500 + S) / 10 retries per client.
    const short = scenario('aws-sdk-js-v3@3.1025+locked').replace('horizon: 4h15m', 'horizon: 45m').replace('at: 4h', 'at: 30m');
    const r = run(short);
    const banked = sum(r.series.actionsOk, 0, 180); // successes before the outage, every client summed
    const want = (100 * 500 + banked) / 10 - 100; // minus ~1 per client: each stops on a whole retry pair
    const retries = sum(r.series.retries);
    expect(Math.abs(retries - want)).toBeLessThan(150);
    expect(retries).toBeLessThan(0.5 * 2 * sum(r.series.firstTries, 180, 240)); // far from 2 per action
  });

  it('from 4.3.0 (client 3.1026): the quota runs out after 25 actions per client: 5,000 retries in all, then one attempt per action', () => {
    const r = runOf('aws-sdk-js-v3@3.1026+locked');
    // 500 tokens, 10 per retry after a 503: exactly 50 retries per client, 2 per action, so 25
    // actions (a client's overlapping actions can split the last retries between them)
    expect(sum(r.series.retries)).toBe(100 * 50);
    const h = histogram(r);
    expect(2 * h[3] + (h[2] ?? 0)).toBe(100 * 50);
    expect(h[3]).toBeGreaterThan(100 * 24);
    // every other action, failed or not, made one attempt
    expect(h[1] + (h[2] ?? 0) + h[3]).toBe(r.totals.actionsOk + r.totals.actionsFailed);
    // and all within the outage's first 2 minutes (25 actions per client at one per 2 s: ~50 s)
    expect(sum(r.series.retries, WARMUP / 10, WARMUP / 10 + 12)).toBe(100 * 50);
  });

  it('the current release (2026 defaults, 14 per transient retry): 35 retries per client', () => {
    const r = runOf('aws-sdk-js-v3');
    expect(sum(r.series.retries)).toBe(100 * 35); // 35 x 14 = 490; the 36th would need 14 of the 10 left
    const h = histogram(r);
    expect(2 * h[3] + h[2]).toBe(100 * 35);
    expect(h[2]).toBeGreaterThanOrEqual(100); // 35 is odd: each client has an action with a single retry
    expect(h[3]).toBeGreaterThan(100 * 16);
  });
});

describe('gRPC backoff: every retry waits between 0.8 and 1.2 times the exponential value', () => {
  // A scripted server answers every attempt at once with UNAVAILABLE (503): the time between
  // two attempts of an action is exactly the backoff. A million clients, so each client's
  // throttling tokens stay above the threshold (one action each, mostly).
  const scenario = (preset: string) => `
name: grpc-backoff
horizon: 10m
clients:
  app:
    clients: 1000000
    arrivals: { kind: constant, rate: 20/s }
    layers:
      rpc: { preset: "${preset}" }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;
  /** Per retry number n (1..3): the waits divided by min(0.1 x 2^(n-1), 1). */
  function ratios(d: Driven): number[][] {
    const out: number[][] = [[], [], []];
    for (const a of d.byAction) {
      const t = offsets(a);
      for (let n = 1; n < t.length; n++) out[n - 1].push((t[n] - t[n - 1]) / Math.min(0.1 * 2 ** (n - 1), 1));
    }
    return out;
  }
  /** Kolmogorov–Smirnov distance from uniform(lo, hi). */
  function ksUniform(xs: number[], lo: number, hi: number): number {
    const s = [...xs].sort((a, b) => a - b);
    let d = 0;
    s.forEach((x, i) => {
      const f = Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
      d = Math.max(d, (i + 1) / s.length - f, f - i / s.length);
    });
    return d;
  }
  const answer503 = () => ({ after: 0, outcome: OUTCOME_DEPENDENCY });

  for (const preset of ['grpc', 'grpc-java', 'grpc-java@1.80', 'grpc-go', 'grpc-go@1.69', 'grpc-js', 'grpc-js@1.14']) {
    it(`${preset}: in [0.8, 1.2] x the exponential value for every retry, uniformly`, () => {
      const r = ratios(drive(scenario(preset), answer503));
      for (const xs of r) {
        expect(xs.length).toBeGreaterThan(10_000);
        expect(Math.min(...xs)).toBeGreaterThanOrEqual(0.8 - 1e-9);
        expect(Math.max(...xs)).toBeLessThanOrEqual(1.2 + 1e-9);
        // uniform: the KS distance at alpha 0.001 is 1.95 / sqrt(n)
        expect(ksUniform(xs, 0.8, 1.2)).toBeLessThan(1.95 / Math.sqrt(xs.length));
      }
    });
  }

  it('the releases before the change draw full jitter, and grpc-java 1.71-1.79 from [0.4, 1.2]', () => {
    for (const preset of ['grpc-java@1.70', 'grpc-go@1.68', 'grpc-js@1.13.4']) {
      for (const xs of ratios(drive(scenario(preset), answer503))) {
        expect(Math.max(...xs)).toBeLessThanOrEqual(1);
        expect(Math.min(...xs)).toBeLessThan(0.01); // a retry can fire almost at once
        expect(ksUniform(xs, 0, 1)).toBeLessThan(1.95 / Math.sqrt(xs.length));
      }
    }
    for (const xs of ratios(drive(scenario('grpc-java@1.75'), answer503))) {
      expect(ksUniform(xs, 0.4, 1.2)).toBeLessThan(1.95 / Math.sqrt(xs.length));
    }
  });
});

describe('gRPC retry throttling in a run: only failures with a retryable status take a token (A6 vector, maxTokens 10, tokenRatio 0.1)', () => {
  // One client (one channel): actions 0-9 get 400 (INVALID_ARGUMENT), 10-19 a 429, 20-29 no
  // answer within the 1 s deadline; none of them is retryable under the policy (UNAVAILABLE
  // only), so none takes a token. From action 30 on every attempt gets a 503.
  const scenario = (preset: string) => `
name: grpc-throttle
horizon: 3m
clients:
  app:
    clients: 1
    arrivals: { kind: constant, rate: 0.5/s }
    layers:
      rpc: { preset: "${preset}", timeout: 1s }
server: { slots: 1, serviceTime: { kind: constant, value: 1ms } }
`;
  const respond = (s: { action: number }) =>
    s.action < 10 ? { after: 0, outcome: OUTCOME_INVALID }
    : s.action < 20 ? { after: 0, outcome: OUTCOME_RATE_LIMITED }
    : s.action < 30 ? { after: 5, outcome: OUTCOME_OK } // the deadline passes first
    : { after: 0, outcome: OUTCOME_DEPENDENCY };

  for (const preset of ['grpc', 'grpc-java@1.70', 'grpc-go', 'grpc-js']) {
    it(`${preset}: 30 non-retryable failures leave 10 tokens: the first 503 action retries 3 times (10 -> 6), the next ones not (6 -> 5 -> 4 ...)`, () => {
      const d = drive(scenario(preset), respond);
      expect(d.byAction.length).toBeGreaterThan(40);
      const attempts = d.byAction.map((a) => a.length);
      expect(attempts.slice(0, 30)).toEqual(Array(30).fill(1));
      expect(attempts.slice(30, 40)).toEqual([4, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    });
  }
});

describe('aws-sdk-js-v3, release by release: 30 requests through one client, every attempt answered 503', () => {
  // The real packages, installed on 2026-12-07 (@aws-sdk/client-sts at each version, a local
  // server answering 503 to everything, 30 requests in a row through one client, counting
  // what reached the server): 3.341.0, 3.350.0, 3.360.0: 4 attempts each, 120; 3.362.0 and
  // 3.600.0: 3 each, 90 (a strategy, and a quota, per request); 3.723.0, 3.1008.0, 3.1009.0,
  // 3.1025.0, 3.1026.0 and 3.1178.0 installed today: 65, 3 each for 17 requests, 2 for the
  // 18th, then 1 (one quota per client: 35 retries at 14 from 500).
  const scenario = (preset: string) => `
name: aws-30
horizon: 5m
clients:
  app:
    clients: 1
    arrivals: { kind: constant, rate: 6/min }
    layers:
      sdk: { preset: "${preset}" }
server: { slots: 1, serviceTime: { kind: constant, value: 1ms } }
`;
  const attempts = (preset: string) => drive(scenario(preset), () => ({ after: 0.0001, outcome: OUTCOME_DEPENDENCY })).byAction.slice(0, 30).map((a) => a.length);
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  it('3.341 to 3.361: 4 attempts each, the quota never in the way (120)', () => {
    expect(attempts('aws-sdk-js-v3@3.350')).toEqual(Array(30).fill(4));
  });
  it('3.362 to 3.722 (and 3.723 to 3.1008 as locked then): 3 each (90): the docs\' 3.600 retries every action', () => {
    expect(attempts('aws-sdk-js-v3@3.600')).toEqual(Array(30).fill(3));
    expect(attempts('aws-sdk-js-v3@3.1008+locked')).toEqual(Array(30).fill(3));
  });
  it('from 3.723, installed today: one quota per client, 17 x 3, 2, then 1 (65), as the real packages', () => {
    const want = [...Array(17).fill(3), 2, ...Array(12).fill(1)];
    expect(attempts('aws-sdk-js-v3@3.723')).toEqual(want);
    expect(attempts('aws-sdk-js-v3@3.1025')).toEqual(want);
    expect(attempts('aws-sdk-js-v3')).toEqual(want);
    expect(total(want)).toBe(65);
  });
  it('3.1009 to 3.1165 as locked then: one quota per client at 10 a retry: 25 x 3, then 1 (80)', () => {
    for (const v of ['3.1010+locked', '3.1026+locked']) expect(total(attempts(`aws-sdk-js-v3@${v}`)), v).toBe(80);
  });
});

describe('Finagle: deposits on success only, and a per-request cap of ceil(0.2 x balance) read when the request starts', () => {
  // One client; the first 10 actions succeed (10 deposits: balance 100 + 2 = 102), then every
  // attempt fails with a connection failure (requeueable). All within the 10 s ttl.
  const scenario = `
name: finagle
horizon: 9s
clients:
  app:
    clients: 1
    arrivals: { kind: constant, rate: 4/s }
    layers:
      finagle: { preset: finagle }
server: { slots: 1, serviceTime: { kind: constant, value: 1ms } }
`;
  it('attempts per failing request follow the balance: 1 + min(ceil(0.2 x floor(B)), floor(B)), B falling by what each request took', () => {
    const d = drive(scenario, (s) => ({ after: 0.0001, outcome: s.action < 10 ? OUTCOME_OK : OUTCOME_RESET }));
    const attempts = d.byAction.map((a) => a.length);
    expect(attempts.slice(0, 10)).toEqual(Array(10).fill(1));
    const failing = attempts.slice(10);
    expect(failing.length).toBeGreaterThan(15);
    // Finagle's rule, written out: failures deposit nothing; each retry withdraws 1 while B >= 1.
    let b = 100 + 0.2 * 10;
    const want = failing.map(() => {
      const retries = Math.min(Math.ceil(0.2 * Math.floor(b)), Math.floor(b));
      b -= retries;
      return 1 + retries;
    });
    expect(failing).toEqual(want);
    expect(failing.slice(0, 4)).toEqual([22, 18, 14, 12]); // 21 retries (ceil 20.4), then from 81: 17, 13, 11
  });

  it('a 503 does not fund the budget: after 100 answers of 503, a request whose connection keeps failing makes 21 attempts, not 25', () => {
    // Finagle's HTTP client classifies a 5xx as a failure (ServerErrorsAsFailures), and the
    // RequeueFilter deposits only for a success: the balance stays at the 100-token reserve,
    // 1 + ceil(0.2 x 100) = 21 attempts. Deposits for the 503s would make it 120: 25.
    const busy = scenario.replace('rate: 4/s', 'rate: 40/s').replace('horizon: 9s', 'horizon: 4s');
    const d = drive(busy, (s) => ({ after: 0.0001, outcome: s.action < 100 ? OUTCOME_DEPENDENCY : OUTCOME_RESET }));
    const attempts = d.byAction.map((a) => a.length);
    expect(attempts.slice(0, 100)).toEqual(Array(100).fill(1));
    expect(attempts[100]).toBe(21);
  });
});
