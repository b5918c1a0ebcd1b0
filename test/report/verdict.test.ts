/**
 * The verdict sentence (src/report/verdict.ts) and the share of the baseline's outage a variant
 * saves or costs (the terminal's ranking lines and the ranking table's cells), on rankings
 * made by rankVariants from hand-made aggregates: when the baseline's recovery time ties the
 * winner's, the sentence says which objective decided; "896.1% of its outage" says whose.
 */
import { describe, expect, it } from 'vitest';
import { rankVariants } from '../../src/experiment/ranking.js';
import type { PointAggregate, VariantAggregate } from '../../src/experiment/aggregate.js';
import { aggregatePoint, variant, type Means } from '../helpers/aggregates.js';
import { MEASURES } from '../../src/measures/registry.js';
import type { Results } from '../../src/results/results.js';
import { verdictSentence } from '../../src/report/verdict.js';
import { sweepSentence } from '../../src/report/sweep-verdict.js';
import { rankingText } from '../../src/report/table.js';
import { rankingCells, rankingColumns } from '../../src/report/ranking-view.js';

type Values = Means;
const M0: Values = {
  healthyBeforeTrigger: 1, recovered: 1, recoveryTimeS: 54, perceivedOutageS: 300, peakLoadMultiple: 2, excessAttempts: 1000, wastedWorkShare: 0.1,
  attemptsPerAction: 1.5, successRatio: 0.9, originalSuccessAfterFault: 0.8, retryWaves: 0, relapses: 0, retryShareAtPeak: 0.5, lastTriggerEndS: 1800,
};
type Over = { point?: number; values?: Record<string, string | number>; runs?: number } & Record<string, unknown>;

function pt(over: Over = {}): PointAggregate {
  const { runs = 3, point = 0, values = {}, ...m } = over;
  return aggregatePoint({ ...M0, ...m } as Values, { runs, point, values });
}
const v = variant;

/** A Results value with what the verdict reads: the measures' declarations, the ranking, the variants, the sweep. */
function results(variants: VariantAggregate[], compare?: Parameters<typeof rankVariants>[2]['compare'], parameter?: string): Results {
  const ranking = rankVariants(variants, MEASURES, { compare, parameters: parameter ? [parameter] : [] });
  const points = variants[0].points.map((p) => ({ index: p.point, values: p.values }));
  return {
    measures: MEASURES.all.map((m) => ({ key: m.key, label: m.label, unit: m.unit, better: m.better, doc: m.doc, cost: m.cost ?? false, inPopulationTable: m.inPopulationTable !== false })),
    ranking, variants, horizonS: 4 * 3600, subject: ['users'], populations: [{ name: 'users', route: 'default', role: 'user', contract: null }],
    sweep: parameter ? { parameters: [parameter], points } : null,
  } as never;
}

describe('the verdict when the baseline\'s recovery ties the winner\'s', () => {
  it('says the tie, and which objective decided and by how much', () => {
    // The small scenario that read "budget brings the service back in 54s; as-is takes 54s."
    const r = results([v('as-is', pt({ peakLoadMultiple: 7.51 })), v('budget', pt({ peakLoadMultiple: 5.08 }))]);
    expect(r.ranking!.points[0].entries.map((e) => [e.variant, e.decidedBy])).toEqual([['budget', null], ['as-is', 'peakLoadMultiple']]);
    expect(verdictSentence(r)).toBe('After the fault, budget brings the service back in 54s; as-is takes 54s too: a tie on recovery time, decided by peak load (5.08x against 7.51x).');
  });

  it('says "a tie" without "too" when the times differ within the tolerance, and names the objective that parted them, not the last one', () => {
    // as-is is back 6 s later (a tie: 10 s or 5%); its outage is 3 minutes longer, and its
    // peak load is even lower: perceived outage decided, not peak load.
    const r = results([
      v('as-is', pt({ recoveryTimeS: 60, perceivedOutageS: 480, peakLoadMultiple: 1.5 })),
      v('middle', pt({ recoveryTimeS: 57, perceivedOutageS: 300, peakLoadMultiple: 3 })),
      v('budget', pt({ recoveryTimeS: 54, perceivedOutageS: 300, peakLoadMultiple: 2 })),
    ]);
    expect(r.ranking!.points[0].entries.map((e) => [e.variant, e.decidedBy])).toEqual([['budget', null], ['middle', 'peakLoadMultiple'], ['as-is', 'perceivedOutageS']]);
    // as-is trades: it is better on peak load than budget, worse on outage; the sentence says both.
    expect(verdictSentence(r)).toBe('After the fault, budget brings the service back in 54s; as-is takes 1m: a tie on recovery time, decided by perceived outage (5m against 8m).');
  });

  it('keeps the plain clause when recovery time itself decided', () => {
    const r = results([v('as-is', pt({ recoveryTimeS: 300, peakLoadMultiple: 7.51 })), v('budget', pt({ peakLoadMultiple: 5.08 }))]);
    expect(verdictSentence(r)).toBe('After the fault, budget brings the service back in 54s; as-is takes 5m.');
  });

  it('says the baseline ranks below on another objective when recovery time is not ranked before it', () => {
    const r = results([v('as-is', pt({ recoveryTimeS: 30, peakLoadMultiple: 7.51 })), v('budget', pt({ peakLoadMultiple: 5.08 }))], { objectives: ['peakLoadMultiple', 'recoveryTimeS'] });
    expect(verdictSentence(r)).toBe('After the fault, budget brings the service back in 54s; as-is takes 30s, sooner, but ranks below on peak load (5.08x against 7.51x).');
  });
});

describe('the verdict when every variant was already failing', () => {
  it('says so, rather than that nothing brought the service back', () => {
    const r = results([v('as-is', pt({ healthyBeforeTrigger: 0, recovered: 0, recoveryTimeS: null })), v('fixed', pt({ healthyBeforeTrigger: 0, recoveryTimeS: 0 }))]);
    expect(verdictSentence(r)).toBe('After the fault, every variant is already unhealthy before the fault.');
  });
});

describe('the verdict states trade-offs and floors', () => {
  it('says what the runner-up is better on, and what the pick is better on', () => {
    // The flagship at 12 minutes (issue 35's figures): client-ceiling is back 16 s sooner;
    // all-defences has 3 minutes less outage, a lower peak and serves new users.
    const r = results([
      v('as-is', pt({ recovered: 0, recoveryTimeS: null, perceivedOutageS: 12000, peakLoadMultiple: 9, originalSuccessAfterFault: 0.1 })),
      v('client-ceiling', pt({ recoveryTimeS: 151, perceivedOutageS: 900, peakLoadMultiple: 7.62, originalSuccessAfterFault: 0.51 })),
      v('all-defences', pt({ recoveryTimeS: 167, perceivedOutageS: 720, peakLoadMultiple: 4.58, originalSuccessAfterFault: 0.98 })),
    ]);
    expect(r.ranking!.points[0].entries.map((e) => e.variant)).toEqual(['all-defences', 'client-ceiling', 'as-is']);
    expect(verdictSentence(r)).toBe(
      'After the fault, all-defences brings the service back in 2m47s; client-ceiling is better on recovery time (2m31s against 2m47s); '
      + 'all-defences on perceived outage (12m against 15m), new users served (98% against 51%) and peak load (4.58x against 7.62x); as-is does not recover within 3h30m.',
    );
  });

  it('names a variant that sacrifices a population, and ranks it below', () => {
    const pop = (name: string, x: number) => ({ name, measures: { preFaultSuccessRatio: { value: x, lo: null, hi: null } } });
    const withPops = (p: PointAggregate, signup: number) => Object.assign(p, { populations: [pop('signup', signup), pop('login', 1)] });
    const variants = [
      v('as-is', withPops(pt({ recoveryTimeS: 600 }), 1)),
      v('starving', withPops(pt({ recoveryTimeS: 0 }), 0.33)),
      v('fair', withPops(pt({ recoveryTimeS: 30 }), 0.99)),
    ];
    const ranking = rankVariants(variants, MEASURES, { parameters: [], protectedPopulations: ['signup', 'login'] });
    const r = { ...results(variants), ranking } as Results;
    expect(ranking!.points[0].entries.map((e) => e.variant)).toEqual(['fair', 'as-is', 'starving']);
    expect(verdictSentence(r)).toBe('After the fault, fair brings the service back in 30s; as-is takes 10m; starving sacrifices signup (success before the fault 33%; floor 97%, 3 points under as-is\'s), so it ranks below every variant healthy before the fault that meets its floors.');
  });
});

describe('the verdict across a sweep', () => {
  const D = 'faults[0].duration';
  const at = (i: number, d: string, m: Values) => pt({ point: i, values: { [D]: d }, ...m });
  it('says which variant is first at most points, its worst regret, and where the winner changes', () => {
    // fast wins at 1m (less outage); steady wins from 6m on; fast's outage at 12m is 10m more than steady's.
    const r = results([
      v('fast', at(0, '1m', { perceivedOutageS: 100 }), at(1, '6m', { perceivedOutageS: 900, recoveryTimeS: 600 }), at(2, '12m', { perceivedOutageS: 1500, recoveryTimeS: 900 })),
      v('steady', at(0, '1m', { perceivedOutageS: 200 }), at(1, '6m', { perceivedOutageS: 400 }), at(2, '12m', { perceivedOutageS: 900 })),
    ], undefined, D);
    expect(r.ranking!.acrossPoints).toEqual({ points: 3, variants: [
      { variant: 'steady', first: 2, ranked: 3, worstRegretS: 100 },
      { variant: 'fast', first: 1, ranked: 3, worstRegretS: 600 },
    ] });
    expect(sweepSentence(r)).toBe('Across the 3 ranked points, steady ranks first at 2 (at worst 1m40s more perceived outage than the best variant there); first at each point: fast at 1m, steady from 6m to 12m.');
  });

  it('leaves a control without a fault out of who is first across the sweep', () => {
    const control = (i: number, d: string) => at(i, d, { recoveryTimeS: 0, perceivedOutageS: 0, lastTriggerEndS: null });
    const r = results([
      v('healthy', control(0, '1m'), control(1, '6m')),
      v('fast', at(0, '1m', { perceivedOutageS: 100 }), at(1, '6m', { perceivedOutageS: 300 })),
      v('slow', at(0, '1m', { perceivedOutageS: 400, recoveryTimeS: 600 }), at(1, '6m', { perceivedOutageS: 900, recoveryTimeS: 900 })),
    ], undefined, D);
    expect(r.ranking!.acrossPoints!.variants.map((x) => [x.variant, x.first, x.worstRegretS])).toEqual([['fast', 2, 0], ['slow', 0, 600]]);
    expect(sweepSentence(r)).toBe('Across the 2 ranked points, fast ranks first at every one.');
  });

  it('says nothing with one ranked point', () => {
    expect(sweepSentence(results([v('a', pt()), v('b', pt({ recoveryTimeS: 300 }))]))).toBeNull();
  });
});

describe('"recovers up to" in the verdict: a threshold', () => {
  const D = 'faults[0].duration';
  const swept = (name: string, recovered: number[], extra: Values = {}) =>
    v(name, ...['1m', '6m', '12m'].map((d, i) => pt({ point: i, values: { [D]: d }, recovered: recovered[i], recoveryTimeS: recovered[i] >= 1 ? 54 : null, ...extra })));

  it('does not say "recovers from none" of a baseline that fails at the shortest length but recovers at a longer one', () => {
    const r = results([swept('as-is', [2 / 3, 1, 1], { peakLoadMultiple: 7.51 }), swept('budget', [1, 1, 1])], { at: { [D]: '12m' } }, D);
    const base = r.ranking!.points[0].entries.find((e) => e.variant === 'as-is')!;
    expect(base.longestRecovered).toBeNull();
    expect(verdictSentence(r)).toBe('At a 12-minute fault, budget brings the service back in 54s; as-is takes 54s too: a tie on recovery time, decided by peak load (2x against 7.51x), and it does not recover in every seed even from the shortest swept length, 1m.');
  });

  it('says where the baseline first stops recovering in every seed, whatever it does at longer lengths', () => {
    // A response acted on late: 2 of 3 seeds at 6m, every seed at 12m again.
    const r = results([swept('as-is', [1, 2 / 3, 1]), swept('budget', [1, 1, 1], { peakLoadMultiple: 1 })], { at: { [D]: '12m' } }, D);
    expect(r.ranking!.points[0].entries.map((e) => [e.variant, e.longestRecovered])).toEqual([['budget', '12m'], ['as-is', '1m']]);
    expect(verdictSentence(r)).toMatch(/, and it stops recovering between 1m and 6m of outage\.$/);
  });
});

describe('the share of the baseline\'s outage saved or cost', () => {
  // as-is: a 5-minute perceived outage; slow's is 49m48s, 44m48s more (896% of as-is's).
  const r = results([v('as-is', pt({ perceivedOutageS: 300, recoveryTimeS: 60 })), v('slow', pt({ perceivedOutageS: 2988, recoveryTimeS: 600 }))]);

  it('says whose outage it is a share of in the terminal: the baseline\'s, with its length', () => {
    const lines = rankingText(r).split('\n');
    expect(lines[2]).toMatch(/^ {2}2\. +slow +recovered in 10m +perceived outage 49m48s +peak 2x +costs 44m48s \(896% of as-is's 5m outage\) +decided by recovery time$/);
    expect(rankingText(r)).not.toContain('of its outage');
  });

  it('says so in the ranking table\'s cell (summary.md, report.html)', () => {
    const e = r.ranking!.points[0].entries.find((x) => x.variant === 'slow')!;
    expect(rankingCells(r, e).find((c) => c.key === 'outageSavedS')!.text).toBe('−44m48s (−896% of as-is\'s 5m outage)');
  });

  it('defines "recovers up to" as a threshold wherever the ranking is shown', () => {
    const D = 'faults[0].duration';
    const s = results([v('as-is', pt({ point: 0, values: { [D]: '1m' } }), pt({ point: 1, values: { [D]: '6m' } }))], undefined, D);
    const col = rankingColumns(s).find((c) => c.key === 'longestRecovered')!;
    expect(col.definition).toContain('every seed recovered at it and at every shorter one swept');
    expect(rankingText(s)).toContain('recovers up to (every seed recovered at each faults[0].duration swept up to it): as-is 6m');
  });
});

describe('the verdict beside a control without a fault', () => {
  it('names the best of the variants that had a fault, and says which had none (a control "recovers" in 0 s by definition)', () => {
    // partial-failures' "healthy" has no fault: it ranked first and the verdict said "healthy brings the service back in 0s".
    const r = results([
      v('as-is', pt({ recoveryTimeS: 400, perceivedOutageS: 900 })),
      v('healthy', pt({ recoveryTimeS: 0, perceivedOutageS: 0, lastTriggerEndS: null })),
      v('fixed', pt({ recoveryTimeS: 60, perceivedOutageS: 120 })),
    ]);
    expect(r.ranking!.points[0].entries[0].variant).toBe('healthy');
    expect(verdictSentence(r)).toBe('After the fault, fixed brings the service back in 1m; as-is takes 6m40s; healthy had no fault to recover from.');
  });

  it('says no more of a baseline that is the control than that it had no fault', () => {
    const r = results([
      v('healthy', pt({ recoveryTimeS: 0, perceivedOutageS: 0, lastTriggerEndS: null })),
      v('as-is', pt({ recoveryTimeS: 400, perceivedOutageS: 900 })),
    ]);
    expect(verdictSentence(r)).toBe('After the fault, as-is brings the service back in 6m40s; healthy had no fault to recover from.');
  });

  it('leaves the sentence as it was when every variant had a fault, or none had', () => {
    const all = results([v('as-is', pt({ recoveryTimeS: 400 })), v('fixed', pt({ recoveryTimeS: 60 }))]);
    expect(verdictSentence(all)).toBe('After the fault, fixed brings the service back in 1m; as-is takes 6m40s.');
  });
});

describe('the verdict when the run ends before a recovery could last the hold', () => {
  /** The 4-hour results above, with the hold a recovery must last. */
  const withHold = (variants: Array<VariantAggregate & { horizonS?: number; holdS?: number }>, holdS: number) => ({ ...results(variants), measureSettings: { holdS } }) as Results;
  const neverBack = (lastTriggerEndS: number) => pt({ recovered: 0, recoveryTimeS: null, lastTriggerEndS });

  it('says recovery cannot be judged, not that the service did not recover (a metastable failure)', () => {
    // The fault ends a minute before the horizon: no run can stay healthy for 5 minutes after it.
    const end = 4 * 3600 - 60;
    const r = withHold([v('as-is', neverBack(end)), v('fixed', neverBack(end))], 300);
    expect(verdictSentence(r)).toBe('After the fault, recovery cannot be judged: the run ends 1m after the fault, less than the 5m hold a recovery must last (lengthen the horizon).');
  });

  it('says it of the baseline alone when only its own window is short', () => {
    // The baseline's fault ends later than the winner's (its own fault, or its own horizon).
    const r = withHold([v('as-is', neverBack(4 * 3600 - 120)), v('fixed', pt({ recoveryTimeS: 60 }))], 300);
    expect(verdictSentence(r)).toBe('After the fault, fixed brings the service back in 1m; as-is\'s recovery cannot be judged: the run ends 2m after the fault, less than the 5m hold a recovery must last (lengthen the horizon).');
  });

  it('whatever the order, says "cannot be judged" only when no variant was watched a hold after its fault', () => {
    // long has its own 8-hour horizon: it was watched 4 h after the fault and stayed down.
    const end = 4 * 3600 - 60;
    const short = v('short', neverBack(end));
    const long = { ...v('long', neverBack(end)), horizonS: 8 * 3600 };
    for (const order of [[short, long], [long, short]]) {
      expect(verdictSentence(withHold(order, 300))).toBe('After the fault, no variant brings the service back within 4h1m (short\'s recovery cannot be judged: the run ends 1m after the fault, less than the 5m hold a recovery must last (lengthen the horizon)).');
    }
  });

  it('reads a variant\'s own hold', () => {
    // quick's overlay holds 30 s: its 1 minute after the fault was enough to judge.
    const end = 4 * 3600 - 60;
    const r = withHold([v('as-is', neverBack(end)), { ...v('quick', neverBack(end)), holdS: 30 }], 300);
    expect(verdictSentence(r)).toBe('After the fault, no variant brings the service back within 1m (as-is\'s recovery cannot be judged: the run ends 1m after the fault, less than the 5m hold a recovery must last (lengthen the horizon)).');
  });

  it('says no variant restored its users while a fault that outlasts the run went on (recovery is judged during it)', () => {
    const r = withHold([v('as-is', neverBack(5 * 3600)), v('fixed', neverBack(4 * 3600))], 300);
    expect(verdictSentence(r)).toBe('After the fault, no variant\'s users are restored while the fault goes on (to the end of the run, 4h).');
    // One restored during it is the winner, and the baseline says it was not.
    const during = withHold([v('as-is', neverBack(5 * 3600)), v('switch', pt({ recoveryTimeS: 14400, lastTriggerEndS: 5 * 3600 }))], 300);
    expect(verdictSentence(during)).toBe('After the fault, switch brings the service back in 4h; as-is is not restored while the fault goes on (to the end of the run, 4h).');
  });

  it('still says "does not recover within" when the window held the hold', () => {
    const r = withHold([v('as-is', neverBack(1800)), v('fixed', pt({ recoveryTimeS: 60 }))], 300);
    expect(verdictSentence(r)).toBe('After the fault, fixed brings the service back in 1m; as-is does not recover within 3h30m.');
  });
});
