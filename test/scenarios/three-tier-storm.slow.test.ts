// The shipped three-tier-storm scenario (issue 14): a one-minute database slowdown behind
// an API behind an edge. Retries at every hop, each on its own clock, amplify it into a
// storm the database never leaves; carrying the users' deadline down stops it.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const loaded = loadScenarioFile('scenarios/three-tier-storm.yaml');
const run = (name: string) => runOne(loaded.variants.find((x) => x.name === name)!.scenario, name, 0, 1).summary;
const tier = (s: ReturnType<typeof run>, name: string) => s.tiers!.find((t) => t.name === name)!.measures;

describe('scenarios/three-tier-storm.yaml', () => {
  it('no-deadlines: the hops multiply the load on the database, which works for callers who left, and never recovers', () => {
    const s = run('no-deadlines');
    expect(s.tiers!.map((t) => [t.name, t.callers])).toEqual([['server', []], ['api', ['server']], ['db', ['api']]]);
    expect(s.measures.recovered).toBe(0);
    const db = tier(s, 'db'), api = tier(s, 'api'), edge = tier(s, 'server');
    // Each hop adds its own factor: users at most 3 per action, the API up to 9, the database up to 27.
    expect(edge.tierPeakAmplification!).toBeLessThanOrEqual(3.2);
    expect(api.tierPeakAmplification!).toBeGreaterThan(edge.tierPeakAmplification! * 2);
    expect(db.tierPeakAmplification!).toBeGreaterThan(api.tierPeakAmplification! * 1.5);
    expect(db.tierPeakLoadMultiple!).toBeGreaterThan(10);
    expect(db.tierWastedWorkShare!).toBeGreaterThan(0.8);
    expect(db.tierSuccess!).toBeLessThan(0.2);
  });

  it('deadlines: each hop stops at the users\' deadline; the database sees about what users send, and the service recovers', () => {
    const s = run('deadlines');
    expect(s.measures.recovered).toBe(1);
    expect(s.measures.recoveryTimeS!).toBeLessThanOrEqual(30);
    const db = tier(s, 'db'), api = tier(s, 'api'), edge = tier(s, 'server');
    // Nothing below the edge retries past the deadline: every tier sees the edge's attempts, no more.
    expect(db.tierAmplification!).toBeCloseTo(edge.tierAmplification!, 2);
    expect(api.tierRetryShare!).toBeLessThan(0.01);
    expect(db.tierPeakAmplification!).toBeLessThanOrEqual(3.2);
    expect(db.tierPeakLoadMultiple!).toBeLessThan(4);
  });
});
