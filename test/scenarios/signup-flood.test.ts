// The guard of signup-flood's `defended` variant (story 003) on a 5-minute run with the
// attacker silent: what its budget, reserves and bulkhead cost real users with no attack at
// all. Login and session revalidation use 3,000 of the provider's 5,000 calls a minute, well
// inside their reserves of 1,800 each; real signups, 60 a minute, fit under their bulkhead
// of 200. The guard once refused every signup once login and session together had used the
// unreserved 900 calls of a minute, 18 s into it: two thirds of real signups failed. The
// full-size runs, with and without the flood, are in signup-flood-attack.slow.test.ts.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { withoutFlood, populationSuccess } from './signup-flood-fixture.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import { verdictSentence } from '../../src/report/verdict.js';

describe('scenarios/signup-flood.yaml, defended, the attacker silent (5 minutes)', () => {
  const { summary } = withoutFlood('defended', true);

  it('serves every population: the reserves hold budget for login and session without refusing signups below their share', () => {
    expect(populationSuccess(summary, 'signups')).toBeGreaterThanOrEqual(0.98);
    expect(populationSuccess(summary, 'logins')).toBe(1);
    expect(populationSuccess(summary, 'sessions')).toBe(1);
    const auth = summary.quotas.find((q) => q.name === 'auth')!;
    expect(auth.guardRefused).toBe(0);
    expect(auth.providerRefused).toBe(0);
  });
});

describe('scenarios/signup-flood.yaml: a guard that starves signups is flagged by the default floor (6 minutes)', () => {
  it('ranks it below every variant that serves signups, and the verdict names the population it sacrifices', async () => {
    // A signup bulkhead of 1.22% of the quota (61 calls a minute) for 60 real signups a
    // minute and their retries: the guard keeps login and sessions whole but refuses about 8%
    // of signups before any attack. That passes the health gate (90% per population), and
    // pooled with 50 logins and sessions a second, signups are 2% of actions: only the floor
    // (3 points under the baseline's pre-fault success) stops it ranking with the real guard.
    const source = readFileSync('scenarios/signup-flood.yaml', 'utf8')
      .replace(/^horizon: 1h$/m, 'horizon: 6m')
      .replace('{ kind: surge, at: 10m, duration: 40m, population: botnet, rate: 200/s }', '{ kind: surge, at: 3m, duration: 2m, population: botnet, rate: 200/s }')
      .replace('expectations:\n', `  starving:\n    description: A guard whose signup bulkhead is 1.22% of the quota.\n    overlay:\n      server: { dependencies: { auth: { guard: { budget: 0.9, reserve: { login: 0.4, session: 0.4 }, bulkheads: { signup: 0.0122 } } } } }\nexpectations:\n`);
    const loaded = loadScenario(source, 'signup-flood.yaml');
    const keep = ['undefended', 'defended', 'starving'];
    const x = await runExperiment({ ...loaded, variants: loaded.variants.filter((v) => keep.includes(v.name)) }, { workers: 0 });
    const entries = x.ranking!.points[0].entries;
    expect(entries.map((e) => e.variant)).toEqual(['defended', 'undefended', 'starving']);
    const starving = entries[2];
    expect(starving.healthyBefore).toBe(true);
    expect(starving.decidedBy).toBe('floors');
    expect(starving.floorsBroken.map((f) => [f.population, f.measure, f.byDefault])).toEqual([['signups', 'preFaultSuccessRatio', true]]);
    expect(starving.floorsBroken[0].value!).toBeGreaterThan(0.9);
    expect(starving.floorsBroken[0].value!).toBeLessThan(0.95);
    expect(entries[0].floorsBroken).toEqual([]);
    expect(verdictSentence(buildResults(x))).toMatch(/starving sacrifices signups \(success before the fault 9\d(\.\d)?%; floor 97%, 3 points under undefended's\), so it ranks below every variant healthy before the fault that meets its floors\.$/);
  });
});
