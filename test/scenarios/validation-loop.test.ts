// The shipped validation-loop scenario (story 000): futile repeats of requests that can
// never succeed make a few percent of steady traffic, and vanish when clients honour
// the server's retryable flag.
//
// On the first 10 minutes of the shipped 30: the scenario has no fault, so its traffic is the
// same steady mix throughout, and 10 minutes hold about 600,000 attempts (some 19,000 futile):
// the shares asserted below (to 2 decimals) have standard errors near 0.0002. A shorter
// horizon is exactly the start of the shipped run, at a third of the cost.
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const FILE = 'scenarios/validation-loop.yaml';
const loaded = loadScenario(readFileSync(FILE, 'utf8').replace(/^horizon: 30m$/m, 'horizon: 10m'), FILE);
const run = (name: string) => runOne(loaded.variants.find((x) => x.name === name)!.scenario, name, 0, 1).summary.measures;

describe('scenarios/validation-loop.yaml, the first 10 minutes', () => {
  it('is the shipped scenario cut at 10 minutes, with no fault', () => {
    expect(loaded.base.horizon).toBe(600);
    expect(loaded.base.faults).toEqual([]);
  });

  it('runOne(as-deployed): 2-5% of the traffic repeats requests that can never succeed', () => {
    const s = run('as-deployed');
    // By hand: app-v1 sends 400 actions/s, 2% invalid, each retried 4 more times: 32 futile
    // attempts/s out of 1000 + 32 attempts/s = 3.1%.
    expect(s.futileRetryShare).toBeGreaterThan(0.02);
    expect(s.futileRetryShare).toBeLessThan(0.05);
    expect(s.futileRetryShare).toBeCloseTo(32 / 1032, 2);
    expect(s.attemptsPerActionMax).toBe(5);
  });

  it('runOne(all-honour-retryable): no futile repeats once every client honours retryable: false', () => {
    const s = run('all-honour-retryable');
    expect(s.futileRetryShare).toBe(0);
    expect(s.attemptsPerActionMax).toBe(1);
    // The invalid requests still fail (2% of actions): honouring the flag loses nothing.
    expect(s.successRatio!).toBeCloseTo(0.98, 2);
  });
});
