// Adaptive LIFO with CoDel ("Fail at Scale") and the contention model, on one instance.
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { runOne } from '../../../src/experiment/run-one.js';

/** 10 slots x 100 ms = 100/s of capacity; callers wait 1 s and never retry. */
const world = (rate: string, server: string) => `
name: q
horizon: 5m
measures: { bucket: 5s }
clients:
  users:
    arrivals: { kind: constant, rate: ${rate} }
    retry: { maxAttempts: 1, timeout: 1s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 100ms }
${server}
`;
const run = (yaml: string) => runOne(loadScenario(yaml, 'q.yaml').base, 'base', 0, 1);
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('discipline: adaptive-lifo (CoDel)', () => {
  const fifo = run(world('150/s', '  discipline: fifo'));
  const adaptive = run(world('150/s', '  discipline: adaptive-lifo'));

  it('keeps answering callers in time under sustained overload where FIFO serves only stale work', () => {
    expect(fifo.summary.measures.successRatio!).toBeLessThan(0.1);
    // Capacity is 2/3 of the offered load: the best any discipline can do is about 0.67.
    expect(adaptive.summary.measures.successRatio!).toBeGreaterThan(0.6);
    expect(adaptive.summary.measures.wastedWorkShare).toBeLessThan(0.05);
    expect(fifo.summary.measures.wastedWorkShare).toBeGreaterThan(0.8);
  });

  it('refuses attempts that stood in the queue longer than the target (cause shed), not by timing them out', () => {
    expect(total(adaptive.columns.fail_shed)).toBeGreaterThan(1000);
    expect(total(adaptive.columns.fail_timeout)).toBeLessThan(0.05 * total(adaptive.columns.attempts));
    // Answers come fast: the queue never holds more than a few target-lengths of work.
    const p99 = adaptive.columns.latency_p99_ms.filter((x) => Number.isFinite(x));
    expect(Math.max(...p99.slice(6))).toBeLessThan(250);
  });

  it('is plain FIFO with no standing queue: at half capacity almost nothing is refused', () => {
    const calm = run(world('50/s', '  discipline: adaptive-lifo'));
    // Only a rare Poisson burst keeps the queue up for a whole 100 ms interval.
    expect(total(calm.columns.fail_shed)).toBeLessThan(0.001 * total(calm.columns.attempts));
    expect(calm.summary.measures.successRatio!).toBeGreaterThan(0.999);
  });
});

describe('contention', () => {
  it('makes the same load use more slot time as slots fill (1 + factor * busy/slots)', () => {
    const plain = run(world('50/s', ''));
    const contended = run(world('50/s', '  contention: { factor: 1 }'));
    // Without contention: 50/s x 0.1 s / 10 slots = 0.5.
    expect(plain.summary.measures.utilisation).toBeCloseTo(0.5, 1);
    // With it each service stretches by 1 + busy/10 at its start: utilisation rises well above 0.5.
    expect(contended.summary.measures.utilisation).toBeGreaterThan(0.6);
    expect(contended.summary.measures.utilisation).toBeLessThan(0.95);
  });
});

describe('contention after a call to another service', () => {
  // An edge of 4 slots calls db (300 ms) before its own 2 ms of work; from 10 s to 15 s a
  // capacity cut leaves the edge 0 slots while its jobs wait for db. A job going on after its
  // call read the load as busy / 0 slots: 0/0 ended the run (an event at NaN), n/0 gave it an
  // endless service time, holding its slot for good. It reads a full instance's load instead.
  const edge = (cut: string) => `
name: contention-cut
horizon: 30s
measures: { bucket: 1s }
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: 10/s }
    retry: { maxAttempts: 1, timeout: 5s }
server:
  slots: 4
  serviceTime: { kind: constant, value: 2ms }
  contention: { factor: 1, exponent: 1 }
  routes:
    default:
      services:
        - service: db
          retry: { maxAttempts: 1, timeout: 2s }
services:
  db:
    slots: 4
    serviceTime: { kind: constant, value: 300ms }
faults:
  - { kind: capacity-cut, at: 10s, duration: 5s, slots: ${cut} }
`;

  it.each([['0'], ['1']])('a capacity cut to %s slot(s) while jobs wait for their calls: the edge serves again after it', (cut) => {
    const r = run(edge(cut));
    // 10/s, each served in about 0.3 s: after the cut, 10 answers a second again, as before it.
    expect(total(r.columns.attempts_ok.slice(17, 30))).toBeGreaterThan(125);
    expect(total(r.columns.attempts_ok.slice(2, 10))).toBeGreaterThan(75);
  });
});

describe('adaptive-concurrency stage', () => {
  it('keeps an overloaded instance answering in time by shedding beyond the learned limit (vegas)', () => {
    // Service slows with load (contention): past the knee, more concurrency only adds latency.
    const yaml = world('150/s', `  queue: unbounded
  contention: { factor: 2 }
  stages:
    - { kind: adaptive-concurrency, algorithm: vegas, initialLimit: 10, maxLimit: 200 }`);
    const limited = run(yaml);
    const unlimited = run(world('150/s', '  queue: unbounded\n  contention: { factor: 2 }'));
    expect(unlimited.summary.measures.successRatio!).toBeLessThan(0.1);
    expect(total(limited.columns.fail_shed)).toBeGreaterThan(1000);
    // Ceiling: 10 slots at 0.1 s x (1 + 2 x 10/10) = 33/s of the 150/s offered, about 0.22.
    expect(limited.summary.measures.successRatio!).toBeGreaterThan(0.15);
    expect(limited.summary.measures.successRatio!).toBeGreaterThan(3 * unlimited.summary.measures.successRatio!);
    expect(limited.summary.measures.wastedWorkShare).toBeLessThan(0.2);
  });

  it('feeds every adaptive-concurrency stage of the pipeline, not only the last one added', () => {
    // 50/s of 100 ms jobs need 5 in flight. The first stage starts at a limit of 1 and must
    // learn its way up; the second, roomy, starts at 100. One slot per instance for listeners
    // let only the second learn: the first stayed at 1 and shed about 80% of the requests.
    const r = run(world('50/s', `  stages:
    - { kind: adaptive-concurrency, algorithm: vegas, initialLimit: 1, maxLimit: 200 }
    - { kind: adaptive-concurrency, algorithm: vegas, initialLimit: 100, maxLimit: 200 }`));
    expect(r.summary.measures.successRatio!).toBeGreaterThan(0.95);
  });

  it.each(['vegas', 'gradient2'])('learns nothing from a job that ended the instant it arrived (%s): its calls refused at once, failing fast in 0 s', (algorithm) => {
    // For 10 s every call to service a is reset before it is sent: the job fails at once
    // (failFastTime 0). Such a job has no round-trip time: Vegas once threw on it ("rtt must
    // be >0") and ended the run, and Gradient2 would divide by it.
    const r = run(`
name: zero-rtt
horizon: 1m
measures: { bucket: 5s }
clients:
  u:
    arrivals: { kind: constant, rate: 10/s }
    retry: { maxAttempts: 1, timeout: 1s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 1ms }
  stages:
    - { kind: adaptive-concurrency, algorithm: ${algorithm} }
  routes:
    default:
      services:
        - service: a
services:
  a:
    slots: 10
    serviceTime: { kind: constant, value: 5ms }
faults:
  - { kind: reset, service: a, at: 10s, duration: 10s, probability: 1, when: before }
`);
    // About 600 actions; the 100 of the reset's 10 s fail, every other one succeeds (the limit never drops below the load).
    expect(total(r.columns.first_tries)).toBeGreaterThan(590);
    expect(r.summary.measures.successRatio!).toBeGreaterThan(0.8);
    expect(r.summary.measures.successRatio!).toBeLessThan(0.86);
  });
});

describe('overload contract: status and retryable flag', () => {
  // No queue and 2x overload: half the attempts are refused as queue-full. Clients retry only 5xx.
  const contract = (overload: string) =>
    run(`
name: c
horizon: 2m
measures: { bucket: 5s }
clients:
  users:
    arrivals: { kind: constant, rate: 200/s }
    retry: { maxAttempts: 3, timeout: 1s, retryOn: [5xx], backoff: { kind: constant, base: 100ms } }
server:
  slots: 10
  queue: 0
  serviceTime: { kind: constant, value: 100ms }
  overload: ${overload}
`);

  it('503 refusals are retried by a client that retries 5xx', () => {
    const r = contract('{ status: 503 }');
    expect(r.summary.measures.attemptsPerActionMax).toBe(3);
    expect(r.summary.measures.retryShare).toBeGreaterThan(0.2);
  });

  it('the same refusals answered 429 are not, and neither are 503s marked not retryable', () => {
    expect(contract('{ status: 429 }').summary.measures.attemptsPerActionMax).toBe(1);
    expect(contract('{ retryable: false }').summary.measures.attemptsPerActionMax).toBe(1);
  });
});

describe('dependency capacity', () => {
  it('fails calls beyond the pool at once, and frees the pool as requests finish', () => {
    const yaml = (capacity: number) => `
name: db
horizon: 2m
measures: { bucket: 5s }
clients:
  users:
    arrivals: { kind: constant, rate: 100/s }
    identity: { route: read }
server:
  slots: 50
  serviceTime: { kind: constant, value: 100ms }
  routes: { read: { calls: [db] } }
  dependencies: { db: { capacity: ${capacity} } }
`;
    // 100/s x 0.1 s = 10 calls in flight on average (Poisson): a pool of 40 never runs out…
    expect(run(yaml(40)).summary.measures.successRatio).toBe(1);
    // …a pool of 5 serves at most 5 at a time: 50/s of the 100/s, the rest fail at once.
    const small = run(yaml(5)).summary.measures;
    expect(small.successRatio!).toBeGreaterThan(0.3);
    expect(small.successRatio!).toBeLessThan(0.55);
  });
});

describe('rejectionCost', () => {
  it('counts every refusal by a stage as server work', () => {
    const yaml = (cost: string) => `
name: rc
horizon: 1m
measures: { bucket: 5s }
clients:
  users:
    arrivals: { kind: constant, rate: 100/s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 10ms }
  rejectionCost: ${cost}
  stages:
    - { kind: rate-limit, key: global, limit: { algorithm: token-bucket, rate: 50/s, burst: 1 } }
`;
    const free = run(yaml('0s')).summary.measures;
    const costly = run(yaml('2ms')).summary.measures;
    const refused = free.actionsFailed!;
    expect(refused).toBeGreaterThan(1000);
    // Utilisation rises by exactly refusals x 2 ms over 10 slots x 60 s.
    expect(costly.utilisation! - free.utilisation!).toBeCloseTo((refused * 0.002) / (10 * 60), 6);
  });
});
