/**
 * rankVariants: the order (recovered fraction, recovery time with "not recovered" last,
 * perceived outage, success ratio), shared ranks for ties, the savings against the
 * baseline, `at`, and the longest swept duration at which every seed recovered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rankVariants, type RankablePoint, type RankableVariant } from '../../src/report/ranking.js';
import { roundDeep } from '../../src/report/numbers.js';
import { rankingText } from '../../src/report/table.js';
import { cleanupFixtures, fullShape } from './fixtures.js';

type M = RankablePoint['measures'];
const M0: M = {
  recoveryTimeS: 60, perceivedOutageS: 600, successRatio: 0.9, peakLoadMultiple: 2, retryShareAtPeak: 0.5, originalSuccessAfterFault: 0.8, relapses: 0, retryWaves: 0,
};

/** One point (index `point`) of a variant. */
function pt(over: Partial<M> & { recoveredFraction?: number; runs?: number; point?: number; values?: Record<string, string | number> } = {}): RankablePoint {
  const { recoveredFraction = 1, runs = 4, point = 0, values = {}, ...m } = over;
  return { point, values, runs, recoveredFraction, measures: { ...M0, ...m } };
}
const v = (name: string, ...points: RankablePoint[]): RankableVariant => ({ name, points });
const order = (r: ReturnType<typeof rankVariants>, i = 0) => r!.points[i].entries.map((e) => `${e.rank} ${e.variant}`);

describe('rankVariants: order', () => {
  it('puts every seed recovered first, then the shortest recovery, with "not recovered" last', () => {
    const r = rankVariants([
      v('never', pt({ recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 100 })),
      v('mostly', pt({ recoveredFraction: 0.75, recoveryTimeS: null, perceivedOutageS: 50 })),
      v('slow', pt({ recoveryTimeS: 300, perceivedOutageS: 900 })),
      v('fast', pt({ recoveryTimeS: 30, perceivedOutageS: 2000 })),
    ], { parameters: [] });
    // Recovered fraction outranks a shorter outage; recovery time outranks perceived outage.
    expect(order(r)).toEqual(['1 fast', '2 slow', '3 mostly', '4 never']);
  });

  it('breaks a tie in recovery time by perceived outage, then by success ratio (none last)', () => {
    const r = rankVariants([
      v('a', pt({ perceivedOutageS: 700, successRatio: 0.99 })),
      v('b', pt({ perceivedOutageS: 600, successRatio: null })),
      v('c', pt({ perceivedOutageS: 600, successRatio: 0.95 })),
      v('d', pt({ perceivedOutageS: 600, successRatio: 0.97 })),
    ], { parameters: [] });
    expect(order(r)).toEqual(['1 d', '2 c', '3 b', '4 a']);
  });

  it('compares success ratios to the whole percent: noise must not rank a defence below doing nothing', () => {
    const never = { recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 13200 };
    const r = rankVariants([
      v('as-is', pt({ ...never, successRatio: 0.47806 })),
      v('spread', pt({ ...never, successRatio: 0.47753 })),
      v('worse', pt({ ...never, successRatio: 0.465 })),
    ], { parameters: [] });
    expect(order(r)).toEqual(['1 as-is', '1 spread', '3 worse']);
  });

  it('orders "not recovered" variants with equal fractions by perceived outage', () => {
    const r = rankVariants([
      v('x', pt({ recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 5000 })),
      v('y', pt({ recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 4000 })),
    ], { parameters: [] });
    expect(order(r)).toEqual(['1 y', '2 x']);
  });

  it('gives tied variants one rank (1, 2, 2, 4), in scenario order, comparing values as written (6 digits)', () => {
    const r = rankVariants([
      v('best', pt({ recoveryTimeS: 10 })),
      v('p', pt({ perceivedOutageS: 600.0000001 })), // 600 once written with 6 significant digits
      v('q', pt()),
      v('last', pt({ successRatio: 0.5 })),
    ], { parameters: [] });
    expect(order(r)).toEqual(['1 best', '2 p', '2 q', '4 last']);
    const again = rankVariants([v('q', pt()), v('p', pt({ perceivedOutageS: 600.0000001 }))], { parameters: [] });
    expect(order(again)).toEqual(['1 q', '1 p']);
  });

  it('leaves out a variant without runs at a point (an interrupted experiment), and a point where none ran', () => {
    const r = rankVariants([
      v('a', pt({ point: 0 }), pt({ point: 1, runs: 0, recoveredFraction: 0 })),
      v('b', pt({ point: 0, recoveryTimeS: 10, runs: 0, recoveredFraction: 0 }), pt({ point: 1, runs: 0, recoveredFraction: 0 })),
    ], { parameters: [] });
    expect(r!.points.map((p) => p.point)).toEqual([0]);
    expect(order(r)).toEqual(['1 a']);
  });
});

describe('rankVariants: against the baseline', () => {
  const variants = [
    v('as-is', pt({ recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 4000 })),
    v('better', pt({ perceivedOutageS: 1000 })),
    v('worse', pt({ recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 5000 })),
  ];

  it('measures the perceived outage saved against the first variant by default, in seconds and as a share', () => {
    const r = rankVariants(variants, { parameters: [] })!;
    expect(r.baseline).toBe('as-is');
    expect(r.at).toBeUndefined();
    const by = Object.fromEntries(r.points[0].entries.map((e) => [e.variant, [e.outageSavedS, e.outageSavedRatio]]));
    expect(by).toEqual({ 'as-is': [0, 0], better: [3000, 0.75], worse: [-1000, -0.25] });
  });

  it('uses compare.baseline, and gives no ratio when the baseline saw no outage', () => {
    const r = rankVariants(variants, { compare: { baseline: 'better' }, parameters: [] })!;
    expect(r.baseline).toBe('better');
    expect(r.points[0].entries.find((e) => e.variant === 'worse')).toMatchObject({ outageSavedS: -4000, outageSavedRatio: -4 });
    const calm = rankVariants([v('a', pt({ perceivedOutageS: 0 })), v('b', pt({ perceivedOutageS: 30 }))], { parameters: [] })!;
    expect(calm.points[0].entries.map((e) => [e.variant, e.outageSavedS, e.outageSavedRatio])).toEqual([['a', 0, null], ['b', -30, null]]);
  });

  it('gives no savings where the baseline has no run', () => {
    const r = rankVariants([v('a', pt({ runs: 0, recoveredFraction: 0 })), v('b', pt())], { parameters: [] })!;
    expect(r.points[0].entries).toMatchObject([{ variant: 'b', outageSavedS: null, outageSavedRatio: null }]);
  });

  it('carries the measures the report shows next to the rank', () => {
    const r = rankVariants([v('a', pt({ peakLoadMultiple: 4.4, retryShareAtPeak: 0.85, originalSuccessAfterFault: 0.3, relapses: 1.5, retryWaves: 3 }))], { parameters: [] })!;
    expect(r.points[0].entries[0]).toEqual({
      rank: 1, variant: 'a', runs: 4, recoveredFraction: 1, recoveryTimeS: 60, perceivedOutageS: 600, outageSavedS: 0, outageSavedRatio: 0,
      successRatio: 0.9, peakLoadMultiple: 4.4, retryShareAtPeak: 0.85, originalSuccessAfterFault: 0.3, relapses: 1.5, retryWaves: 3,
    });
  });
});

describe('rankVariants: sweep points', () => {
  const D = 'faults[0].duration';
  const swept = (name: string, recovered: boolean[], extra: Partial<M> = {}) =>
    v(name, ...['1m', '6m', '12m'].map((d, i) => pt({ point: i, values: { [D]: d }, recoveredFraction: recovered[i] ? 1 : 0.5, recoveryTimeS: recovered[i] ? 60 : null, ...extra })));

  it('ranks every point on its own by default, and only the points `at` picks (by meaning: 60s is 1m)', () => {
    const variants = [swept('a', [true, true, false]), swept('b', [true, false, true], { recoveryTimeS: 30 })];
    const all = rankVariants(variants, { parameters: [D] })!;
    expect(all.points.map((p) => [p.point, p.values[D], order({ ...all, points: [p] })])).toEqual([
      [0, '1m', ['1 b', '2 a']],
      [1, '6m', ['1 a', '2 b']],
      [2, '12m', ['1 b', '2 a']],
    ]);
    const at = rankVariants(variants, { compare: { at: { [D]: '60s' } }, parameters: [D] })!;
    expect(at.at).toEqual({ [D]: '60s' });
    expect(at.points.map((p) => p.values)).toEqual([{ [D]: '1m' }]);
  });

  it('gives each variant the longest swept duration at which every seed recovered, null when none', () => {
    const r = rankVariants([
      swept('gaps', [true, false, true]), // 12m counts even though 6m did not recover
      swept('short', [true, false, false]),
      swept('never', [false, false, false]),
    ], { parameters: [D] })!;
    expect(r.longestRecoveredParameter).toBe(D);
    const longest = Object.fromEntries(r.points[0].entries.map((e) => [e.variant, e.longestRecovered]));
    expect(longest).toEqual({ gaps: '12m', short: '1m', never: null });
    // Over the whole sweep, also when `at` ranks one point only; points without runs do not count.
    const one = rankVariants([
      v('x', pt({ point: 0, values: { [D]: '90s' } }), pt({ point: 1, values: { [D]: '2m' }, runs: 0 })),
    ], { compare: { at: { [D]: '90s' } }, parameters: [D] })!;
    expect(one.points[0].entries[0].longestRecovered).toBe('90s');
  });

  it('has no longest value unless the sweep is one parameter of durations', () => {
    const load = rankVariants([v('a', pt({ values: { load: 0.5 } }), pt({ point: 1, values: { load: 1.2 } }))], { parameters: ['load'] })!;
    expect(load.longestRecoveredParameter).toBeUndefined();
    expect('longestRecovered' in load.points[0].entries[0]).toBe(false);
    const two = rankVariants([v('a', pt({ values: { [D]: '1m', load: 1 } }))], { parameters: [D, 'load'] })!;
    expect(two.longestRecoveredParameter).toBeUndefined();
    const none = rankVariants([v('a', pt())], { parameters: [] })!;
    expect(none.longestRecoveredParameter).toBeUndefined();
  });

  it('with two parameters, ranks each point an `at` naming one of them picks', () => {
    const variants = ['a', 'b'].map((name) =>
      v(name, ...[['1m', 1], ['1m', 2], ['5m', 1]].map(([d, l], i) => pt({ point: i, values: { [D]: d, load: l }, recoveryTimeS: name === 'a' ? 10 * (i + 1) : 15 }))),
    );
    const r = rankVariants(variants, { compare: { at: { [D]: '1m' } }, parameters: [D, 'load'] })!;
    expect(r.points.map((p) => p.point)).toEqual([0, 1]);
    expect([order(r, 0), order(r, 1)]).toEqual([['1 a', '2 b'], ['1 b', '2 a']]);
  });

  it('returns null with no variant at all', () => {
    expect(rankVariants([], { parameters: [] })).toBeNull();
  });
});

describe('rankVariants on the report fixture', () => {
  afterAll(cleanupFixtures);
  it("writes exactly the fixture's hand-written ranking (so the report tests render a real shape)", () => {
    const s = JSON.parse(readFileSync(join(fullShape(), 'summary.json'), 'utf8'));
    const variants: RankableVariant[] = s.variants.map((v: { name: string; points: Array<RankablePoint & RankablePoint['measures']> }) => ({
      name: v.name,
      points: v.points.map((p) => ({ point: p.point, values: p.values, runs: p.runs, recoveredFraction: p.recoveredFraction, measures: p })),
    }));
    const r = rankVariants(variants, { compare: { baseline: 'retries', at: { 'faults[0].duration': '5m' } }, parameters: s.sweep.parameters });
    expect(roundDeep(r)).toEqual(s.ranking);
  });
});

describe('rankingText (the lines `retrystorm run` prints after the table)', () => {
  it('lists each ranked point best first, with recovery, outage, savings, retry waves and relapses, then the longest recovered value', () => {
    const D = 'faults[0].duration';
    const r = rankVariants([
      v('as-is', pt({ values: { [D]: '12m' }, recoveredFraction: 0, recoveryTimeS: null, perceivedOutageS: 6000, relapses: 0, retryWaves: 4 })),
      v('both', pt({ values: { [D]: '12m' }, recoveryTimeS: 100, perceivedOutageS: 1500, relapses: 2 })),
    ], { parameters: [D] })!;
    expect(rankingText(r).split('\n')).toEqual([
      'ranking, best first (outage saved against as-is):',
      '  at faults[0].duration=12m',
      '    1.  both   recovered in 1m40s         perceived outage 25m    saves 1h15m (75%)                 relapsed 2x',
      '    2.  as-is  not recovered (0/4 seeds)  perceived outage 1h40m  baseline           4 retry waves',
      '  longest faults[0].duration at which every seed recovered: both 12m, as-is none',
    ]);
  });
});
