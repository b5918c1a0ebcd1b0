/**
 * Admission control with a reserve for original requests (Admission in
 * src/model/server/stages.ts, story 000): capacity 200 in flight, the last 30% of it only
 * for requests the retry detection did not mark as retries.
 *
 * The whole-run test needs the first tries' success apart from the retries', which the
 * per-bucket columns do not give (attempts_ok mixes both; there is no first-try OK column).
 * So the world has two routes: fresh users (route "browse", one attempt per action: an
 * action's outcome is its first try's) and a retry storm (route "sync"), and the per-route
 * action series of the RunRecord tell them apart.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import { scopeMeasures } from '../../helpers/summary.js';
import { summarize } from '../../../src/measures/summarize.js';
import { FAILURE_CAUSES, type RunRecord } from '../../../src/model/series.js';
import { Admission, PASS } from '../../../src/model/server/stages.js';
import { OUTCOME_SHED } from '../../../src/model/outcomes.js';
import type { Instance } from '../../../src/model/server/instance.js';
import type { RequestView } from '../../../src/model/server/request.js';

const FLUSH_S = 120;
const SHED = FAILURE_CAUSES.indexOf('shed');

/**
 * 300/s fresh users; 15,000 sync actions queued offline during [60s, 120s) and flushed at
 * once at 120s. The flush is refused (503, shed) above capacity and retried within 1 s
 * (full jitter), again and again: a retry wave of 20,000+/s for 5-12 s. The server has 200
 * slots of 100 ms (2,000/s) and admits 200 in flight.
 */
const world = (reserve: number, between = '') => `
name: admission
horizon: 3m
measures: { bucket: 1s }
clients:
  users:
    description: Fresh users, no retries.
    clients: 100000
    arrivals: { kind: constant, rate: 300/s }
    retry: { maxAttempts: 1 }
    behaviour: { attemptHeader: true }
    identity: { route: browse, idempotencyKeys: true }
  sync:
    description: Devices flushing an offline queue, retrying every refusal within 1 s.
    clients: 50000
    arrivals: { kind: steps, steps: [{ at: 60s, rate: 250/s }, { at: ${FLUSH_S}s, rate: 0/s }] }
    retry: { maxAttempts: 200, backoff: { kind: constant, base: 1s, jitter: full } }
    behaviour: { attemptHeader: true, offline: { from: 60s, to: ${FLUSH_S}s, flush: at-once } }
    identity: { route: sync, idempotencyKeys: true }
server:
  slots: 200
  queue: 0
  serviceTime: { kind: constant, value: 100ms }
  stages:
    - { kind: retry-detection }
${between}
    - { kind: admission, capacity: 200, reserveForOriginals: ${reserve} }
`;

const run = (reserve: number, between = '') => simulate(loadScenario(world(reserve, between), 'admission.yaml').base, 1);

/** The users' route: actions ok and failed in buckets [from, to). */
function users(r: RunRecord, from: number, to: number): { ok: number; failed: number; ratio: number } {
  const i = r.routes.indexOf('browse');
  let ok = 0, failed = 0;
  for (let b = from; b < to; b++) {
    ok += r.series.routeActionsOk[i][b];
    failed += r.series.routeActionsFailed[i][b];
  }
  return { ok, failed, ratio: ok / (ok + failed) };
}

/** Buckets after the flush bucket while retries run above 1,000/s: the retry wave. */
function wave(r: RunRecord): [number, number] {
  let end = FLUSH_S + 1;
  while (r.series.retries[end] > 1000) end++;
  return [FLUSH_S + 1, end];
}

const sum = (a: ArrayLike<number>, from: number, to: number) => {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i];
  return s;
};

describe('Admission with the retry reserve keeps original requests succeeding while a retry wave is refused', () => {
  const reserved = run(0.3);
  const open = run(0);

  it('the wave: tens of thousands of retries a second for several seconds, in both runs', () => {
    for (const r of [reserved, open]) {
      const [from, to] = wave(r);
      expect(to - from).toBeGreaterThanOrEqual(5);
      expect(r.series.retries[from]).toBeGreaterThan(20_000);
      // After the flush bucket the sync devices send only retries: first tries are the users'.
      expect(sum(r.series.firstTries, from, to) / (to - from)).toBeGreaterThan(250);
      expect(sum(r.series.firstTries, from, to) / (to - from)).toBeLessThan(350);
    }
  });

  it('reserveForOriginals 0.3: first tries keep succeeding during the wave; the refusals are retries', () => {
    const [from, to] = wave(reserved);
    expect(to - from).toBeGreaterThanOrEqual(10); // retries get 140 of the 200: the wave lasts longer
    const u = users(reserved, from, to);
    expect(u.ok).toBeGreaterThan(250 * (to - from));
    expect(u.ratio).toBeGreaterThanOrEqual(0.99);
    // Every shed in the wave is a sync retry: shed minus the users' failures (their only failure is shed).
    const shed = sum(reserved.series.failures[SHED], from, to);
    expect(shed).toBeGreaterThan(50_000);
    expect((shed - u.failed) / shed).toBeGreaterThanOrEqual(0.99);
    // Retries still get through at (200 x 0.7 - the users' ~30 in flight) / 0.1 s ≈ 1,100/s.
    const okPerS = (sum(reserved.series.attemptsOk, from, to) - u.ok) / (to - from);
    expect(okPerS).toBeGreaterThan(1000);
    expect(okPerS).toBeLessThan(1200);
  });

  it('reserveForOriginals 0: the retries take every slot and the originals suffer', () => {
    const [from, to] = wave(open);
    const u = users(open, from, to);
    expect(u.ratio).toBeLessThan(0.5);
    // Same window in the reserved run: untouched.
    expect(users(reserved, from, to).ratio).toBeGreaterThanOrEqual(0.99);
    // Over the whole run the users lose a few percent of their actions without the reserve, none with it.
    const whole = (r: RunRecord) => scopeMeasures(summarize(r).routes, 'browse').successRatio!;
    expect(whole(reserved)).toBeGreaterThan(0.999);
    expect(whole(open)).toBeLessThan(0.98);
    // The sync backlog drains either way (faster without the reserve): every sync action ends ok.
    expect(scopeMeasures(summarize(reserved).routes, 'sync').successRatio).toBe(1);
    expect(scopeMeasures(summarize(open).routes, 'sync').successRatio).toBe(1);
  });

  it('a stage that delays requests (a shared store 1 ms away) does not make admission forget which are retries', () => {
    // Regression: the delayed request was re-read from scratch and lost the detection's mark,
    // so admission let every detected retry use the reserve.
    const limit = '    - { kind: rate-limit, key: global, limit: { algorithm: token-bucket, rate: 1000000/s, burst: 1000000 }, store: shared, storeLatency: 1ms }';
    const r = run(0.3, limit);
    const [from, to] = wave(r);
    expect(users(r, from, to).ratio).toBeGreaterThanOrEqual(0.99);
    expect(scopeMeasures(summarize(r).routes, 'browse').successRatio!).toBeGreaterThan(0.999);
  });
});

describe('Admission (unit)', () => {
  /** An admission stage in front of one instance whose in-flight count the test sets. */
  function setup(capacity: number, reserve: number) {
    const instance = { outstanding: 0 };
    const stage = new Admission(capacity, reserve, [instance as unknown as Instance]);
    const check = (inFlight: number, retry: boolean) => {
      instance.outstanding = inFlight;
      return stage.check({ instance: 0, detectedRetry: retry } as RequestView);
    };
    /** The smallest in-flight count at which a request is refused. */
    const refusedFrom = (retry: boolean) => {
      for (let n = 0; n <= capacity; n++) if (check(n, retry) !== PASS) return n;
      return Infinity;
    };
    return { check, refusedFrom };
  }

  it('story 000: capacity 200, the last 30% for originals: retries refused from 140 in flight, originals from 200', () => {
    const { check, refusedFrom } = setup(200, 0.3);
    expect(refusedFrom(true)).toBe(140);
    expect(refusedFrom(false)).toBe(200);
    expect(check(139, true)).toBe(PASS);
    expect(check(140, true)).toBe(-OUTCOME_SHED);
    expect(check(199, false)).toBe(PASS);
    expect(check(200, false)).toBe(-OUTCOME_SHED);
    expect(check(1000, false)).toBe(-OUTCOME_SHED);
  });

  it('without a reserve, retries and originals share the whole capacity', () => {
    const { refusedFrom } = setup(200, 0);
    expect(refusedFrom(true)).toBe(200);
    expect(refusedFrom(false)).toBe(200);
  });

  it('a reserve of 1 refuses every detected retry; originals are unaffected', () => {
    const { check, refusedFrom } = setup(50, 1);
    expect(check(0, true)).toBe(-OUTCOME_SHED);
    expect(refusedFrom(false)).toBe(50);
  });

  it('the retry limit is whole requests, rounded up, without float error', () => {
    // 100 x (1 - 0.7) is 30.000000000000004 in floats: the 30% left to retries is 30 in flight, not 31.
    expect(setup(100, 0.7).refusedFrom(true)).toBe(30);
    expect(setup(1000, 0.7).refusedFrom(true)).toBe(300);
    expect(setup(200, 0.8).refusedFrom(true)).toBe(40);
    // A fractional share rounds up: 15 x 0.7 = 10.5, so 10 in flight still admits a retry.
    expect(setup(15, 0.3).refusedFrom(true)).toBe(11);
  });

  it('looks at the instance the request was routed to', () => {
    const a = { outstanding: 0 }, b = { outstanding: 10 };
    const stage = new Admission(10, 0, [a, b] as unknown as Instance[]);
    expect(stage.check({ instance: 0, detectedRetry: false } as RequestView)).toBe(PASS);
    expect(stage.check({ instance: 1, detectedRetry: false } as RequestView)).toBe(-OUTCOME_SHED);
  });
});
