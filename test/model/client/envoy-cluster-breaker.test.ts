/**
 * The circuit breaker of an Envoy cluster, read with its route from a real-looking bootstrap
 * (test/scenario/from-config/envoy-bootstrap.yaml), binds in a simulation as Envoy's does:
 * a retry holds one of the cluster's retries from the moment it is decided (through its
 * back-off) until its own outcome is known (retry_state_impl.cc, shouldRetry / resetRetry),
 * and every request through the Envoy counts against the one breaker. The clients run in front
 * of a scripted server that fails every attempt after a fixed time, so the retries outstanding
 * at every instant are computed from the attempts sent, apart from the limiter's own count.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { OUTCOME_DEPENDENCY } from '../../../src/model/outcomes.js';
import { drive, type Driven } from './harness.js';

const BOOTSTRAP = resolve(import.meta.dirname, '../../scenario/from-config/envoy-bootstrap.yaml');
/** Every attempt fails (503) this long after it is sent: off the arrivals' 5 ms grid, so no answer ties with a send. */
const ANSWER = 0.3037;
const HORIZON = 60;

/** 1,000 clients (the default) sending 200 requests a second through the route, for a minute. */
const scenario = (route: string, extra = '') => `
name: envoy-breaker
horizon: ${HORIZON}s
clients:
  app:
    arrivals: { kind: constant, rate: 200/s }
    retry: { from: { envoy: ${BOOTSTRAP}, route: ${route} }${extra} }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;

/** A retry decision: when it was made, whether the retry was granted, and what the breaker saw then. */
interface Decision { t: number; granted: boolean; outstanding: number; active: number }

/**
 * Every retry decision of the run, with the retries outstanding (decided, not yet answered)
 * and the attempts in flight (sent, not yet answered) just before it, computed from the
 * attempts sent. A decision follows each failed attempt but an action's last allowed one.
 */
function decisions(r: Driven, maxAttempts: number): Decision[] {
  // Retry k of an action is held from the answer of attempt k-1 to its own answer.
  const held: Array<[number, number]> = [];
  const inFlight: Array<[number, number]> = [];
  const out: Array<{ t: number; granted: boolean }> = [];
  for (const attempts of r.byAction) {
    attempts.forEach((a, i) => {
      inFlight.push([a.t, a.t + ANSWER]);
      if (i > 0) held.push([attempts[i - 1].t + ANSWER, a.t + ANSWER]);
      // A retry granted in the last second may not have been sent by the end of the run (its back-off): left out.
      if (a.n < maxAttempts && a.t + ANSWER < HORIZON - 1) out.push({ t: a.t + ANSWER, granted: i + 1 < attempts.length });
    });
  }
  // How many intervals hold at t: begun before t, not ended by t (the attempt answered at t no
  // longer counts: the limiter sees it end first). As from < to, that is #(from < t) - #(to <= t).
  const counter = (xs: Array<[number, number]>) => {
    const from = Float64Array.from(xs, (x) => x[0]).sort(), to = Float64Array.from(xs, (x) => x[1]).sort();
    return (t: number) => below(from, t, false) - below(to, t, true);
  };
  const outstanding = counter(held), active = counter(inFlight);
  return out.map((d) => ({ ...d, outstanding: outstanding(d.t), active: active(d.t) }));
}

/** How many of the sorted values are below t (or at most t when `orEqual`). */
function below(sorted: Float64Array, t: number, orEqual: boolean): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t || (orEqual && sorted[mid] === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The most retries outstanding at once over the run. */
function peakOutstanding(r: Driven): number {
  const events: Array<[number, number]> = [];
  for (const attempts of r.byAction) for (let i = 1; i < attempts.length; i++) events.push([attempts[i - 1].t + ANSWER, 1], [attempts[i].t + ANSWER, -1]);
  // Ends before starts at one instant: a retry's answer frees its hold before the next decision.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0, peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return peak;
}

const failing = () => ({ after: ANSWER, outcome: OUTCOME_DEPENDENCY });

describe("an Envoy cluster's retry circuit breaker, read from a bootstrap, in a simulation (seed 1)", () => {
  it('max_retries 5: never more than 5 retries outstanding across all 1,000 clients, and the limit is reached; per client (a sidecar each) it never binds', () => {
    const shared = drive(scenario('checkout'), failing, 1);
    const d = decisions(shared, 3);
    expect(peakOutstanding(shared)).toBe(5);
    // Every decision is Envoy's: granted exactly when fewer than 5 are outstanding.
    expect(d.filter((x) => x.granted !== x.outstanding < 5)).toEqual([]);
    expect(d.filter((x) => !x.granted).length).toBeGreaterThan(0.9 * d.length);
    // The same breaker kept per client, as a sidecar per client would: 1,000 breakers of 5 never bind.
    const perClient = drive(scenario('checkout', ', budget: { scope: client }'), failing, 1);
    expect(peakOutstanding(perClient)).toBeGreaterThan(100);
    expect(decisions(perClient, 3).every((x) => x.granted)).toBe(true);
  });

  it('retry_budget 25%, min_retry_concurrency 10: a retry is granted exactly while outstanding < max(10, floor(25% of the attempts in flight)), and the budget binds above the minimum', () => {
    const r = drive(scenario('catalog'), failing, 1);
    const d = decisions(r, 4);
    const limit = (x: Decision) => Math.max(10, Math.floor(0.25 * x.active));
    expect(d.filter((x) => x.granted !== x.outstanding < limit(x))).toEqual([]);
    const refused = d.filter((x) => !x.granted);
    expect(refused.length).toBeGreaterThan(0.5 * d.length);
    // About 60 first attempts are in flight (200/s x 0.3 s): the budget's share, not the minimum, is what binds.
    expect(Math.min(...refused.map(limit))).toBeGreaterThan(10);
    expect(peakOutstanding(r)).toBeGreaterThan(14);
    expect(peakOutstanding(r)).toBeLessThanOrEqual(Math.max(...d.map(limit)));
  });
});
