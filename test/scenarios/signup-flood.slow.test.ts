// The signup-flood scenario's story ending (story 003): the flood does not stop, and four
// hours in someone switches login and session validation to the local fallback by hand.
// A 4.5-hour run, so it lives in the slow suite.
import { describe, it, expect } from 'vitest';
import { run, routeSuccess } from './signup-flood-fixture.js';

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


  it('the flood outlasts the run, so nothing recovers after it: users see the service down from the flood to the switch', () => {
    const m = run('manual-switch-4h').summary.measures;
    expect(m.recovered).toBe(0);
    expect(m.perceivedOutageS!).toBeGreaterThanOrEqual(3.9 * 3600);
    expect(m.perceivedOutageS!).toBeLessThanOrEqual(4.1 * 3600);
  });
});
