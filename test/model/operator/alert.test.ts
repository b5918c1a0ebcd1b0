/**
 * An alert-triggered action (src/model/operator/operator.ts): "when success < 50% for 2 min,
 * after 10 min, block population legacy". A 1-minute outage at 2m leaves a storm that the
 * old version's loop (50 tries, 2 s apart, no ceiling) keeps going on its own; the alert's
 * condition holds from the outage on, the block lands 10 minutes after it has held for 2,
 * and the current app recovers once the old version is kept out.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from '../client/harness.js';
import type { RunRecord } from '../../../src/model/series.js';

export const STORM = (actions: string, extra = '') => `
name: alert
horizon: 20m
measures: { bucket: 10s }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 6/s }
    identity: { route: app }
    retry: { maxAttempts: 3, timeout: 2s, backoff: { kind: none } }
  legacy:
    clients: 5000
    arrivals: { kind: constant, rate: 4/s }
    identity: { route: legacy }
    retry: { maxAttempts: 50, timeout: 2s, backoff: { kind: constant, base: 2s }, retryOn: [timeout, 5xx] }
server:
  slots: 2
  queue: 200
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 2m, duration: 1m }
${extra}
actions:
${actions}
`;

const ALERT = `  - name: block-legacy
    when: { signal: success, below: 0.5, for: 2m, after: 10m }
    do: { kind: block, population: legacy }`;

/** Success ratio of a route's actions that ended in [fromS, toS) (10 s buckets). */
function routeSuccess(r: RunRecord, route: string, fromS: number, toS: number): number {
  const i = r.routes.indexOf(route);
  const ok = sum(r.series.routeActionsOk[i], fromS / 10, toS / 10);
  return ok / (ok + sum(r.series.routeActionsFailed[i], fromS / 10, toS / 10));
}

/**
 * When the condition first held, read independently from the record: checks every 10 s
 * coincide with the 10 s buckets, so the check at the end of bucket b saw that bucket's
 * success ratio; 2 minutes is 12 checks in a row.
 */
function firstHeld(r: RunRecord, below: number, checks: number): number {
  let streak = 0;
  for (let b = 0; b < r.series.n; b++) {
    const ok = r.series.actionsOk[b], ended = ok + r.series.actionsFailed[b];
    streak = ended > 0 && ok / ended < below ? streak + 1 : 0;
    if (streak === checks) return (b + 1) * 10;
  }
  return NaN;
}

describe('an alert-triggered action', () => {
  const r = run(STORM(ALERT));

  it('fires once, 10 minutes after success has stayed below 50% for 2 minutes: at 14m00s', () => {
    expect(r.actions).toHaveLength(1);
    const [fired] = r.actions;
    expect(fired).toMatchObject({ name: 'block-legacy', kind: 'block' });
    // The outage starts at 2m; every check from 2m10s on sees no action succeed, the 12th at 4m.
    const held = firstHeld(r, 0.5, 12);
    expect(held).toBe(240);
    expect(fired.trigger).toEqual({ kind: 'signal', signal: 'success', below: 0.5, forS: 120, everyS: 10, afterS: 600, heldAtS: held, value: expect.any(Number) });
    expect(fired.atS).toBe(840);
    expect((fired.trigger as { value: number }).value).toBeLessThan(0.5);
  });

  it('is deterministic: the same seed gives the same actions and series', () => {
    const again = run(STORM(ALERT));
    expect(again.actions).toEqual(r.actions);
    expect(Array.from(again.series.attempts)).toEqual(Array.from(r.series.attempts));
  });

  it('without it the storm outlives the outage to the horizon; with it the current app recovers', () => {
    const none = run(STORM('  []'));
    expect(none.actions).toEqual([]);
    // Same world up to the block: the storm is the model's own, not the action's.
    expect(Array.from(none.series.attempts.slice(0, 84))).toEqual(Array.from(r.series.attempts.slice(0, 84)));
    expect(routeSuccess(none, 'app', 600, 1200)).toBeLessThan(0.05);
    expect(routeSuccess(r, 'app', 600, 840)).toBeLessThan(0.05);
    // The block drains the queue within a minute; from then on the current app is served.
    expect(routeSuccess(r, 'app', 900, 1200)).toBeGreaterThan(0.99);
    expect(routeSuccess(r, 'legacy', 900, 1200)).toBe(0);
    // The old version asks once per action again (403 is not in its retryOn): about 4 attempts/s.
    expect(sum(r.series.attempts, 90, 120) / 300).toBeLessThan(12);
    expect(sum(none.series.attempts, 90, 120) / 300).toBeGreaterThan(150);
  });

  it('an action due after the horizon is not recorded, and the run is the one without it', () => {
    // Held for 10 minutes at 12m, acting 10 minutes later: 22m, after the 20m horizon.
    const late = run(STORM(ALERT.replace('for: 2m', 'for: 10m')));
    expect(late.actions).toEqual([]);
    expect(Array.from(late.series.attempts)).toEqual(Array.from(run(STORM('  []')).series.attempts));
  });

  it('reads the error ratio too: more than 90% of attempts failing for 30 s, acted on at once', () => {
    const r2 = run(STORM(`  - name: shed-legacy
    when: { signal: error-ratio, above: 0.9, for: 30s }
    do: { kind: block, population: legacy, answer: drop }`));
    // Every attempt fails fast from 2m: the checks at 2m10s, 2m20s and 2m30s see it.
    expect(r2.actions).toMatchObject([{ name: 'shed-legacy', atS: 150, trigger: { heldAtS: 150, value: 1 } }]);
  });
});
