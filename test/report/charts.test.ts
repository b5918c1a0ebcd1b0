/**
 * Every chart spec the report can contain compiles with vega-lite and renders with vega in
 * Node, for a one-point experiment and one with a sweep, seeds, populations and dead letters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import * as vega from 'vega';
import { planReport, specWithData } from '../../src/report/html/plan.js';
import { cleanupFixtures, full, small, type Fixture } from './fixtures.js';

async function render(spec: Parameters<typeof compile>[0]): Promise<string> {
  const compiled = compile(spec);
  const view = new vega.View(vega.parse(compiled.spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

let f: Fixture, s: Fixture;
beforeAll(async () => {
  [f, s] = await Promise.all([full(), small()]);
});
afterAll(cleanupFixtures);

describe('planReport charts', () => {
  it('compiles and renders every chart of a one-point experiment and of a sweep', async () => {
    for (const [fixture, ids] of [
      [s, ['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification', 'extra']],
      [f, ['load', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification', 'recovery', 'extra']],
    ] as const) {
      const plan = planReport(fixture.bundle);
      expect(plan.charts.map((c) => c.id)).toEqual(ids);
      for (const chart of plan.charts) {
        const svg = await render(specWithData(plan, chart));
        expect(svg, chart.id).toMatch(/^<svg/);
        expect(svg.length, chart.id).toBeGreaterThan(2000);
      }
    }
  });

  it('keeps one colour per variant, in scenario order, in every chart', () => {
    const plan = planReport(f.bundle);
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

  it('draws the attempts-per-action distribution of the featured point', () => {
    const plan = planReport(f.bundle);
    const rows = plan.datasets.amplification.filter((r) => r.variant === 'retries');
    const hist = f.bundle.results.variants[0].points[1].attemptsHistogram;
    expect(rows.map((r) => [r.attempts, r.value])).toEqual(hist.flatMap((c, k) => (c > 0 ? [[k, c]] : [])));
  });

  it('shows non-recovered sweep points as not recovered, not as a number', () => {
    const plan = planReport(f.bundle);
    const retries = plan.datasets.sweep.filter((r) => r.variant === 'retries');
    expect(retries.map((r) => [r.label, r.recovered, r.rt])).toEqual([['30s', false, null], ['2m', false, null], ['5m', false, null]]);
    expect(retries[1].recovery).toBe('not recovered');
  });
});
