/**
 * Server-side retry detection (RetryDetection in src/model/server/stages.ts, story 000): a
 * fingerprint of client + route + idempotency key (or body) remembered for a window, plus
 * the attempt number a client declares in a header.
 *
 * Whole runs: detected retry share against the ground truth with headers, the false
 * positives expected from clients re-sending a body inside the window (worked out by hand
 * from the rates), none with idempotency keys, and the fingerprint table's size. Unit
 * level: the class on hand-made requests.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import { summarize } from '../../../src/measures/summarize.js';
import { FINGERPRINT_ENTRY_BYTES } from '../../../src/measures/detection.js';
import { RetryDetection } from '../../../src/model/server/stages.js';
import { mix } from '../../../src/model/server/hash.js';
import { RequestView, identities } from '../../../src/model/server/request.js';
import { Actions, Attempts, ATTEMPT_HEADER } from '../../../src/model/records.js';
import { Recorder } from '../../../src/model/recorder.js';
import type { Scenario } from '../../../src/scenario/schema.js';

const scenarioOf = (yaml: string): Scenario => loadScenario(yaml, 'detection.yaml').base;
const total = (a: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
};

/**
 * Expected false-positive share when first tries of a key (client, body) arrive as a
 * Poisson stream of rate q per key and none is a retry: a first try at t is flagged when
 * the key was seen in [t - W, t], probability 1 - exp(-q min(t, W)). Averaged over a run
 * of H seconds (the first W seconds have less history):
 *   1 - e^{-qW} - (1/H) [ (1 - e^{-qW}) / q - W e^{-qW} ].
 */
function expectedFalsePositiveShare(q: number, W: number, H: number): number {
  const e = Math.exp(-q * W);
  return 1 - e - ((1 - e) / q - W * e) / H;
}

/** An outage makes the callers retry (exponential backoff, waits well inside the 60s window). */
const withRetries = (behaviour: string, identity: string) => `
name: detection
horizon: 3m
measures: { bucket: 1s }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 4, backoff: { kind: exponential, base: 1s, max: 8s, jitter: full } }
    behaviour: ${behaviour}
    identity: ${identity}
server:
  slots: 100
  serviceTime: { kind: constant, value: 20ms }
  stages:
    - { kind: retry-detection, window: 60s }
faults:
  - { kind: dependency-down, at: 60s, duration: 30s }
`;

/** First tries only (no retries): every detection is a false positive. */
const firstTriesOnly = (clients: number, rate: number, bodies: number, window: string, horizon: string) => `
name: detection
horizon: ${horizon}
measures: { bucket: 1s }
clients:
  app:
    clients: ${clients}
    arrivals: { kind: constant, rate: ${rate}/s }
    retry: { maxAttempts: 1 }
    identity: { distinctBodies: ${bodies} }
server:
  slots: 1000
  serviceTime: { kind: constant, value: 10ms }
  stages:
    - { kind: retry-detection, window: ${window} }
`;

describe('Detected retry share tracks the true share within a few points when clients send attempt headers, and shows the expected false positives when they do not', () => {
  it('attempt headers + idempotency keys: detected share = true share, no false positive', () => {
    const s = summarize(simulate(scenarioOf(withRetries('{ attemptHeader: true }', '{ idempotencyKeys: true }')), 1)).measures;
    // The outage makes retries a real share of the run: the 3,000 actions of its 30 s fail fast
    // 4 times (9,000 retries) among ~18,000 first tries, about a third.
    expect(s.retryShare!).toBeGreaterThan(0.3);
    expect(s.retryShare!).toBeLessThan(0.36);
    expect(Math.abs(s.detectedRetryShare! - s.retryShare!)).toBeLessThan(0.03);
    // Every retry declares attempt > 1 and no two actions share a key: exact.
    expect(s.detectedRetryShare!).toBeCloseTo(s.retryShare!, 12);
    expect(s.detectionFalsePositiveShare!).toBe(0);
  });

  it('attempt headers without idempotency keys: a few body collisions, still within a few points', () => {
    // 10,000 clients at 0.01/s each, 1000 bodies, 60 s: 1 - exp(-0.01 x 60 / 1000) = 0.06% of first tries.
    const s = summarize(simulate(scenarioOf(withRetries('{ attemptHeader: true }', '{ distinctBodies: 1000 }')), 1)).measures;
    expect(Math.abs(s.detectedRetryShare! - s.retryShare!)).toBeLessThan(0.03);
    expect(s.detectedRetryShare!).toBeGreaterThanOrEqual(s.retryShare!); // headers catch every retry
    expect(s.detectionFalsePositiveShare!).toBeLessThan(0.002);
    expect(s.detectedRetryShare! - s.retryShare!).toBeCloseTo(s.detectionFalsePositiveShare!, 12);
  });

  it('no headers, no idempotency keys: false positives at the rate of same-body re-sends inside the window (few clients, few bodies)', () => {
    // 50 clients at 1/s each, 20 bodies: a key (client, body) recurs at q = 0.05/s; window 10 s.
    const H = 300;
    const s = summarize(simulate(scenarioOf(firstTriesOnly(50, 50, 20, '10s', '5m')), 1)).measures;
    const expected = expectedFalsePositiveShare(50 / 50 / 20, 10, H); // 0.3875
    expect(expected).toBeCloseTo(0.3875, 3);
    expect(s.retryShare!).toBe(0);
    expect(s.detectionFalsePositiveShare!).toBe(s.detectedRetryShare!);
    // ~15,000 first tries: the binomial sd is 0.004; 0.015 is ~4 sd.
    expect(Math.abs(s.detectionFalsePositiveShare! - expected)).toBeLessThan(0.015);
  });

  it('no headers, no idempotency keys: the same rate with 20,000 clients (client ids large enough to break a float fingerprint)', () => {
    // 0.02/s per client, 4 bodies, 60 s: q = 0.005/s per key, 1 - exp(-0.3) ≈ 0.26 once warmed up.
    // A fingerprint that rounds (client x ~1e12 + body) to a multiple of 4 merges the 4 bodies: 1 - exp(-1.2) ≈ 0.70.
    const H = 240;
    const s = summarize(simulate(scenarioOf(firstTriesOnly(20000, 400, 4, '60s', '4m')), 1)).measures;
    const expected = expectedFalsePositiveShare(400 / 20000 / 4, 60, H); // 0.2234
    expect(Math.abs(s.detectionFalsePositiveShare! - expected)).toBeLessThan(0.01);
  });

  it('idempotency keys, no headers: no false positive, and the fingerprint of the same action still catches every retry', () => {
    const s = summarize(simulate(scenarioOf(withRetries('{ attemptHeader: false }', '{ idempotencyKeys: true, distinctBodies: 1 }')), 1)).measures;
    expect(s.retryShare!).toBeGreaterThan(0.3);
    expect(s.detectionFalsePositiveShare!).toBe(0);
    // Backoff waits (at most 8 s) are well inside the 60 s window: each retry is recognised.
    expect(s.detectedRetryShare!).toBeCloseTo(s.retryShare!, 12);
  });

  it('without idempotency keys but with a single body, the same world flags nearly every first try of a busy client', () => {
    // Contrast for the test above: distinctBodies 1 and no keys. 10,000 clients at 0.01/s, 60 s:
    // 1 - exp(-0.6) = 45% of first tries (less over the first minute) look like retries.
    const s = summarize(simulate(scenarioOf(withRetries('{ attemptHeader: false }', '{ distinctBodies: 1 }')), 1)).measures;
    const firstShare = 1 - s.retryShare!;
    const fpOfFirstTries = s.detectionFalsePositiveShare! / firstShare;
    expect(fpOfFirstTries).toBeGreaterThan(0.3);
    expect(fpOfFirstTries).toBeLessThan(0.45);
  });

  it('fingerprintTableBytes = 64 x the most distinct fingerprints seen within one window', () => {
    // Idempotency keys, no retries: every attempt is its own fingerprint, so the table at an
    // arrival at t holds the attempts of [t - 60s, t]. With 1-s buckets that count lies between
    // the largest sum of 60 consecutive buckets and of 61.
    const r = simulate(scenarioOf(`
name: detection
horizon: 4m
measures: { bucket: 1s }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 100/s }
    identity: { idempotencyKeys: true }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  stages:
    - { kind: retry-detection, window: 60s }
`), 1);
    const s = summarize(r).measures;
    const a = r.series.attempts;
    const maxSpan = (k: number) => {
      let best = 0;
      for (let i = 0; i + k <= a.length; i++) best = Math.max(best, total(a.subarray(i, i + k)));
      return best;
    };
    const entries = s.fingerprintTableBytes! / FINGERPRINT_ENTRY_BYTES;
    expect(FINGERPRINT_ENTRY_BYTES).toBe(64);
    expect(entries).toBeGreaterThanOrEqual(maxSpan(60));
    expect(entries).toBeLessThanOrEqual(maxSpan(61));
    // About rate x window = 6,000 entries: 384 kB.
    expect(entries).toBeGreaterThan(6000);
    expect(entries).toBeLessThan(6000 * 1.06);
  });

  it('fingerprintTableBytes with body fingerprints: about 64 x the keys (client, body) seen in a window', () => {
    // 50 clients x 20 bodies = 1000 keys, each seen at q = 0.05/s: 1000 x (1 - e^{-0.5}) = 393 in a 10 s window on average.
    const s = summarize(simulate(scenarioOf(firstTriesOnly(50, 50, 20, '10s', '5m')), 1)).measures;
    const entries = s.fingerprintTableBytes! / 64;
    const mean = 1000 * (1 - Math.exp(-0.5));
    expect(entries).toBeGreaterThan(mean);
    expect(entries).toBeLessThan(mean + 6 * Math.sqrt(1000 * 0.393 * 0.607)); // the peak of ~300 windows
    expect(entries).toBeLessThanOrEqual(1000);
  });
});

describe('RetryDetection (unit)', () => {
  const pops = (yaml: string) => Object.entries(scenarioOf(yaml).clients);
  const popYaml = (identity: string, clients = 10) => `
name: unit
horizon: 1m
clients:
  app:
    clients: ${clients}
    arrivals: { kind: constant, rate: 1/s }
    identity: ${identity}
server:
  slots: 1
  serviceTime: { kind: constant, value: 10ms }
`;

  function setup(identity: string, opts: { window?: number; useHeader?: boolean; clients?: number } = {}) {
    const ids = identities(pops(popYaml(identity, opts.clients)));
    const actions = new Actions();
    const attempts = new Attempts();
    const rec = new Recorder({ horizonS: 100, bucketS: 1 });
    const det = new RetryDetection(opts.window ?? 10, opts.useHeader ?? true, ids, actions, rec);
    const req = new RequestView(ids, attempts, actions);
    /** A request of `act` with attempt number n at time t; true when detected. */
    const send = (act: number, n: number, t: number, header = false): boolean => {
      const a = attempts.create(act, t, header ? ATTEMPT_HEADER : 0, n);
      det.check(req.fill(a), t);
      const detected = req.detectedRetry;
      attempts.release(a);
      return detected;
    };
    const detections = () => ({ detected: total(rec.series.detectedRetries), falsePositives: total(rec.series.detectionFalsePositives) });
    return { det, actions, send, detections };
  }

  it('a retry of the same action inside the window is detected, and is no false positive', () => {
    const { actions, send, detections } = setup('{ distinctBodies: 1000 }');
    const act = actions.create(0, 3, 0, 0);
    expect(send(act, 1, 0)).toBe(false);
    expect(send(act, 2, 4)).toBe(true);
    expect(send(act, 3, 14)).toBe(true); // 10 s after the last sighting: the window is inclusive
    expect(send(act, 4, 24.001)).toBe(false); // just over 10 s: forgotten
    expect(detections()).toEqual({ detected: 2, falsePositives: 0 });
  });

  it('two actions with the same body from the same client are a false positive; another client is not', () => {
    const { actions, send, detections } = setup('{ distinctBodies: 1 }');
    const a1 = actions.create(0, 3, 0, 0);
    const a2 = actions.create(0, 3, 1, 0);
    const other = actions.create(0, 4, 1, 0);
    expect(send(a1, 1, 0)).toBe(false);
    expect(send(other, 1, 1)).toBe(false);
    expect(send(a2, 1, 2)).toBe(true);
    expect(detections()).toEqual({ detected: 1, falsePositives: 1 });
  });

  it('with idempotency keys two actions of one client never collide, and the retry is still caught', () => {
    const { actions, send, detections } = setup('{ distinctBodies: 1, idempotencyKeys: true }');
    const a1 = actions.create(0, 3, 0, 0);
    const a2 = actions.create(0, 3, 1, 0);
    expect(send(a1, 1, 0)).toBe(false);
    expect(send(a2, 1, 1)).toBe(false);
    expect(send(a1, 2, 2)).toBe(true);
    expect(detections()).toEqual({ detected: 1, falsePositives: 0 });
  });

  it('a declared attempt number above 1 is trusted only with useHeader', () => {
    const on = setup('{ idempotencyKeys: true }', { useHeader: true });
    const off = setup('{ idempotencyKeys: true }', { useHeader: false });
    for (const { actions, send } of [on, off]) {
      const act = actions.create(0, 0, 0, 0);
      // First sighting of this fingerprint (a retry after the window, say): only the header tells.
      send(act, 2, 0, true);
    }
    expect(on.detections().detected).toBe(1);
    expect(off.detections().detected).toBe(0);
    // A header saying 1 is a first try either way.
    const act = on.actions.create(0, 1, 0, 0);
    expect(on.send(act, 1, 1, true)).toBe(false);
  });

  it('the table keeps only the window: peakEntries counts the distinct fingerprints of the last W seconds', () => {
    const { det, actions, send } = setup('{ idempotencyKeys: true }', { window: 10 });
    // 5 actions at t = 0..4, then 5 more at t = 20..24: never more than 5 in any 10 s.
    for (let i = 0; i < 5; i++) send(actions.create(0, i, i, 0), 1, i);
    expect(det.peakEntries).toBe(5);
    for (let i = 0; i < 5; i++) send(actions.create(0, i, 20 + i, 0), 1, 20 + i);
    expect(det.peakEntries).toBe(5);
    // A retry refreshes its key rather than adding one.
    const act = actions.create(0, 9, 25, 0);
    send(act, 1, 25);
    send(act, 2, 26);
    expect(det.peakEntries).toBe(6);
  });

  it('a body fingerprint distinguishes every body of a client with a large id (no float rounding)', () => {
    // 200,000 clients, 1000 bodies: client 199,999's actions collide only when their bodies are
    // equal (body = mix(action x 65599 + gen) mod 1000, as the server hashes a request body).
    const { actions, send, detections } = setup('{ distinctBodies: 1000 }', { window: 1000, clients: 200000 });
    const bodies = new Set<number>();
    let expectedCollisions = 0;
    for (let i = 0; i < 300; i++) {
      const act = actions.create(0, 199999, i, 0);
      const body = mix(act * 65599 + actions.gen[act]) % 1000;
      if (bodies.has(body)) expectedCollisions++;
      bodies.add(body);
      send(act, 1, i * 0.01);
    }
    expect(expectedCollisions).toBeGreaterThan(0); // birthday: ~40 of 300 draws from 1000
    expect(expectedCollisions).toBeLessThan(80);
    expect(detections()).toEqual({ detected: expectedCollisions, falsePositives: expectedCollisions });
  });
});
