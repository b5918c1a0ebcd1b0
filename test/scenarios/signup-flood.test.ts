// The shipped signup-flood scenario (story 003): undefended, a flood of signups spends the
// auth provider's quota and login and session revalidation fail with it; defended, login
// stays above 99% while signup is throttled.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/measures.js';
import { measureSettings } from '../../src/experiment/settings.js';
import type { RunRecord } from '../../src/model/series.js';

const loaded = loadScenarioFile('scenarios/signup-flood.yaml');
const scenario = (name: string) => loaded.variants.find((v) => v.name === name)!.scenario;
const run = (name: string) => {
  const record = simulate(scenario(name), 1);
  return { record, summary: summarize(record, measureSettings(scenario(name))) };
};

/** Success ratio of a route's user actions that ended inside [fromS, toS). */
function routeSuccess(r: RunRecord, route: string, fromS: number, toS: number): number {
  const i = r.routes.indexOf(route);
  const s = r.series;
  let ok = 0, failed = 0;
  for (let b = Math.ceil(fromS / s.bucketS); b < Math.floor(toS / s.bucketS); b++) {
    ok += s.routeActionsOk[i][b];
    failed += s.routeActionsFailed[i][b];
  }
  return ok / (ok + failed);
}

// The attack runs from 10m to 50m; judge the middle of it, once the minute windows have turned over.
const ATTACK: [number, number] = [12 * 60, 48 * 60];

describe('scenarios/signup-flood.yaml', () => {
  it('simulate(undefended): the quota runs out and login and logged-in users fail with signup', () => {
    const { record, summary } = run('undefended');
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeLessThan(0.5);
    expect(routeSuccess(record, 'session', ...ATTACK)).toBeLessThan(0.5);
    // Before the attack everything works.
    expect(routeSuccess(record, 'login', 60, 600)).toBeGreaterThan(0.999);
    const auth = summary.quotas.auth;
    expect(auth.peakWindowUse).toBe(1);
    expect(auth.providerRefused).toBeGreaterThan(100_000);
    // The 70% alert fires within seconds of the attack starting at 600 s.
    expect(auth.alertFirstS['0.7']).toBeGreaterThan(600);
    expect(auth.alertFirstS['0.7']!).toBeLessThan(660);
  });

  it('simulate(defended): login and sessions stay above 99% while signups are refused before the provider', () => {
    const { record, summary } = run('defended');
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'session', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'signup', ...ATTACK)).toBeLessThan(0.1);
    const auth = summary.quotas.auth;
    expect(auth.providerRefused).toBe(0);
    expect(auth.guardRefused).toBeGreaterThan(10_000);
    // The budget keeps use below the quota: the provider never says 429, the 70% alert never fires.
    expect(auth.peakWindowUse).toBeLessThan(0.9);
    expect(auth.alertFirstS['0.7']).toBeNull();
  });

  it('simulate(local-sessions): validating sessions locally keeps logged-in users in, not login', () => {
    const { record } = run('local-sessions');
    expect(routeSuccess(record, 'session', ...ATTACK)).toBe(1);
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeLessThan(0.6);
  });

  it('simulate(manual-switch-4h): as in the story, login stays down until someone switches to local validation 4 hours in', () => {
    const { record } = run('manual-switch-4h');
    expect(record.actions).toMatchObject([{ name: 'switch-to-local-validation', kind: 'fallback', atS: 4 * 3600 + 600 }]);
    // The flood does not stop: login fails from the first minutes of the attack to the switch…
    expect(routeSuccess(record, 'login', 12 * 60, 4 * 3600 + 600)).toBeLessThan(0.5);
    expect(routeSuccess(record, 'session', 12 * 60, 4 * 3600 + 600)).toBeLessThan(0.5);
    // …and works from the minute after it, the attack still going on.
    expect(routeSuccess(record, 'login', 4 * 3600 + 660, 4.5 * 3600)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'session', 4 * 3600 + 660, 4.5 * 3600)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'signup', 4 * 3600 + 660, 4.5 * 3600)).toBeLessThan(0.5);
  });

  it('simulate(quota-alert): the 70% alert fires seconds into the attack, and login is back 15 minutes later', () => {
    const { record } = run('quota-alert');
    const [fired] = record.actions;
    expect(record.actions).toHaveLength(1);
    // The first check after the attack starts at 10m sees the quota half used (10 s into its window), the next one full.
    expect(fired.trigger).toMatchObject({ kind: 'signal', signal: 'quota', above: 0.7, heldAtS: 620 });
    expect(fired.atS).toBe(620 + 900);
    expect(routeSuccess(record, 'login', 12 * 60, 1520)).toBeLessThan(0.5);
    expect(routeSuccess(record, 'login', 1530, 3600)).toBe(1);
  });

  it('simulate(failover): failing over to local validation on 429s keeps login and sessions working', () => {
    const { record, summary } = run('failover');
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'session', ...ATTACK)).toBeGreaterThan(0.99);
    expect(summary.quotas.auth.failedOver).toBeGreaterThan(10_000);
  });
});
