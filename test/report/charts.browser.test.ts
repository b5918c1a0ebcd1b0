/**
 * The charts' interactions in real Chromium, asserted on what vega rendered (its scenegraph),
 * never on timing: a click on a legend entry isolates a variant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { planReport } from '../../src/report/html/plan.js';
import { formatValue } from '../../src/measures/format.js';
import { cleanupFixtures, full, type Fixture } from './fixtures.js';
import { hasChromium, launch, nextFrames, openReport, release, skipNote } from './browser.js';

let f: Fixture;
let browser: Browser | undefined;
beforeAll(async () => {
  f = await full();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await release(browser);
  cleanupFixtures();
});

/** Per variant, the opacities of the rendered items of one mark type in a chart's view. */
export function opacities(page: Page, chart: string, marktype: string): Promise<Record<string, number[]>> {
  return page.evaluate(([id, type]) => {
    const out: Record<string, number[]> = {};
    type Node = { marktype?: string; items?: Node[]; datum?: { variant?: string }; opacity?: number };
    const walk = (n: Node) => {
      if (n.marktype === type) for (const it of n.items ?? []) if (it.datum?.variant) (out[it.datum.variant] ??= []).push(it.opacity ?? 1);
      for (const c of n.items ?? []) walk(c);
    };
    walk((globalThis as unknown as { __views: Record<string, { scenegraph: () => { root: Node } }> }).__views[id].scenegraph().root);
    return out;
  }, [chart, marktype] as const);
}

/**
 * One page for the three tests, opened by whichever runs first (an open costs Chromium about
 * 2.6 s of CPU, docs/testing.md). They run in an order that leaves each the state it starts
 * from: the legend test puts every variant back (and checks it), the heatmap test changes only
 * the heatmap's measure, and the sweep test, which changes the point and the variant filter,
 * runs last. Each first checks the state it starts from, so a test that left the page changed
 * fails there, not somewhere unexplained.
 */
let opened: ReturnType<typeof openReport> | undefined;
const shared = () => (opened ??= openReport(browser!, f.dir, { width: 1400, height: 900 }));

describe('chart interactions', () => {
  it.skipIf(!hasChromium)(`isolates a variant when its legend entry is clicked, and shows all again on a double-click${skipNote}`, async () => {
    const { page, watch } = await shared();
    const variants = f.bundle.results.variants.map((v) => v.name);
    for (const chart of ['load', 'user-latency', 'goodput', 'latency', 'queue', 'recovery']) {
      const before = await opacities(page, chart, 'line');
      expect(Object.keys(before).sort(), chart).toEqual([...variants].sort());
      for (const v of variants) expect(before[v].every((o) => o === 1), `${chart} ${v} before`).toBe(true);

      const legend = page.locator(`#chart-${chart} svg .role-legend-label text`, { hasText: /^no-retries$/ });
      await legend.first().click();
      await nextFrames(page);
      const after = await opacities(page, chart, 'line');
      expect(after['no-retries'].every((o) => o === 1), `${chart}: the picked variant stays`).toBe(true);
      for (const v of variants.filter((x) => x !== 'no-retries')) expect(after[v].every((o) => o === 0), `${chart}: ${v} is hidden`).toBe(true);

      // A double-click on the plot clears the selection (vega-lite's default "clear" event).
      const plot = (await page.locator(`#chart-${chart} svg.marks`).boundingBox())!;
      await page.mouse.dblclick(plot.x + plot.width / 2, plot.y + plot.height * 0.6);
      await nextFrames(page);
      const again = await opacities(page, chart, 'line');
      for (const v of variants) expect(again[v].every((o) => o === 1), `${chart} ${v} shown again`).toBe(true);
    }
    expect(watch.problems).toEqual([]);
  });

  it.skipIf(!hasChromium)(`writes each variant's value in its heatmap cell, for the measure chosen under the chart${skipNote}`, async () => {
    const { page, watch } = await shared();
    const r = f.bundle.results;
    const cells = () => page.evaluate(() => {
      const out: Record<string, string> = {};
      type Node = { marktype?: string; items?: Node[]; datum?: { variant?: string; point?: string }; text?: string };
      const walk = (n: Node) => {
        if (n.marktype === 'text') for (const it of n.items ?? []) if (it.datum?.variant) out[`${it.datum.variant} ${it.datum.point}`] = String(it.text);
        for (const c of n.items ?? []) walk(c);
      };
      walk((globalThis as unknown as { __views: Record<string, { scenegraph: () => { root: Node } }> }).__views.heatmap.scenegraph().root);
      return out;
    });
    const expected = (key: string, format: (v: number | null) => string) => Object.fromEntries(r.variants.flatMap((v) => v.points.map((p) => [`${v.name} ${p.values['faults[0].duration']}`, format(p.measures[key].value)])));
    expect(await cells()).toEqual(expected('recoveryTimeS', (x) => (x === null ? 'not recovered' : formatValue('duration', x))));

    await page.selectOption('#chart-heatmap select', 'peakLoadMultiple');
    const peaks = expected('peakLoadMultiple', (x) => formatValue('multiple', x));
    await page.waitForFunction((want) => {
      const view = (globalThis as unknown as { __views: Record<string, { signal: (n: string) => string }> }).__views.heatmap;
      return view.signal('measure') === want;
    }, 'peakLoadMultiple');
    await nextFrames(page);
    expect(await cells()).toEqual(peaks);
    expect(watch.problems).toEqual([]);
  });

  it.skipIf(!hasChromium)(`redraws the time series with another sweep point's data when it is chosen, and filters variants${skipNote}`, async () => {
    const { page, watch } = await shared();
    const plan = planReport(f.bundle);
    type Row = Record<string, number | string | null>;
    const data = (chart: string, name: string) => page.evaluate(([c, n]) => (globalThis as unknown as { __views: Record<string, { data: (n: string) => Row[] }> }).__views[c].data(n), [chart, name] as const);
    // The offered load summed over the run: a longer outage changes it.
    const sum = (xs: Array<number | string | null>) => xs.reduce<number>((a, x) => a + ((x as number | null) ?? 0), 0);
    const peak = (rows: Row[], variant: string) => sum(rows.filter((r) => r.variant === variant).map((r) => r.load_multiple));
    const expectedPeak = (index: number, variant: string) => sum(plan.points.find((p) => p.index === index)!.series!.variants.find((v) => v.variant === variant)!.data.load_multiple);

    // The page opens on the compared point (2m): a 2-minute fault window from 5m.
    expect(plan.featured).toBe(1);
    expect(await page.inputValue('#sweep-point')).toBe('1');
    expect(await data('load', 'faultWindows')).toMatchObject([{ start: 5, end: 7 }]);
    const before = peak(await data('load', 'series'), 'no-retries');
    expect(before).toBeCloseTo(expectedPeak(1, 'no-retries'), 6);

    // Choose the 5-minute outage: every per-point chart redraws with that point's data.
    await page.selectOption('#sweep-point', '2');
    await page.waitForSelector('html[data-series-point="2"][data-series-ready="true"]');
    expect(await data('load', 'faultWindows')).toMatchObject([{ start: 5, end: 10 }]);
    expect(await data('goodput', 'faultWindows')).toMatchObject([{ start: 5, end: 10 }]);
    const after = peak(await data('load', 'series'), 'no-retries');
    expect(after).toBeCloseTo(expectedPeak(2, 'no-retries'), 6);
    expect(after).not.toBeCloseTo(before, 3); // a value that differs between the two points
    const amplification = await data('amplification', 'amplification');
    const expectedShare = plan.points.find((p) => p.index === 2)!.datasets.amplification.find((r) => r.variant === 'retries' && r.bin === '1')!.share;
    expect(amplification.find((r) => r.variant === 'retries' && r.bin === '1')!.share).toBe(expectedShare);

    // The variant filter takes a variant out of every chart that overlays variants (panels per variant stay).
    await page.uncheck('#variant-filter input[value="retries"]');
    await page.waitForSelector('html[data-series-ready="true"]');
    const filtered = await data('load', 'series');
    expect(new Set(filtered.map((r) => r.variant))).toEqual(new Set(['no-retries', 'short-queue']));
    expect(new Set((await data('latency', 'series')).map((r) => r.variant))).toEqual(new Set(['no-retries', 'short-queue']));
    expect(new Set((await data('attempts', 'series')).map((r) => r.variant))).toEqual(new Set(['retries', 'no-retries', 'short-queue']));
    expect(watch.problems).toEqual([]);
  });
});
