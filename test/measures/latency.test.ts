/**
 * The latency measures (src/measures/latency.ts) on tiny scenarios whose answers are known:
 * an action's latency runs from its start to its final outcome, so the backoff it waited is in
 * it, whether the retry then succeeds or the action fails; an attempt's is its own send to
 * answer; a run in which no action ended reads null.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/summarize.js';
import { LATENCY_PRECISION } from '../../src/model/latency-histogram.js';
import { makeRecord } from './record-builder.js';

/**
 * Two populations through a dependency outage of one second at 5 s. `retrying` retries a
 * 503 once after a constant 3 s (no jitter): its actions that arrived during the outage
 * failed at once and succeeded 3 s later. `direct` does not retry. Service takes 10 ms, with
 * slots to spare, so nothing queues.
 */
const OUTAGE = `
name: backoff-in-latency
horizon: 20s
seed: 4
clients:
  retrying:
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 2, timeout: 2s, retryOn: [5xx], backoff: { kind: constant, base: 3s, jitter: none } }
  direct:
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 1, timeout: 2s }
server:
  slots: 50
  serviceTime: { kind: exponential, mean: 10ms }
faults:
  - { kind: dependency-down, at: 5s, duration: 1s }
`;

/**
 * Every action is invalid (a 400 at once), and the layer retries 4xx ignoring the flag: each
 * action fails after 3 attempts and two constant 2 s waits, so every ended action waited
 * exactly 4 s, and every attempt was answered at once.
 */
const LOOP = `
name: failures-wait-too
horizon: 30s
seed: 2
clients:
  app:
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 3, timeout: 1s, retryOn: [4xx], retryable: ignore, backoff: { kind: constant, base: 2s, jitter: none } }
    behaviour: { invalidShare: 1 }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 10ms }
`;

describe('action latency includes what the user waited between attempts', () => {
  const record = simulate(loadScenario(OUTAGE, 'outage.yaml').base, 4);
  const summary = summarize(record);
  const pop = (name: string) => summary.populations.find((p) => p.name === name)!.measures;

  it('a retried action lasts at least its backoff: the retrying users\' sum of latencies holds 3 s per retried action', () => {
    const [retrying, direct] = record.latency;
    const hist = record.attemptsPerActionByPopulation[0];
    const retried = hist[2] ?? 0;
    expect(retried).toBeGreaterThan(30); // about 50 actions arrived during the outage
    expect(hist.slice(3).every((c) => c === 0)).toBe(true);
    // Every action that took two attempts waited the 3 s backoff: the exact sum holds at least that.
    const m = pop('retrying');
    expect(m.actionLatencyMeanS! * retrying.actions.count).toBeGreaterThanOrEqual(3 * retried);
    // ... and not much more: each also took its two attempts' service (about 10 ms each).
    expect(m.actionLatencyMeanS! * retrying.actions.count).toBeLessThan(3 * retried + 0.05 * retrying.actions.count);
    // About 5% of the actions were retried: the p99 is one of them (3 s and up), the median is not.
    expect(retried / retrying.actions.count).toBeGreaterThan(0.02);
    expect(m.actionLatencyP99S!).toBeGreaterThanOrEqual(3);
    expect(m.actionLatencyP50S!).toBeLessThan(0.1);
    // The attempts themselves were quick: the wait was between them, not in them.
    expect(m.attemptLatencyP99S!).toBeLessThan(0.1);
    // The users who did not retry failed at once during the outage and never waited 3 s.
    expect(direct.actions.max).toBeLessThan(1);
    expect(pop('direct').actionLatencyP99S!).toBeLessThan(0.1);
  });

  it("pools the verdict's users' populations for the headline values", () => {
    const both = [...record.latency[0].actions.toJSON().bins, ...record.latency[1].actions.toJSON().bins];
    expect(both.length).toBeGreaterThan(0);
    const n = record.latency[0].actions.count + record.latency[1].actions.count;
    const sum = record.latency[0].actions.sumUs + record.latency[1].actions.sumUs;
    expect(summary.measures.actionLatencyMeanS).toBeCloseTo(sum / n / 1e6, 12);
    // Half the users retried, so about 2.5% of all actions waited 3 s: between p95 and p99.
    expect(summary.measures.actionLatencyP99S!).toBeGreaterThanOrEqual(3);
    expect(summary.measures.actionLatencyP95S!).toBeLessThan(0.1);
  });

  it('counts a failure\'s wait too: actions that fail after two 2 s waits read 4 s, their attempts 0', () => {
    const m = summarize(simulate(loadScenario(LOOP, 'loop.yaml').base, 2)).measures;
    expect(m.successRatio).toBe(0);
    for (const key of ['actionLatencyP50S', 'actionLatencyP95S', 'actionLatencyP99S', 'actionLatencyMeanS'] as const) {
      expect(m[key], key).not.toBeNull();
      expect(Math.abs(m[key]! - 4), key).toBeLessThanOrEqual(4 * LATENCY_PRECISION);
      expect(m[key]!, key).toBeGreaterThanOrEqual(4 - 1e-6); // never less than the backoff waited
    }
    for (const key of ['attemptLatencyP50S', 'attemptLatencyP99S', 'attemptLatencyMeanS'] as const) expect(m[key], key).toBe(0);
  });
});

describe('a run without an ended action or an answered attempt', () => {
  it('reads null for every latency measure, for the users and per population', () => {
    const s = summarize(makeRecord(60, [], 10, [{ name: 'a' }, { name: 'b' }]));
    const keys = ['actionLatencyP50S', 'actionLatencyP95S', 'actionLatencyP99S', 'actionLatencyMeanS', 'attemptLatencyP50S', 'attemptLatencyP95S', 'attemptLatencyP99S', 'attemptLatencyMeanS'];
    for (const k of keys) {
      expect(s.measures[k], k).toBeNull();
      for (const p of s.populations) expect(p.measures[k], `${p.name} ${k}`).toBeNull();
    }
  });
});
