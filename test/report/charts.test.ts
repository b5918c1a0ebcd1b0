/**
 * Every chart spec the report can contain compiles with vega-lite and renders with vega in
 * Node, for the oldest summary.json shape and for one with every optional field (sweep,
 * intervals, histogram, expectations, fault windows, unknown CSV columns).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import * as vega from 'vega';
import { loadResults } from '../../src/report/html/results.js';
import { planReport, specWithData } from '../../src/report/html/plan.js';
import { cleanupFixtures, fullShape, oldShape } from './fixtures.js';

async function render(spec: Parameters<typeof compile>[0]): Promise<string> {
  const compiled = compile(spec);
  const view = new vega.View(vega.parse(compiled.spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

describe('planReport charts', () => {
  afterAll(cleanupFixtures);
  for (const [shape, make, ids] of [
    ['old summary.json', oldShape, ['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification']],
    ['full summary.json', fullShape, ['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification', 'recovery', 'extra']],
  ] as const) {
    it(`compiles and renders every chart (${shape})`, async () => {
      const plan = planReport(loadResults(make()));
      expect(plan.charts.map((c) => c.id)).toEqual(ids);
      for (const chart of plan.charts) {
        const svg = await render(specWithData(plan, chart));
        expect(svg, chart.id).toMatch(/^<svg/);
        expect(svg.length, chart.id).toBeGreaterThan(2000);
      }
    });
  }

  it('keeps one colour per variant, in scenario order, in every chart', () => {
    const plan = planReport(loadResults(fullShape()));
    const domains = new Set<string>();
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        const o = x as Record<string, unknown>;
        if (o.field === 'variant' && o.scale && typeof o.scale === 'object' && 'range' in o.scale) domains.add(JSON.stringify(o.scale));
        Object.values(o).forEach(walk);
      }
    };
    plan.charts.forEach((c) => walk(c.spec));
    expect([...domains]).toEqual([JSON.stringify({ domain: ['retries', 'no-retries', 'short-queue'], range: plan.ctx.colors })]);
  });

  it('draws the amplification histogram when summary.json has one, and the mean/p99/max otherwise', () => {
    const full = planReport(loadResults(fullShape()));
    expect(full.datasets.amplification.some((r) => r.stat === 'histogram')).toBe(true);
    const old = planReport(loadResults(oldShape()));
    expect(old.datasets.amplification.map((r) => r.stat)).toEqual(['mean', 'p99', 'max', 'mean', 'p99', 'max']);
  });

  it('shows non-recovered sweep points as not recovered, not as a number', () => {
    const plan = planReport(loadResults(fullShape()));
    const retries = plan.datasets.sweep.filter((r) => r.variant === 'retries');
    expect(retries.map((r) => [r.x, r.recovered, r.rt])).toEqual([[1, true, 0.5], [5, false, null], [10, false, null]]);
    expect(retries[1].recovery).toBe('not recovered');
  });
});
