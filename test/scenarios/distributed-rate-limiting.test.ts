// The shipped story 001 scenario: a per-key limit of 100/min in front of 4 instances. The
// partner is the scenario's only population and does not retry, so its OK answers per
// minute (1-s buckets summed) are exactly what the limiter let through.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';

const loaded = loadScenarioFile('scenarios/distributed-rate-limiting.yaml');
const run = (name: string): RunResult => {
  const v = loaded.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return runOne(v.scenario, name, 0, 1);
};

const LIMIT = 100; // per minute
const INSTANCES = 4;

const sum = (a: number[], from = 0, to = a.length) => a.slice(from, to).reduce((x, y) => x + y, 0);
/** OK answers in minute m (1-s buckets [60m, 60m + 60)). */
const okInMinute = (r: RunResult, m: number) => sum(r.columns.attempts_ok, 60 * m, 60 * m + 60);
const attemptsInMinute = (r: RunResult, m: number) => sum(r.columns.attempts, 60 * m, 60 * m + 60);
/** The most OK answers in any `span` consecutive 1-s buckets. */
function maxOkInSpan(r: RunResult, span: number): number {
  const ok = r.columns.attempts_ok;
  let best = 0;
  for (let i = 0; i + span <= ok.length; i++) best = Math.max(best, sum(ok, i, i + span));
  return best;
}

describe('scenarios/distributed-rate-limiting.yaml', () => {
  it('has one bucket per second and the partner as its only population', () => {
    for (const v of loaded.variants) {
      expect(v.scenario.measures.bucket).toBe(1);
      expect(Object.keys(v.scenario.clients)).toEqual(['partner']);
    }
  });

  it('per-instance limits behind 4 round-robin instances let the heavy client through at 4x its limit; a shared store holds it to the limit', () => {
    const local = run('per-instance');
    const shared = run('shared');
    for (let m = 0; m < 4; m++) {
      // ~600 sent a minute: each instance sees ~150 and lets its own 100 through.
      expect(attemptsInMinute(local, m)).toBeGreaterThan(500);
      expect(okInMinute(local, m)).toBe(INSTANCES * LIMIT);
      expect(okInMinute(shared, m)).toBe(LIMIT);
    }
    // Everything not let through is a 429 (no other failure: the server has room).
    for (const r of [local, shared]) {
      expect(r.summary.measures.attempts).toBe(sum(r.columns.attempts_ok) + sum(r.columns.fail_rate_limited));
    }
  });

  it('a fixed window lets twice the limit through across a window boundary; the sliding log and sliding window counter do not', () => {
    const fixed = run('boundary-fixed-window');
    const log = run('boundary-sliding-log');
    const counter = run('boundary-sliding-window-counter');
    // The burst: 20/s during [50s, 70s), ~400 requests, the same in all three.
    expect(fixed.summary.measures.attempts).toBe(log.summary.measures.attempts);
    expect(fixed.summary.measures.attempts).toBeGreaterThan(350);
    // Fixed window: 100 before the boundary at 60s and 100 after, all within 20 seconds.
    expect(maxOkInSpan(fixed, 60)).toBe(2 * LIMIT);
    expect(maxOkInSpan(fixed, 20)).toBe(2 * LIMIT);
    expect(sum(fixed.columns.attempts_ok, 50, 60)).toBe(LIMIT);
    expect(sum(fixed.columns.attempts_ok, 60, 70)).toBe(LIMIT);
    // Sliding log: exact, never more than the limit in any 60 seconds.
    expect(maxOkInSpan(log, 60)).toBe(LIMIT);
    expect(sum(log.columns.attempts_ok, 60, 70)).toBe(0);
    // Sliding window counter: the 100 of the first window still weigh 100 x (1 - p) after the
    // boundary, so only ~100 x 10/60 more pass by 70s: at most 117 in a 60-second span.
    expect(maxOkInSpan(counter, 60)).toBeGreaterThan(LIMIT);
    expect(maxOkInSpan(counter, 60)).toBeLessThanOrEqual(LIMIT + Math.ceil(LIMIT / 6));
  });

  it('a shared-store outage: fail-open lets everything through, fail-closed refuses everything, the local fallback lets N x limit through', () => {
    const open = run('outage-open');
    const closed = run('outage-closed');
    const local = run('outage-local');
    const OUTAGE_MINUTE = 2; // [2m, 3m)
    for (const r of [open, closed, local]) {
      // Before and after the outage the shared store holds the partner to the limit.
      for (const m of [0, 1, 3]) expect(okInMinute(r, m)).toBe(LIMIT);
      expect(attemptsInMinute(r, OUTAGE_MINUTE)).toBeGreaterThan(500);
    }
    const sent = attemptsInMinute(open, OUTAGE_MINUTE);
    // Open: all of the ~600 through, 6x the limit.
    expect(okInMinute(open, OUTAGE_MINUTE)).toBe(sent);
    expect(sum(open.columns.fail_rate_limited, 120, 180)).toBe(0);
    // Closed: none through, every request a 429.
    expect(okInMinute(closed, OUTAGE_MINUTE)).toBe(0);
    expect(sum(closed.columns.fail_rate_limited, 120, 180)).toBe(attemptsInMinute(closed, OUTAGE_MINUTE));
    // Local: each instance counts its quarter on its own again: 4 x 100.
    expect(okInMinute(local, OUTAGE_MINUTE)).toBe(INSTANCES * LIMIT);
  });
});
