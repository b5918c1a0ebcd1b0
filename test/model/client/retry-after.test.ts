/**
 * The Retry-After policy of a layer (retryAfter: ignore | honour | cap | give-up | exact | bounded).
 *
 * The real server sends a Retry-After only when the scenario gives it a policy
 * (server.overload.retryAfter, or a rate limiter's reset time), and the same on every answer
 * of a kind. So the modes are exercised here through the public `Clients.answer` from the
 * scripted server of harness.ts, which answers each attempt with a chosen Retry-After; the
 * first test pins down that without a policy the mode changes nothing.
 */
import { describe, it, expect } from 'vitest';
import { drive, run, offsets, close, type Driven } from './harness.js';
import { OUTCOME_DEPENDENCY, OUTCOME_RATE_LIMITED } from '../../../src/model/outcomes.js';

const yaml = (layers: string) => `
name: retry-after
horizon: 6m
clients:
  app:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: 0.1/s }, { at: 5m, rate: 0/s }] }
    layers:
${layers}
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;
const one = (retryAfter: string, extra = '') =>
  yaml(`      app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none }, retryAfter: ${retryAfter}${extra} }`);

/** Every action answered at once with `outcome` and Retry-After `ra` seconds. */
const answering = (ra: number, outcome = OUTCOME_RATE_LIMITED) => () => ({ after: 0, outcome, retryAfter: ra });

/** The relative send times of every action (all actions get the same timeline). */
function timelines(d: Driven): number[][] {
  expect(d.byAction.length).toBeGreaterThan(15);
  return d.byAction.map(offsets);
}
function expectEvery(d: Driven, want: number[]): void {
  for (const t of timelines(d)) expect(close(t, want, 1e-9), `${t} vs ${want}`).toBe(true);
}

describe('a server without a Retry-After policy', () => {
  it('simulate gives the same run whether a layer honours or ignores Retry-After', () => {
    const scenario = (mode: string) => `
name: ra
horizon: 5m
clients:
  app:
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 4, retryAfter: { mode: ${mode} } }
server: { slots: 10, queue: 50, serviceTime: { kind: constant, value: 10ms } }
faults: [{ kind: dependency-down, at: 60s, duration: 60s }]
`;
    const a = run(scenario('ignore')), b = run(scenario('honour'));
    expect(b.totals).toEqual(a.totals);
    expect(Array.from(b.series.attempts)).toEqual(Array.from(a.series.attempts));
    expect(a.totals.attempts).toBeGreaterThan(a.totals.actionsStarted); // retries did happen
  });
});

describe('retryAfter modes (scripted server answering 429 with Retry-After)', () => {
  it('default and ignore: the backoff alone decides', () => {
    expectEvery(drive(yaml(`      app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none } }`), answering(2)), [0, 0.1, 0.2]);
    expectEvery(drive(one('{ mode: ignore }'), answering(2)), [0, 0.1, 0.2]);
  });

  it('honour: waits max(backoff, Retry-After)', () => {
    expectEvery(drive(one('{ mode: honour }'), answering(2)), [0, 2, 4]);
    expectEvery(drive(one('{ mode: honour }'), answering(0.05)), [0, 0.1, 0.2]);
  });

  it('honour: an answer without Retry-After (NaN) leaves the backoff', () => {
    expectEvery(drive(one('{ mode: honour }'), answering(NaN)), [0, 0.1, 0.2]);
  });

  it('cap: honours Retry-After up to `cap`', () => {
    expectEvery(drive(one('{ mode: cap, cap: 1s }'), answering(2)), [0, 1, 2]);
    expectEvery(drive(one('{ mode: cap, cap: 5s }'), answering(2)), [0, 2, 4]);
  });

  it('give-up: stops retrying when Retry-After is above `max`, honours it otherwise', () => {
    expectEvery(drive(one('{ mode: give-up, max: 1s }'), answering(2)), [0]);
    expectEvery(drive(one('{ mode: give-up, max: 3s }'), answering(2)), [0, 2, 4]);
    expectEvery(drive(one('{ mode: give-up, max: 2s }'), answering(2)), [0, 2, 4]); // not above
  });

  it('applies to 503s with Retry-After too', () => {
    expectEvery(drive(one('{ mode: honour }'), answering(1.5, OUTCOME_DEPENDENCY)), [0, 1.5, 3]);
  });

  it('a long Retry-After that would pass the deadline ends the call', () => {
    expectEvery(drive(one('{ mode: honour }', ', deadline: 5s'), answering(10)), [0]);
    expectEvery(drive(one('{ mode: honour }', ', deadline: 5s'), answering(2)), [0, 2, 4]);
  });

  it('the last failure\'s Retry-After reaches the layer above when the inner layer gives up', () => {
    // inner (ignore): tries at 0 and 0.1, then fails up with Retry-After 2; outer (honour) waits 2 s
    const d = drive(yaml(`      outer: { maxAttempts: 2, backoff: { kind: constant, base: 100ms, jitter: none }, retryAfter: { mode: honour } }
      inner: { maxAttempts: 2, backoff: { kind: constant, base: 100ms, jitter: none } }`), answering(2));
    expectEvery(d, [0, 0.1, 2.1, 2.2]);
  });

  it('an inner give-up passes the failure up, and the outer layer retries on its own backoff', () => {
    const d = drive(yaml(`      outer: { maxAttempts: 2, backoff: { kind: constant, base: 300ms, jitter: none } }
      inner: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none }, retryAfter: { mode: give-up, max: 1s } }`), answering(2));
    expectEvery(d, [0, 0.3]);
  });

  it('exact: waits the Retry-After itself, even below the backoff (got, go-retryablehttp, urllib3, gRPC pushback)', () => {
    expectEvery(drive(one('{ mode: exact }'), answering(2)), [0, 2, 4]);
    expectEvery(drive(one('{ mode: exact }'), answering(0.05)), [0, 0.05, 0.1]);
    expectEvery(drive(one('{ mode: exact }'), answering(NaN)), [0, 0.1, 0.2]); // no header: the backoff
  });

  it('exact with cap waits at most cap (urllib3 >= 2.6.3); with max, a longer Retry-After ends the call (got)', () => {
    expectEvery(drive(one('{ mode: exact, cap: 1s }'), answering(2)), [0, 1, 2]);
    expectEvery(drive(one('{ mode: exact, max: 1s }'), answering(2)), [0]);
    expectEvery(drive(one('{ mode: exact, max: 2s }'), answering(2)), [0, 2, 4]); // not above
  });

  it('bounded: max(backoff, min(Retry-After, backoff + bound)) (AWS SDKs from @smithy/util-retry 4.3.0, bound 5 s)', () => {
    expectEvery(drive(one('{ mode: bounded, bound: 5s }'), answering(2)), [0, 2, 4]);
    expectEvery(drive(one('{ mode: bounded, bound: 5s }'), answering(10)), [0, 5.1, 10.2]);
    expectEvery(drive(one('{ mode: bounded, bound: 5s }'), answering(0.05)), [0, 0.1, 0.2]);
  });

  it('remoteSwitch minWait still applies on top of Retry-After', () => {
    const d = drive(yaml(`      app: { maxAttempts: 3, backoff: { kind: constant, base: 100ms, jitter: none }, retryAfter: { mode: honour } }
    behaviour: { remoteSwitch: { at: 0s, minWait: 3s } }`), answering(2));
    expectEvery(d, [0, 3, 6]);
  });
});
