// The flagship's verdict at a 12-minute outage over 3 fixed seeds (`--seeds 3`; the file's
// `seeds: auto` is retry-storm-seeds.slow.test.ts), for the two policies the
// story weighs against each other and the baseline: the client ceiling is back about 16 s
// sooner, seed by seed beyond seed noise, and its users' p99 is 17 s shorter (5m8s against
// 5m25s), while all the defences spare users 3 minutes of outage, keep the peak 40% lower and
// serve 98% of new users against 51%; as-is ends after about 3 hours, when people give up. The ranking puts all the defences first, and the verdict states the trade-off and how
// sure each side of it is. Each population's success is an objective of its own: the sync
// queue's users are served 99.8% of the time under all the defences, 95% under the ceiling.
import { describe, it, expect } from 'vitest';
import { flagship, OUTAGE } from './retry-storm-fixture.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import { verdictText } from '../../src/report/verdict.js';

describe('scenarios/retry-storm.yaml at a 12-minute outage, 3 seeds: the client ceiling against all the defences', async () => {
  const keep = ['as-is', 'client-ceiling', 'all-defences'];
  const loaded = {
    ...flagship,
    variants: flagship.variants.filter((v) => keep.includes(v.name)),
    points: flagship.points.filter((p) => p.values[OUTAGE] === '12m'),
  };
  const x = await runExperiment(loaded, { workers: 1, seeds: 3 });
  const p = x.ranking!.points[0];
  const entry = (name: string) => p.entries.find((e) => e.variant === name)!;

  it('ranks all the defences first, with the client ceiling\'s 16 s judged against seed noise, and decided', () => {
    expect(p.entries.map((e) => e.variant)).toEqual(['all-defences', 'client-ceiling', 'as-is']);
    expect(p.pairedSeeds).toBe(3);
    const ceiling = entry('client-ceiling');
    const all = entry('all-defences');
    expect(all.values.recoveryTimeS! - ceiling.values.recoveryTimeS!).toBeGreaterThan(10); // beyond the 10 s tolerance on average
    expect(ceiling.versusFirst.betterWithinNoiseOn).toEqual([]);
    expect(ceiling.versusFirst.betterOn).toEqual(['recoveryTimeS', 'actionLatencyP99S']);
    expect(ceiling.versusFirst.worseOn).toEqual(expect.arrayContaining(['perceivedOutageS', 'originalSuccessAfterFault', 'peakLoadMultiple']));
    // A trade-off (its p99), so on the Pareto front; the vote (outage, new users served and the
    // costs against the p99) puts it second.
    expect(ceiling.dominatedBy).toEqual([]);
  });

  it('states the trade-off in the verdict', () => {
    const sentence = verdictText(buildResults(x))!;
    expect(sentence).toMatch(/^At a 12-minute outage, all-defences brings the service back in 2m4\ds; client-ceiling is better on recovery time \(2m\d\ds against 2m4\ds\) and latency p99 \(5m\d+s against 5m\d+s\); all-defences on perceived outage \(12m against 15m\), new users served \(9\d(\.\d)?% against 5\d(\.\d)?%\), sync success \(99\.\d% against 9\d(\.\d)?%\) and \d more;/);
    // The rest of what all-defences is better on: the peak among them.
    expect(entry('client-ceiling').versusFirst.worseOn).toContain('peakLoadMultiple');
    // The baseline ends by itself, hours later, as people give up.
    expect(sentence).toMatch(/; as-is takes 2h5\dm\d+s\.$/);
  });
});
