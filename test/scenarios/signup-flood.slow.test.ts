// The signup-flood scenario's story ending (story 003): the flood does not stop, and four
// hours in someone switches login and session validation to the local fallback by hand.
// A 4.5-hour run, so it lives in the slow suite.
import { describe, it, expect } from 'vitest';
import { run, routeSuccess, loaded } from './signup-flood-fixture.js';
import { runExperiment } from '../../src/experiment/experiment.js';

describe('scenarios/signup-flood.yaml, the story\'s own ending', () => {
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


  it('the flood outlasts the run, yet the users recover at the switch, 4h10m, while it goes on: 4 hours without service', () => {
    const m = run('manual-switch-4h').summary.measures;
    expect(m.lastTriggerEndS).toBe(4.5 * 3600); // the flood is still on at the horizon
    expect(m.recovered).toBe(1);
    expect(m.recoveredAtS!).toBeGreaterThanOrEqual(4 * 3600 + 600);
    expect(m.recoveredAtS!).toBeLessThanOrEqual(4 * 3600 + 720);
    // Timed from the flood's start at 10m, since it never ends: how long users were without service.
    expect(m.recoveryTimeS).toBe(m.recoveredAtS! - 600);
    expect(m.perceivedOutageS!).toBeGreaterThanOrEqual(3.9 * 3600);
    expect(m.perceivedOutageS!).toBeLessThanOrEqual(4.1 * 3600);
  });

  it('the whole experiment ranks the defended variant first, leaves the bots out of success, and its expectations pass', async () => {
    const x = await runExperiment(loaded, { workers: 1 });
    const entries = x.ranking!.points[0].entries;
    const entry = (name: string) => entries.find((e) => e.variant === name)!;
    expect(entry('defended').rank).toBe(1);
    expect(entry('undefended').rank).toBeGreaterThan(entry('defended').rank);
    expect(entry('manual-switch-4h').rank).toBe(entries.length);
    // The botnet's signups are refused by the defences; the users' success stays near 100%.
    const defended = x.variants.find((v) => v.name === 'defended')!.points[0];
    expect(defended.measures.successRatio.value!).toBeGreaterThan(0.98);
    const bots = defended.populations.find((p) => p.name === 'botnet')!;
    expect(bots.measures.successRatio.value!).toBeLessThan(0.1);
    expect(x.expectations.length).toBeGreaterThan(0);
    expect(x.expectations.every((e) => e.passed)).toBe(true);
  });
});
