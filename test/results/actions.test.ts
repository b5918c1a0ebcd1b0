/**
 * The operator actions that took effect in a run are results like the measures (issue 13):
 * summary.json lists them per seed, and they parse back exactly.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { bundleOf } from '../../src/results/bundle.js';
import { parseSummary, summaryJson } from '../../src/results/summary-json.js';

const SCENARIO = `
name: acted
horizon: 3m
seeds: 2
clients:
  users:
    arrivals: { kind: constant, rate: 20/s }
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: { kind: constant, value: 10ms } }
faults:
  - { kind: capacity-cut, at: 30s, duration: 30s, slots: 0 }
actions:
  - { name: scale-up, when: { at: 45s }, do: { kind: scale, slots: 20 } }
  - { name: page, when: { signal: success, below: 0.5, for: 10s, after: 5s }, do: { kind: scale, slots: 30 } }
`;

describe('actions in summary.json', () => {
  it('lists, per seed, every action that took effect with its time and trigger, and parses back the same', async () => {
    // On the calling thread (workers 0): a thread pool under vitest loads the sources through tsx first.
    const x = await runExperiment(loadScenario(SCENARIO, 'acted.yaml'), { workers: 0 });
    const results = bundleOf(x).results;
    const perSeed = results.variants[0].points[0].perSeed;
    expect(perSeed.map((s) => s.seed)).toEqual([1, 2]);
    for (const s of perSeed) {
      expect(s.actions.map((a) => a.name).sort()).toEqual(['page', 'scale-up']);
      const first = s.actions.find((a) => a.name === 'page')!;
      const second = s.actions.find((a) => a.name === 'scale-up')!;
      // The alert: success below 50% from the cut at 30 s, seen at the check at 40 s, acted on 5 s later.
      expect(first).toMatchObject({ name: 'page', kind: 'scale', trigger: { kind: 'signal', signal: 'success', below: 0.5 } });
      expect(first.atS).toBe(45);
      expect(first.trigger).toMatchObject({ heldAtS: 40, afterS: 5 });
      expect(second).toEqual({ name: 'scale-up', kind: 'scale', atS: 45, trigger: { kind: 'at' }, instances: 1 });
    }
    expect(parseSummary(summaryJson(results), 'summary.json')).toEqual(results);
  });
});
