/**
 * The report's tipping-point chart: drawn only when the results hold a search, from the
 * search's own numbers (each tried value's share and Wilson interval, each variant's tipping
 * point and interval, in the axis unit), and it compiles and renders with vega in Node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import * as vega from 'vega';
import { planReport, specWithData } from '../../src/report/html/plan.js';
import { searchTippingPoint } from '../../src/experiment/search/design.js';
import { buildSearchResults, contradictions } from '../../src/results/search.js';
import { tippingSentence } from '../../src/report/search-view.js';
import { renderReportHtml } from '../../src/report/html/page.js';
import { cleanupFixtures, small, type Fixture } from './fixtures.js';
import { syntheticCliff } from '../experiment/search/synthetic.js';

let s: Fixture;
beforeAll(async () => {
  s = await small();
});
afterAll(cleanupFixtures);

async function withSearch() {
  const search = { parameter: 'faults[0].duration', path: ['faults', 0, 'duration'], kind: 'duration' as const, from: 60, to: 1800, precision: 60, level: 0.5, budget: 200 };
  // Two variants: one with a cliff at 6m10s, one that survives the whole range.
  const found = [
    { variant: 'retries', result: await searchTippingPoint({ ...search }, syntheticCliff(1, 370, 10)) },
    { variant: 'no-retries', result: await searchTippingPoint({ ...search }, syntheticCliff(2, 5000, 10)) },
  ];
  const results = { ...s.bundle.results, search: buildSearchResults({ search, seed: 1, variants: found }) };
  return { bundle: { ...s.bundle, results }, found };
}

describe('the tipping-point chart', () => {
  it('is left out when there was no search', () => {
    expect(planReport(s.bundle).charts.map((c) => c.id)).not.toContain('tipping-points');
  });

  it('draws every tried value and each tipping point found, in minutes, and renders', async () => {
    const { bundle, found } = await withSearch();
    const plan = planReport(bundle);
    const chart = plan.charts.find((c) => c.id === 'tipping-points')!;
    expect(chart.title).toBe('Probability of recovering by faults[0].duration: where each variant tips');
    const retries = found[0].result;
    const tried = plan.datasets.search.filter((r) => r.variant === 'retries');
    expect(tried.map((r) => [r.x, r.p, r.lo, r.hi])).toEqual(retries.tried.map((t) => [expect.closeTo(t.value / 60, 4), t.recovered / t.runs, expect.closeTo(t.interval.lo, 5), expect.closeTo(t.interval.hi, 5)]));
    expect(plan.datasets.search.filter((r) => r.variant === 'no-retries')).toHaveLength(found[1].result.tried.length);
    // Only the variant with a crossing in the range has a marked tipping point.
    expect(plan.datasets.searchTipping).toEqual([expect.objectContaining({
      variant: 'retries', x: expect.closeTo(retries.estimate! / 60, 4), lo: expect.closeTo(retries.interval.lo! / 60, 4), hi: expect.closeTo(retries.interval.hi! / 60, 4), level: 0.5,
    })]);
    expect(retries.interval.lo! / 60).toBeLessThanOrEqual(370 / 60);
    const view = new vega.View(vega.parse(compile(specWithData(plan, chart)).spec), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('probability of recovering');
    expect(svg).toContain('faults[0].duration (min)');
  });

  it('is on the page, with the tipping points in words', async () => {
    const { bundle } = await withSearch();
    const html = renderReportHtml(bundle);
    expect(html).toContain('where each variant tips');
  });
});

describe('a tipping point beside evidence against the monotone curve', () => {
  const search = { parameter: 'faults[0].duration', kind: 'duration' as const, from: 60, to: 1800, level: 0.5, precision: 60, budget: 200, seed: 1 };
  const tried = (value: number, recovered: number, runs: number, lo: number, hi: number, side: 'before' | 'after' | 'open') => ({ value, recovered, runs, lo, hi, side });
  // Falling: recovers below the crossing (about 19m), fails above it. 1m recovered 1 of 8 (95%:
  // 2%-47%, wholly below the level): a short outage that surely fails, which a monotone curve
  // does not allow; the search trusts the nearer evidence and still reports the crossing.
  const variant = {
    variant: 'odd', direction: 'falling' as const, crossing: 'within' as const, estimate: 1167, lo: 1125, hi: 1200, runs: 96, stoppedBy: 'precision' as const,
    tried: [
      tried(60, 1, 8, 0.0224, 0.4709, 'open'),
      tried(495, 8, 8, 0.6756, 1, 'before'),
      tried(1125, 8, 8, 0.6756, 1, 'before'),
      tried(1200, 0, 8, 0, 0.3244, 'after'),
      tried(1800, 0, 8, 0, 0.3244, 'after'),
    ],
  };
  const results = { ...search, variants: [variant] };

  it('lists the values that go against it, and only those', () => {
    expect(contradictions(results, variant).map((t) => t.value)).toEqual([60]);
    expect(tippingSentence(results, variant)).toBe(
      'survives outages up to 19m27s (95%: 18m45s–20m), 96 runs; 1m (1 of 8 recovered) goes against a monotone curve: the tipping point may be wrong, see the tried values',
    );
  });

  it('says no tipping point was found when the fit never crosses the level (it gave the middle of the range)', () => {
    const none = { ...variant, estimate: null, lo: null, hi: null, stoppedBy: 'budget' as const, runs: 20, tried: [tried(60, 4, 4, 0.51, 1, 'open'), tried(1800, 4, 4, 0.51, 1, 'open')] };
    expect(tippingSentence(results, none)).toBe('has no tipping point found (95%: from below 1m to above 30m): the monotone fit of the tried values never crosses 50%, 20 runs; the budget ran out before the precision asked (1m)');
  });

  it('says nothing more when every tried value agrees, on either side of a rising curve too', () => {
    const fine = { ...variant, tried: variant.tried.slice(1) };
    expect(contradictions(results, fine)).toEqual([]);
    expect(tippingSentence(results, fine)).toBe('survives outages up to 19m27s (95%: 18m45s–20m), 96 runs');
    // Rising (more slots, more recoveries): failing below the bracket and recovering above it agree.
    const rising = { ...fine, direction: 'rising' as const, tried: [tried(1, 0, 8, 0, 0.3244, 'before'), tried(20, 8, 8, 0.6756, 1, 'after')], lo: 1, hi: 20 };
    expect(contradictions(results, rising)).toEqual([]);
    // ... and recovering below it does not.
    const against = { ...rising, tried: [tried(1, 8, 8, 0.6756, 1, 'open'), tried(20, 8, 8, 0.6756, 1, 'after')] };
    expect(contradictions(results, against).map((t) => t.value)).toEqual([1]);
  });
});
