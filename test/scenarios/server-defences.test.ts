// The shipped server-defences scenario: a ranking that means what it says. Vegas at its
// defaults and a contention model are broken before the capacity cut; adaptive LIFO keeps
// users served through it. The two broken ones are marked and rank below every healthy
// variant, although their recovery times read 0 s against their own broken baselines.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';

describe('scenarios/server-defences.yaml', () => {
  // On the test's own thread (workers: 0): the thread pool is not what this tests, and under
  // vitest each pool thread loads the sources through tsx. In beforeAll, not while vitest
  // collects the file, so vitest counts the time as this file's.
  let x: ExperimentResult;
  beforeAll(async () => {
    x = await runExperiment(loadScenarioFile('scenarios/server-defences.yaml'), { workers: 0 });
  });
  const at = (name: string) => x.variants.find((v) => v.name === name)!.points[0].measures;

  it('finds vegas-defaults and contention unhealthy before the fault, in every seed, and the other two healthy', () => {
    expect(at('vegas-defaults').healthyBeforeTrigger.value).toBe(0);
    expect(at('contention').healthyBeforeTrigger.value).toBe(0);
    expect(at('fifo').healthyBeforeTrigger.value).toBe(1);
    expect(at('adaptive-lifo').healthyBeforeTrigger.value).toBe(1);
    // Broken: under half of the users served before the cut (the contention model collapses on its own).
    expect(at('contention').preFaultSuccessRatio.value!).toBeLessThan(0.5);
    expect(at('vegas-defaults').preFaultSuccessRatio.value!).toBeLessThan(0.9);
  });

  it('ranks adaptive LIFO first and the two broken variants below every healthy one, and says why', () => {
    const entries = x.ranking!.points[0].entries;
    expect(entries[0]).toMatchObject({ variant: 'adaptive-lifo', rank: 1, healthyBefore: true });
    expect(entries.slice(0, 2).map((e) => e.variant)).toEqual(['adaptive-lifo', 'fifo']);
    expect(entries.slice(2).map((e) => [e.variant, e.healthyBefore])).toEqual(expect.arrayContaining([['vegas-defaults', false], ['contention', false]]));
    expect(entries[2].decidedBy).toBe('healthyBeforeTrigger');
  });

  it('adaptive LIFO recovers at once and users see little more than the cut; FIFO never comes back', () => {
    expect(at('adaptive-lifo').recovered.value).toBe(1);
    expect(at('adaptive-lifo').perceivedOutageS.value!).toBeLessThanOrEqual(4 * 60);
    expect(at('fifo').recovered.value).toBe(0);
    expect(at('fifo').perceivedOutageS.value!).toBeGreaterThan(10 * 60);
    expect(x.expectations.every((e) => e.passed)).toBe(true);
  });
});
