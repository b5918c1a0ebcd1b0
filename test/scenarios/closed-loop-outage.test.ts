// The shipped closed-loop-outage scenario: the flagship's outage against an open stream of
// actions and against the same people as closed-loop users. The open stream's storm outlives
// the outage by minutes at over 8x the load; the closed users, who can have at most one
// action each in progress, bound the load and the service is back within a minute.
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';

describe('scenarios/closed-loop-outage.yaml', async () => {
  const loaded = loadScenarioFile('scenarios/closed-loop-outage.yaml');
  const x = await runExperiment(loaded, { workers: 0 });
  const at = (name: string) => x.variants.find((v) => v.name === name)!.points[0].measures;

  it('gives the same healthy load both ways (N / (R + Z) matches the open rates)', () => {
    const rate = (name: string) => at(name).baselineRate.value!;
    expect(Math.abs(rate('closed') - rate('open')) / rate('open')).toBeLessThan(0.05);
  });

  it('the open stream storms past the outage; the closed users do not', () => {
    expect(at('open').recoveryTimeS.value!).toBeGreaterThan(4 * 60);
    expect(at('open').peakLoadMultiple.value!).toBeGreaterThan(8);
    expect(at('closed').recoveryTimeS.value!).toBeLessThan(60);
    expect(at('closed').peakLoadMultiple.value!).toBeLessThan(3);
    expect(at('closed').attemptsPerAction.value!).toBeLessThan(at('open').attemptsPerAction.value!);
    expect(x.expectations.length).toBe(4);
    expect(x.expectations.every((e) => e.passed)).toBe(true);
  });
});
