/**
 * rankVariants: healthy-before-the-fault first, then the objectives in order (recovered,
 * recovery time with "not recovered" last, perceived outage, then the costs), read at each
 * measure's tie tolerance; shared ranks for ties; which objective decided each place; the savings
 * against the baseline; `at`; and how far each variant recovers ("recovers up to"): the longest
 * swept duration such that every seed recovered at it and at every shorter one.
 */
import { describe, expect, it } from 'vitest';
import { rankVariants, tied } from '../../src/experiment/ranking.js';
import type { PointAggregate, VariantAggregate } from '../../src/experiment/aggregate.js';
import { aggregatePoint, variant, type Means } from '../helpers/aggregates.js';
import { MEASURES } from '../../src/measures/registry.js';
import { rankingText } from '../../src/report/table.js';

type Values = Means;
const M0: Values = {
  healthyBeforeTrigger: 1, recovered: 1, recoveryTimeS: 60, perceivedOutageS: 600, peakLoadMultiple: 2, excessAttempts: 1000, wastedWorkShare: 0.1,
  attemptsPerAction: 1.5, successRatio: 0.9, originalSuccessAfterFault: 0.8, retryWaves: 0, relapses: 0, retryShareAtPeak: 0.5,
};

interface Over { runs?: number; point?: number; values?: Record<string, string | number>; [measure: string]: number | null | undefined | Record<string, string | number> }

/** One point of a variant, with these means across its seeds. */
function pt(over: Over = {}): PointAggregate {
  const { runs = 4, point = 0, values = {}, ...m } = over;
  return aggregatePoint({ ...M0, ...m } as Values, { runs, point, values });
}
const v = variant;
const rank = (variants: VariantAggregate[], compare?: Parameters<typeof rankVariants>[2]['compare'], parameters: string[] = []) => rankVariants(variants, MEASURES, { compare, parameters })!;
const order = (r: ReturnType<typeof rank>, i = 0) => r.points[i].entries.map((e) => `${e.rank} ${e.variant}`);
const decided = (r: ReturnType<typeof rank>, i = 0) => r.points[i].entries.map((e) => e.decidedBy);
const NEVER = { recovered: 0, recoveryTimeS: null };

describe('rankVariants: order', () => {
  it('puts every seed recovered first, then the shortest recovery, with "not recovered" last, and says what decided', () => {
    const r = rank([
      v('never', pt({ ...NEVER, perceivedOutageS: 100 })),
      v('mostly', pt({ recovered: 0.75, recoveryTimeS: null, perceivedOutageS: 50 })),
      v('slow', pt({ recoveryTimeS: 300, perceivedOutageS: 900 })),
      v('fast', pt({ recoveryTimeS: 30, perceivedOutageS: 2000 })),
    ]);
    expect(order(r)).toEqual(['1 fast', '2 slow', '3 mostly', '4 never']);
    expect(decided(r)).toEqual([null, 'recoveryTimeS', 'recovered', 'recovered']);
  });

  it('ranks a variant unhealthy before the fault below every healthy one, however well it "recovers"', () => {
    // The server probe: Vegas at its defaults and a contention model fail before any fault and
    // "recover in 0 s"; adaptive LIFO serves 87% and takes two minutes.
    const r = rank([
      v('vegas-defaults', pt({ healthyBeforeTrigger: 0, recoveryTimeS: 0, perceivedOutageS: 14000 })),
      v('contention', pt({ healthyBeforeTrigger: 0.5, recoveryTimeS: 0, perceivedOutageS: 14000 })),
      v('adaptive-lifo', pt({ recoveryTimeS: 120, perceivedOutageS: 120, successRatio: 0.87 })),
    ]);
    expect(order(r)).toEqual(['1 adaptive-lifo', '2 vegas-defaults', '2 contention']);
    expect(decided(r)).toEqual([null, 'healthyBeforeTrigger', null]);
    expect(r.points[0].entries.map((e) => e.healthyBefore)).toEqual([true, false, false]);
  });

  it('breaks ties on recovery and outage by cost: peak load, then excess load, wasted work, attempts per action', () => {
    const tie = { ...NEVER, perceivedOutageS: 55 };
    const r = rank([
      v('fixed', pt({ ...tie, peakLoadMultiple: 12.8, excessAttempts: 22214 })),
      v('spread', pt({ ...tie, peakLoadMultiple: 12.8, excessAttempts: 10458 })),
      v('calm', pt({ ...tie, peakLoadMultiple: 6 })),
    ]);
    expect(order(r)).toEqual(['1 calm', '2 spread', '3 fixed']);
    expect(decided(r)).toEqual([null, 'peakLoadMultiple', 'excessAttempts']);
  });

  it('reads each objective within its tie tolerance: 10 s or 5% for durations, a percent for shares', () => {
    // The flagship at 12 minutes with seed 1 alone: the client ceiling is back 10 s before all
    // the defences, a tie; all the defences spare users three minutes of outage, which is not.
    const r = rank([
      v('client-ceiling', pt({ recoveryTimeS: 156, perceivedOutageS: 900 })),
      v('all-defences', pt({ recoveryTimeS: 166, perceivedOutageS: 720 })),
      v('slow', pt({ recoveryTimeS: 444, perceivedOutageS: 1200 })),
    ]);
    expect(order(r)).toEqual(['1 all-defences', '2 client-ceiling', '3 slow']);
    expect(decided(r)).toEqual([null, 'perceivedOutageS', 'recoveryTimeS']);
    const recovery = MEASURES.get('recoveryTimeS')!;
    expect(tied(recovery, 14, 4)).toBe(true); // within 10 s
    expect(tied(recovery, 15, 4)).toBe(false);
    expect(tied(recovery, 1200, 1260)).toBe(true); // within 5%
    expect(tied(recovery, 1200, 1300)).toBe(false);
    expect(tied(recovery, null, null)).toBe(true);
    expect(tied(recovery, null, 0)).toBe(false);
    const success = MEASURES.get('successRatio')!;
    expect(tied(success, 0.478, 0.4775)).toBe(true);
    expect(tied(success, 0.478, 0.465)).toBe(false);
  });

  it('ties a variant with every variant of its rank, not through a chain of neighbours: 100, 109, 118, 127 s make two ranks', () => {
    // Each within 10 s of the one before, but 118 s is 18 s behind the best: chained, the four
    // would share one rank.
    const r = rank([
      v('A', pt({ recoveryTimeS: 100, perceivedOutageS: 900 })),
      v('B', pt({ recoveryTimeS: 109, perceivedOutageS: 900 })),
      v('C', pt({ recoveryTimeS: 118, perceivedOutageS: 900 })),
      v('D', pt({ recoveryTimeS: 127, perceivedOutageS: 900 })),
    ]);
    expect(order(r)).toEqual(['1 A', '1 B', '3 C', '3 D']);
    expect(decided(r)).toEqual([null, null, null, null]);
    // D 27 s behind A but 5 minutes shorter in outage: a trade-off with A (a draw: both weigh
    // what users feel), and better than B and C, which it ties on recovery: second.
    const traded = rank([
      v('A', pt({ recoveryTimeS: 100, perceivedOutageS: 900 })),
      v('B', pt({ recoveryTimeS: 109, perceivedOutageS: 900 })),
      v('C', pt({ recoveryTimeS: 118, perceivedOutageS: 900 })),
      v('D', pt({ recoveryTimeS: 127, perceivedOutageS: 600 })),
    ]);
    expect(order(traded)).toEqual(['1 A', '2 D', '3 B', '3 C']);
    expect(decided(traded)).toEqual([null, 'recoveryTimeS', 'perceivedOutageS', null]);
  });

  it('gives a measure that declares no tolerance its unit\'s default, and recovered none', () => {
    // Shares: one point (the diff's "retry share 21.3% -> 22.2%" is a tie).
    const retryShare = MEASURES.get('retryShare')!;
    expect(retryShare.tie).toBeUndefined();
    expect(tied(retryShare, 0.213, 0.2222)).toBe(true);
    expect(tied(retryShare, 0.213, 0.2235)).toBe(false);
    // Durations: 1 s or 5%.
    const lastTrigger = MEASURES.get('lastTriggerEndS')!;
    expect(tied(lastTrigger, 10, 11)).toBe(true); // within 1 s
    expect(tied(lastTrigger, 10, 11.5)).toBe(false);
    expect(tied(lastTrigger, 1000, 1049)).toBe(true); // within 5%
    expect(tied(lastTrigger, 1000, 1060)).toBe(false);
    // Queue waits declare 10 ms or 5%: "2ms -> 2ms" ties, 2 ms against 50 ms does not.
    const queueWait = MEASURES.get('meanQueueWaitS')!;
    expect(tied(queueWait, 0.002, 0.0021)).toBe(true);
    expect(tied(queueWait, 0.002, 0.05)).toBe(false);
    // Counts, multiples, plain numbers: 5%.
    const waves = MEASURES.get('retryWaves')!;
    expect(waves.tie).toBeUndefined();
    expect(tied(waves, 100, 104)).toBe(true);
    expect(tied(waves, 0, 1 / 3)).toBe(false);
    // A fraction of seeds has no tolerance: 199 of 200 seeds is not every seed.
    const recovered = MEASURES.get('recovered')!;
    expect(tied(recovered, 1, 199 / 200)).toBe(false);
    expect(tied(recovered, 2 / 3, 2 / 3)).toBe(true);
  });

  it('records what set each group apart, whatever order the deeper objectives leave inside it', () => {
    // b and c tie on recovery and are set apart from a by it; inside, c comes first on outage.
    const r = rank([v('a', pt({ recoveryTimeS: 10 })), v('b', pt({ recoveryTimeS: 300, perceivedOutageS: 900 })), v('c', pt({ recoveryTimeS: 301, perceivedOutageS: 100 }))]);
    expect(order(r)).toEqual(['1 a', '2 c', '3 b']);
    expect(decided(r)).toEqual([null, 'recoveryTimeS', 'perceivedOutageS']);
  });

  it('gives variants equal on every objective one rank (1, 2, 2, 4), in scenario order', () => {
    const r = rank([v('best', pt({ recoveryTimeS: 10 })), v('p', pt()), v('q', pt()), v('last', pt({ attemptsPerAction: 9 }))]);
    expect(order(r)).toEqual(['1 best', '2 p', '2 q', '4 last']);
    expect(decided(r)).toEqual([null, 'recoveryTimeS', null, 'attemptsPerAction']);
  });

  it('lists variants that tie on every objective, though not equal, in scenario order too', () => {
    // p, q and r are within every tolerance of each other (recovery 300, 305 and 302 s; peak
    // load 5.0, 4.9 and 5.1): one rank, listed as the scenario has them, not by the last sort.
    const r = rank([v('p', pt({ recoveryTimeS: 300, peakLoad: 5 })), v('q', pt({ recoveryTimeS: 305, peakLoad: 4.9 })), v('r', pt({ recoveryTimeS: 302, peakLoad: 5.1 }))]);
    expect(order(r)).toEqual(['1 p', '1 q', '1 r']);
  });

  it('follows compare.objectives when the scenario names its own order', () => {
    const r = rank([v('fast-costly', pt({ recoveryTimeS: 30, peakLoadMultiple: 9 })), v('slow-cheap', pt({ recoveryTimeS: 600, peakLoadMultiple: 1 }))], { objectives: ['peakLoadMultiple', 'recoveryTimeS'] });
    expect(order(r)).toEqual(['1 slow-cheap', '2 fast-costly']);
    expect(r.objectives).toEqual(['peakLoadMultiple', 'recoveryTimeS']);
  });

  it('leaves out a variant without runs at a point (an interrupted experiment), and a point where none ran', () => {
    const r = rank([v('a', pt({ point: 0 }), pt({ point: 1, runs: 0 })), v('b', pt({ point: 0, recoveryTimeS: 10, runs: 0 }), pt({ point: 1, runs: 0 }))]);
    expect(r.points.map((p) => p.point)).toEqual([0]);
    expect(order(r)).toEqual(['1 a']);
  });
});

describe('rankVariants: against the baseline', () => {
  const variants = [
    v('as-is', pt({ ...NEVER, perceivedOutageS: 4000 })),
    v('better', pt({ perceivedOutageS: 1000 })),
    v('worse', pt({ ...NEVER, perceivedOutageS: 5000 })),
  ];

  it('measures the perceived outage saved against the first variant by default, in seconds and as a share', () => {
    const r = rank(variants);
    expect(r.baseline).toBe('as-is');
    expect(r.at).toBeUndefined();
    const by = Object.fromEntries(r.points[0].entries.map((e) => [e.variant, [e.outageSavedS, e.outageSavedRatio]]));
    expect(by).toEqual({ 'as-is': [0, 0], better: [3000, 0.75], worse: [-1000, -0.25] });
  });

  it('uses compare.baseline, and gives no ratio when the baseline saw no outage', () => {
    const r = rank(variants, { baseline: 'better' });
    expect(r.points[0].entries.find((e) => e.variant === 'worse')).toMatchObject({ outageSavedS: -4000, outageSavedRatio: -4 });
    const calm = rank([v('a', pt({ perceivedOutageS: 0 })), v('b', pt({ perceivedOutageS: 30 }))]);
    expect(calm.points[0].entries.map((e) => [e.variant, e.outageSavedS, e.outageSavedRatio])).toEqual([['a', 0, null], ['b', -30, null]]);
  });

  it('carries the objectives and the measures the report shows next to the rank', () => {
    const e = rank([v('a', pt({ retryWaves: 3 }))]).points[0].entries[0];
    expect(Object.keys(e.values)).toEqual(['recovered', 'recoveryTimeS', 'perceivedOutageS', 'originalSuccessAfterFault', 'actionLatencyP99S', 'peakLoadMultiple', 'excessAttempts', 'wastedWorkShare', 'attemptsPerAction', 'successRatio', 'retryWaves', 'relapses', 'retryShareAtPeak']);
    expect(e.values.retryWaves).toBe(3);
  });
});

describe('rankVariants: sweep points', () => {
  const D = 'faults[0].duration';
  const swept = (name: string, recovered: boolean[], extra: Values = {}) =>
    v(name, ...['1m', '6m', '12m'].map((d, i) => pt({ point: i, values: { [D]: d }, recovered: recovered[i] ? 1 : 0.5, recoveryTimeS: recovered[i] ? 60 : null, ...extra })));

  it('ranks every point on its own by default, and only the points `at` picks (by meaning: 60s is 1m)', () => {
    const variants = [swept('a', [true, true, false]), swept('b', [true, false, true], { recoveryTimeS: 30 })];
    const all = rank(variants, undefined, [D]);
    expect(all.points.map((p) => [p.point, p.values[D], order({ ...all, points: [p] })])).toEqual([
      [0, '1m', ['1 b', '2 a']],
      [1, '6m', ['1 a', '2 b']],
      [2, '12m', ['1 b', '2 a']],
    ]);
    const at = rank(variants, { at: { [D]: '60s' } }, [D]);
    expect(at.at).toEqual({ [D]: '60s' });
    expect(at.points.map((p) => p.values)).toEqual([{ [D]: '1m' }]);
  });

  it('gives each variant the longest swept duration up to which every seed recovered at every value, null when none', () => {
    const r = rank([swept('all', [true, true, true]), swept('short', [true, false, false]), swept('never', [false, false, false])], undefined, [D]);
    expect(r.longestRecoveredParameter).toBe(D);
    expect(Object.fromEntries(r.points[0].entries.map((e) => [e.variant, e.longestRecovered]))).toEqual({ all: '12m', short: '1m', never: null });
  });

  it('makes "recovers up to" a threshold when recovery is not monotone in the swept duration', () => {
    // A response acted on late: 2 of 3 seeds at 6m and at 12m, every seed at 1m and 30m.
    // "Recovers up to 30m" beside "not recovered (2/3 seeds)" at 12m contradicted itself: a
    // failure at a shorter value caps it.
    const lengths = ['1m', '6m', '12m', '30m'];
    const story = v('story', ...lengths.map((d, i) => pt({ point: i, values: { [D]: d }, runs: 3, recovered: i === 1 || i === 2 ? 2 / 3 : 1, recoveryTimeS: i === 1 || i === 2 ? null : 60 })));
    // Every seed fails at the shortest, and recovers at every longer one: no threshold at all.
    const late = v('late', ...lengths.map((d, i) => pt({ point: i, values: { [D]: d }, runs: 3, recovered: i === 0 ? 1 / 3 : 1, recoveryTimeS: i === 0 ? null : 60 })));
    // The sweep's order is not the lengths' order: the threshold reads them shortest first.
    const shuffled = v('shuffled', ...[3, 0, 2, 1].map((i) => pt({ point: i, values: { [D]: lengths[i] }, runs: 3, recovered: i === 3 ? 2 / 3 : 1 })));
    const r = rank([story, late, shuffled], undefined, [D]);
    const upTo = Object.fromEntries(r.points[0].entries.map((e) => [e.variant, e.longestRecovered]));
    expect(upTo).toEqual({ story: '1m', late: null, shuffled: '12m' });
    // Never above a point the same row shows as not recovered.
    const at12 = r.points.find((p) => p.values[D] === '12m')!.entries.find((e) => e.variant === 'story')!;
    expect(at12.values.recovered).toBeLessThan(1);
  });

  it('ends "recovers up to" at a swept value where the variant was unhealthy before the fault: a return to a broken state is no recovery', () => {
    const r = rank([v('broken', ...['1m', '6m', '12m'].map((d, i) => pt({ point: i, values: { [D]: d }, runs: 4, healthyBeforeTrigger: i === 0 ? 1 : 0, recoveryTimeS: 0 })))], undefined, [D]);
    expect(r.points[0].entries[0].longestRecovered).toBe('1m');
    const never = rank([v('never', ...['1m', '6m'].map((d, i) => pt({ point: i, values: { [D]: d }, runs: 4, healthyBeforeTrigger: 0, recoveryTimeS: 0 })))], undefined, [D]);
    expect(never.points[0].entries[0].longestRecovered).toBeNull();
  });

  it('ends "recovers up to" at a swept value without runs (an interrupted experiment): nothing is known there', () => {
    const r = rank([v('a', ...['1m', '6m', '12m'].map((d, i) => pt({ point: i, values: { [D]: d }, runs: i === 1 ? 0 : 4 })))], undefined, [D]);
    expect(r.points[0].entries[0].longestRecovered).toBe('1m');
  });

  it('has no longest value unless the sweep is one fault\'s length', () => {
    const load = rank([v('a', pt({ values: { load: 0.5 } }), pt({ point: 1, values: { load: 1.2 } }))], undefined, ['load']);
    expect(load.longestRecoveredParameter).toBeUndefined();
    expect('longestRecovered' in load.points[0].entries[0]).toBe(false);
    // When a fault starts is a duration too, but "recovers up to 12h" of a start time says nothing (aws-sdk-upgrade).
    const start = rank([v('a', pt({ values: { 'faults[0].at': '1h' } }), pt({ point: 1, values: { 'faults[0].at': '12h' } }))], undefined, ['faults[0].at']);
    expect(start.longestRecoveredParameter).toBeUndefined();
  });

  it('returns null with no variant at all', () => {
    expect(rankVariants([], MEASURES, { parameters: [] })).toBeNull();
  });
});

describe('rankingText (the lines `retrystorm run` prints after the table)', () => {
  it('lists each ranked point best first, with recovery, outage, peak, savings and what decided', async () => {
    const D = 'faults[0].duration';
    const ranking = rank([
      v('as-is', pt({ values: { [D]: '12m' }, ...NEVER, perceivedOutageS: 6000, peakLoadMultiple: 10.2 })),
      v('both', pt({ values: { [D]: '12m' }, recoveryTimeS: 100, perceivedOutageS: 1500 })),
    ], undefined, [D]);
    const results = { measures: MEASURES.all.map((m) => ({ key: m.key, label: m.label, unit: m.unit })), ranking } as never;
    expect(rankingText(results).split('\n')).toEqual([
      'ranking, best first (outage saved against as-is; objectives: recovered, recovery time, perceived outage, new users served, latency p99, peak load, excess load, wasted work share, attempts per action; one seed: no difference is judged against seed noise):',
      '  at faults[0].duration = 12m',
      // The hand-made aggregates carry no per-seed values: nothing is judged against seed noise, and the line says so.
      // The share saved is of the baseline's outage, said with its length (it read "75% of its outage").
      '    1.  both   recovered in 1m40s         perceived outage 25m    peak 2x     saves 1h15m (75% of as-is\'s 1h40m outage)',
      '    2.  as-is  not recovered (0/4 seeds)  perceived outage 1h40m  peak 10.2x  baseline                                   decided by recovered',
      '  recovers up to (every seed recovered at each faults[0].duration swept up to it): both 12m, as-is none',
    ]);
  });
});
