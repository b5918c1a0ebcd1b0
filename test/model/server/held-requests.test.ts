/**
 * Requests a stage holds (src/model/server/held-requests.ts): what a handle holds reads back
 * as held, past the arrays' first doubling; handles are reused last-freed first; a crash loses
 * what its instance holds, in handle order, answering a reset only to callers still waiting.
 * And a world that holds a few hundred requests at once behind a shared store's round trip,
 * and crashes instances while it does, runs byte for byte as it did when each held request
 * was a tuple (the digest below was recorded with the build of 7e267c0, before the split).
 */
import { describe, it, expect } from 'vitest';
import { HeldRequests } from '../../../src/model/server/held-requests.js';
import { OUTCOME_RESET } from '../../../src/model/outcomes.js';
import type { Attempts } from '../../../src/model/records.js';
import { run } from '../client/harness.js';
import { recordDigest } from '../../helpers/record-digest.js';

/** Attempts whose awaited generation is `awaited[a]`: what `lose` reads of the records. */
function attemptsAwaiting(awaited: Map<number, number>): Attempts {
  return { isAwaited: (a: number, gen: number) => awaited.get(a) === gen } as unknown as Attempts;
}

describe('HeldRequests', () => {
  it('reads back what each handle holds, past the arrays\' first doubling (64 handles)', () => {
    const held = new HeldRequests(attemptsAwaiting(new Map()), () => {});
    const hs = Array.from({ length: 300 }, (_, k) => held.hold(1000 + k, k * 7, k % 2 ? k + 1 : ~429, k % 5, k % 3 === 0, k % 2 ? NaN : k / 4));
    expect(hs).toEqual(Array.from({ length: 300 }, (_, k) => k));
    for (const k of [0, 63, 64, 65, 127, 128, 299]) {
      expect([held.attemptOf(k), held.genOf(k), held.nextOf(k), held.instanceOf(k), held.detectedOf(k)]).toEqual([1000 + k, k * 7, k % 2 ? k + 1 : ~429, k % 5, k % 3 === 0]);
      expect(held.retryAfterOf(k)).toBe(k % 2 ? NaN : k / 4);
    }
  });

  it('reuses the handle freed last first, and a released handle holds nothing (-1)', () => {
    const held = new HeldRequests(attemptsAwaiting(new Map()), () => {});
    for (let k = 0; k < 5; k++) held.hold(k, 0, 1, 0, false, NaN);
    held.release(1);
    held.release(3);
    expect(held.attemptOf(3)).toBe(-1);
    expect(held.hold(50, 0, 1, 0, false, NaN)).toBe(3);
    expect(held.hold(51, 0, 1, 0, false, NaN)).toBe(1);
    expect(held.hold(52, 0, 1, 0, false, NaN)).toBe(5);
  });

  it('a crash loses what its instance holds, in handle order, and resets only the callers still waiting', () => {
    const answers: Array<[number, number, number]> = [];
    // Attempts 10..19 held on instances 0 and 1 alternately; 14's caller gave up (generation moved on).
    const awaited = new Map(Array.from({ length: 10 }, (_, k) => [10 + k, k === 4 ? 99 : 1] as [number, number]));
    const held = new HeldRequests(attemptsAwaiting(awaited), (a, outcome, ra) => answers.push([a, outcome, ra]));
    for (let k = 0; k < 10; k++) held.hold(10 + k, 1, 2, k % 2, false, NaN);
    held.release(6); // attempt 16 resumed already
    expect(held.lose(0, true)).toBe(4); // 10, 12, 14, 18 (14 not answered: its caller left; 16 resumed already)
    expect(answers).toEqual([[10, OUTCOME_RESET, NaN], [12, OUTCOME_RESET, NaN], [18, OUTCOME_RESET, NaN]]);
    expect([0, 2, 4, 6, 8].map((h) => held.attemptOf(h))).toEqual([-1, -1, -1, -1, -1]);
    expect(held.attemptOf(1)).toBe(11); // instance 1's are untouched
    expect(held.lose(0, true)).toBe(0); // nothing is lost twice
    expect(held.lose(1, false)).toBe(5);
    expect(answers.length).toBe(3); // without `reset` nobody is answered
  });
});

it('a world holding hundreds of requests at once through crashes runs as it did before held requests were typed arrays', () => {
  // 600 actions/s, each try held 300 ms for a shared store's round trip (about 180 held at
  // once, so the arrays double twice); instance 0 crashes at 20 s and every instance at 40 s,
  // answering resets, which the clients retry after a jittered backoff: the order of the
  // resets (handle order) decides the random draws that follow.
  const r = run(`
name: held
horizon: 1m
measures: { bucket: 5s }
clients:
  app:
    clients: 3000
    arrivals: { kind: constant, rate: 600/s }
    layers: { app: { maxAttempts: 3, timeout: 5s, backoff: { kind: exponential, base: 200ms, max: 2s, jitter: full }, retryOn: [timeout, reset, 5xx] } }
server:
  instances: 3
  slots: 50
  serviceTime: { kind: constant, value: 10ms }
  stages:
    - { kind: rate-limit, key: client, limit: { algorithm: token-bucket, rate: 1/s, burst: 3 }, store: shared, storeLatency: 300ms }
faults:
  - { kind: crash, at: 20s, duration: 5s, instance: 0, answer: reset }
  - { kind: crash, at: 40s, duration: 5s, answer: reset }
`);
  expect(r.totals.lostAttempts).toBeGreaterThan(200); // nearly all of them held (6 in service at a time, no queue)
  expect(recordDigest(r)).toBe('8a39e8e40312e678636e2c1133a2563b');
});
