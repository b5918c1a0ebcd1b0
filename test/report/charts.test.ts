/**
 * Every chart spec the report can contain compiles with vega-lite and renders with vega in
 * Node, for a one-point experiment and one with a sweep, seeds, populations and dead letters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from 'vega-lite';
import * as vega from 'vega';
import { attemptBins, planReport, specWithData } from '../../src/report/html/plan.js';
import { decadeTicks, variantColors } from '../../src/report/charts/common.js';
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
      [s, ['load', 'user-latency', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification']], // no give-ups, no dead letters: no other series
      [f, ['load', 'user-latency', 'attempts', 'goodput', 'latency', 'failures', 'queue', 'amplification', 'recovery', 'heatmap', 'populations', 'extra']],
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

  it('draws recovery times on a symlog axis when one is hours and the rest minutes, so every recovered point stands clear of zero (issue 40)', async () => {
    const recoverySpec = (bundle: Fixture['bundle']) => {
      const plan = planReport(bundle);
      const chart = plan.charts.find((c) => c.id === 'recovery')!;
      const scales: Array<Record<string, unknown>> = [];
      const walk = (x: unknown): void => {
        if (Array.isArray(x)) x.forEach(walk);
        else if (x && typeof x === 'object') {
          const o = x as Record<string, unknown>;
          if (o.field === 'rt' && o.scale) scales.push(o.scale as Record<string, unknown>);
          Object.values(o).forEach(walk);
        }
      };
      walk(chart.spec);
      return { plan, chart, scales, rows: plan.datasets.sweep as Array<{ variant: string; rt: number | null }> };
    };
    // The fixture as it is: recovery times of the same order, a linear axis from 0.
    expect(recoverySpec(f.bundle).scales).toEqual([{ zero: true }]);
    // One variant back only after 3 hours at its longest outage: the story's response in the flagship.
    const results = structuredClone(f.bundle.results);
    const outlier = results.variants[1].points.at(-1)!; // no-retries at 5m: not recovered in the fixture
    outlier.measures.recoveryTimeS = { value: 3 * 3600, lo: null, hi: null };
    outlier.measures.recovered = { value: 1, lo: 1, hi: 1 };
    const { chart, scales, rows } = recoverySpec({ ...f.bundle, results });
    expect(scales).toEqual([{ type: 'symlog', constant: 1 }]);
    expect(chart.caption).toContain('logarithmic above');
    // Where each point of a minute or more sits on the 220 px plot, by vega's symlog
    // (sign(x) log1p(|x| / constant)): clear of zero, where a linear axis put the fixture's
    // 2m20s within 3 px of it.
    const times = rows.map((r) => r.rt).filter((t): t is number => t !== null && t >= 1);
    const top = Math.max(...times);
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (const t of times) expect(220 * (Math.log1p(t) / Math.log1p(top)), `${t}`).toBeGreaterThan(20);
    expect(220 * (Math.min(...times) / top)).toBeLessThan(8);
    const svg = await render(specWithData(planReport({ ...f.bundle, results }), chart));
    expect(svg).toMatch(/^<svg/);
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

  it('draws the attempts-per-action distribution of the featured point, binned from 6 attempts on', () => {
    const plan = planReport(f.bundle);
    const rows = plan.datasets.amplification.filter((r) => r.variant === 'retries');
    const hist = f.bundle.results.variants[0].points[1].attemptsHistogram;
    const sum = (from: number, to: number) => hist.slice(from, to + 1).reduce((a, x) => a + x, 0);
    const expected = attemptBins(hist.length - 1).map((b) => [b.label, sum(b.from, b.to)]).filter(([, c]) => (c as number) > 0);
    expect(rows.map((r) => [r.bin, r.value])).toEqual(expected);
    expect(rows.reduce((a, r) => a + (r.share as number), 0)).toBeCloseTo(1, 9);
  });

  it('bins attempts so that labels stay few: one per count up to 5, then 6–10, 11–20, 21–50, 51–100', () => {
    expect(attemptBins(3).map((b) => b.label)).toEqual(['1', '2', '3']);
    expect(attemptBins(90).map((b) => b.label)).toEqual(['1', '2', '3', '4', '5', '6–10', '11–20', '21–50', '51–100']);
    expect(attemptBins(250).slice(-2).map((b) => b.label)).toEqual(['101–200', '201–500']);
  });

  it('fixes the log axes at whole decades that cover the data, and lists only failure causes that occur', () => {
    expect(decadeTicks(1, 1500, true)).toEqual({ domain: [0, 10000], values: [0, 1, 10, 100, 1000, 10000] });
    expect(decadeTicks(3.2, 12000, false)).toEqual({ domain: [1, 100000], values: [1, 10, 100, 1000, 10000, 100000] });
    // A column with no positive value (nothing queued in any run): one decade, not an endless tick loop.
    expect(decadeTicks(Infinity, -Infinity, false)).toEqual({ domain: [1, 10], values: [1, 10] });
    expect(decadeTicks(Infinity, 0, true)).toEqual({ domain: [0, 1], values: [0, 1] });
    const plan = planReport(f.bundle);
    const queue = plan.charts.find((c) => c.id === 'queue')!;
    const ticks = JSON.stringify(queue.spec).match(/"values":\[([\d,]+)\]/)![1].split(',').map(Number);
    expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(plan.ctx.extents!.queue_len.max);
    const failures = plan.series!.failureColumns;
    expect(failures.length).toBeGreaterThan(0);
    for (const c of failures) expect(plan.series!.variants.some((v) => v.data[c].some((x) => (x ?? 0) > 0)), c).toBe(true);
    const all = f.bundle.results.columns.run.filter((c) => c.name.startsWith('fail_')).length;
    expect(failures.length).toBeLessThan(all);
  });

  it('shows non-recovered sweep points as not recovered, not as a number', () => {
    const plan = planReport(f.bundle);
    const retries = plan.datasets.sweep.filter((r) => r.variant === 'retries');
    expect(retries.map((r) => [r.label, r.recovered, r.rt])).toEqual([['30s', false, null], ['2m', false, null], ['5m', false, null]]);
    expect(retries[1].recovery).toBe('not recovered');
  });

  it('puts a sweep point unhealthy before the fault with those not recovered, not on the curve as a fast recovery', () => {
    // server-defences' contention, broken before its fault, "recovered" at once: it was drawn as a flat 0 s line.
    const bundle = structuredClone(f.bundle);
    const v = bundle.results.variants.find((x) => x.name !== 'retries')!;
    for (const p of v.points) {
      p.measures.healthyBeforeTrigger = { ...p.measures.healthyBeforeTrigger!, value: 0 };
      p.measures.recovered = { ...p.measures.recovered!, value: 1 };
      p.measures.recoveryTimeS = { ...p.measures.recoveryTimeS!, value: 0, lo: 0, hi: 0 };
    }
    const plan = planReport(bundle);
    const rows = plan.datasets.sweep.filter((r) => r.variant === v.name);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([r.recovered, r.rt, r.recovery]).toEqual([false, null, 'unhealthy before the fault']);
  });

  it('gives the heatmap one cell per variant, point and measure, scored best 0 to worst 1, with its own status for not recovered', () => {
    const plan = planReport(f.bundle);
    const rows = plan.datasets.heatmap;
    const r = f.bundle.results;
    const measures = [...new Set(rows.map((x) => x.measure as string))];
    expect(measures).toEqual(['recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'successRatio', 'wastedWorkShare']);
    expect(rows).toHaveLength(measures.length * r.variants.length * r.sweep!.points.length);
    const rt = rows.filter((x) => x.measure === 'recoveryTimeS');
    expect(rt.filter((x) => x.variant === 'retries').map((x) => [x.point, x.status, x.text])).toEqual([['30s', 'not recovered', 'not recovered'], ['2m', 'not recovered', 'not recovered'], ['5m', 'not recovered', 'not recovered']]);
    for (const m of measures) {
      const ok = rows.filter((x) => x.measure === m && x.status === 'ok').map((x) => x.score as number);
      expect(Math.min(...ok), m).toBe(0);
      expect(Math.max(...ok), m).toBe(1);
    }
    // Higher success is better: the best success cell scores 0.
    const success = rows.filter((x) => x.measure === 'successRatio');
    const best = success.reduce((a, x) => (r.variants.find((v) => v.name === x.variant)!.points.find((p) => p.values['faults[0].duration'] === x.point)!.measures.successRatio.value! > r.variants.find((v) => v.name === a.variant)!.points.find((p) => p.values['faults[0].duration'] === a.point)!.measures.successRatio.value! ? x : a));
    expect(best.score).toBe(0);
  });

  it('draws each population\'s success and perceived outage at the compared point, attackers named', () => {
    const plan = planReport(f.bundle);
    const rows = plan.datasets.populations;
    const r = f.bundle.results;
    const at = r.variants.map((v) => v.points.find((p) => p.point === plan.featured)!);
    expect(rows).toHaveLength(r.variants.length * r.populations.length);
    expect([...new Set(rows.map((x) => x.population))]).toEqual(['app', 'worker (internal)', 'scraper (attacker)']);
    r.variants.forEach((v, i) => {
      for (const scope of at[i].populations) {
        const row = rows.find((x) => x.variant === v.name && String(x.population).startsWith(scope.name))!;
        expect(row.success).toBe(scope.measures.successRatio.value);
        expect(row.outageMin).toBeCloseTo(scope.measures.perceivedOutageS.value! / plan.ctx.time.divisor, 9);
      }
    });
  });
});

describe('variant colours', () => {
  it('gives each of up to 13 variants its own colour (the flagship has 10), the same colour to the same variant every time', () => {
    const colours = variantColors(13);
    expect(new Set(colours).size).toBe(13);
    expect(variantColors(10)).toEqual(colours.slice(0, 10));
    expect(colours.every((c) => /^#[0-9A-F]{6}$/.test(c))).toBe(true);
  });
});
