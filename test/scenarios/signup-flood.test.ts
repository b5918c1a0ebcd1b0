// The shipped signup-flood scenario (story 003): undefended, a flood of signups spends the
// auth provider's quota and login and session revalidation fail with it; defended, login
// stays above 99% while signup is throttled.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/summarize.js';
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
    const auth = summary.quotas.find((q) => q.name === 'auth')!;
    expect(auth.peakWindowUse).toBe(1);
    expect(auth.providerRefused).toBeGreaterThan(100_000);
    // The 70% alert fires within seconds of the attack starting at 600 s.
    expect(auth.alerts.find((a) => a.threshold === 0.7)!.firstS).toBeGreaterThan(600);
    expect(auth.alerts.find((a) => a.threshold === 0.7)!.firstS!).toBeLessThan(660);
  });

  it('simulate(defended): login and sessions stay above 99% while signups are refused before the provider', () => {
    const { record, summary } = run('defended');
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'session', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'signup', ...ATTACK)).toBeLessThan(0.1);
    const auth = summary.quotas.find((q) => q.name === 'auth')!;
    expect(auth.providerRefused).toBe(0);
    expect(auth.guardRefused).toBeGreaterThan(10_000);
    // The budget keeps use below the quota: the provider never says 429, the 70% alert never fires.
    expect(auth.peakWindowUse).toBeLessThan(0.9);
    expect(auth.alerts.find((a) => a.threshold === 0.7)!.firstS).toBeNull();
  });

  it('simulate(local-sessions): validating sessions locally keeps logged-in users in, not login', () => {
    const { record } = run('local-sessions');
    expect(routeSuccess(record, 'session', ...ATTACK)).toBe(1);
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeLessThan(0.6);
  });

  it('simulate(failover): failing over to local validation on 429s keeps login and sessions working', () => {
    const { record, summary } = run('failover');
    expect(routeSuccess(record, 'login', ...ATTACK)).toBeGreaterThan(0.99);
    expect(routeSuccess(record, 'session', ...ATTACK)).toBeGreaterThan(0.99);
    expect(summary.quotas.find((q) => q.name === 'auth')!.failedOver).toBeGreaterThan(10_000);
  });
});
