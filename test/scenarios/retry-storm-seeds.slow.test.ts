// The flagship with its own `seeds: auto`: the verdict costs fewer runs than 3 seeds
// everywhere (240), at the same or better confidence: every variant the pick is chosen from
// runs more than 3 seeds at 12 minutes, each of their pairs is decided, and the ranking is
// judged at the confidence that keeps a false difference at 5% over the looks. The pick and
// the order of the variants that recover are those of 3 fixed seeds; the client ceiling's
// 16 s, within seed noise at 3 seeds, is decided at 4.
import { describe, it, expect } from 'vitest';
import { flagship, OUTAGE } from './retry-storm-fixture.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { lookConfidence } from '../../src/experiment/adaptive-seeds.js';
import { buildResults } from '../../src/results/build.js';
import { verdictText } from '../../src/report/verdict.js';

describe('scenarios/retry-storm.yaml with seeds: auto', async () => {
  const x = await runExperiment(flagship, { workers: 2 });
  const s = x.seeding!;
  const twelve = flagship.points.find((p) => p.values[OUTAGE] === '12m')!.index;
  const ranked = x.ranking!.points.find((p) => p.point === twelve)!;
  const top = ranked.entries.filter((e) => e.gate === null);

  it('costs fewer runs than 3 seeds everywhere', () => {
    expect(x.runs.length).toBeLessThan(10 * 8 * 3);
    expect(x.runs.length).toBe(s.cells.reduce((n, c) => n + c.seeds, 0));
    expect(x.failures).toEqual([]);
  });

  it('gives every variant the pick comes from more than 3 seeds, and decides each of their pairs', () => {
    // Every variant recovers in every seed at 12 minutes (as-is and the two spreads after about
    // 3 hours, when people have given up), so none is below the gate.
    expect(top.map((e) => e.variant)).toEqual(['all-defences', 'admission-reserve', 'client-ceiling', 'one-layer', 'remote-switch', 'act-at-30m', 'as-is', 'spread-retry-after', 'spread-sync-flush']);
    const quick = top.slice(0, 6);
    for (const e of quick) {
      const cell = s.cells.find((c) => c.variant === e.variant && c.point === twelve)!;
      expect(cell.seeds, e.variant).toBeGreaterThan(3);
      expect(cell.reason, e.variant).toBe('decided');
    }
    expect(ranked.undecided.filter((u) => quick.some((e) => e.variant === u.above) && quick.some((e) => e.variant === u.below))).toEqual([]);
    expect(x.ranking!.confidence).toBe(lookConfidence({ start: 2, max: 8 }));
    // Away from 12 minutes: the start seeds.
    for (const c of s.cells.filter((c) => c.point !== twelve)) expect([c.seeds, c.reason]).toEqual([2, 'unranked']);
  });

  it('states the client ceiling\'s 16 s as decided, not as seed noise, beside what all the defences spare users', () => {
    const ceiling = top.find((e) => e.variant === 'client-ceiling')!;
    expect(ceiling.versusFirst.betterOn).toEqual(expect.arrayContaining(['recoveryTimeS']));
    expect(ceiling.versusFirst.betterWithinNoiseOn).toEqual([]);
    const sentence = verdictText(buildResults(x))!;
    expect(sentence).toMatch(/^At a 12-minute outage, all-defences brings the service back in 2m4\ds; client-ceiling is better on recovery time \(2m\d\ds against 2m4\ds\)/);
    expect(sentence).not.toMatch(/seed noise/);
    expect(sentence).toMatch(/all-defences on perceived outage \(12m against 15m\), new users served \(9\d(\.\d)?% against 5\d(\.\d)?%\)/);
  });
});
