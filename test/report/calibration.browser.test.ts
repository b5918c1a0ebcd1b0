/**
 * calibration.html as `retrystorm calibrate` writes it (the CLI as a process, on a small
 * calibration: calibration-fixture.ts), opened in a real Chromium: it opens offline with no
 * request but the file, with no error or warning, draws one chart per observed series, and
 * each chart's observed line has a point for each of the series' intervals in calibration.json,
 * the fitted mean and its band too; the scenario's question shows as text, running nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';
import type { CalibrationResults } from '../../src/results/calibration.js';
import { calibrationCaveats } from '../../src/report/calibration-text.js';
import { cleanupFixtures } from './fixtures.js';
import { HOSTILE_QUESTION, calibrationScenarioFolder } from './calibration-fixture.js';
import { hasChromium, launch, openReport, release, skipNote } from './browser.js';

let out: string;
let browser: Browser | undefined;
beforeAll(async () => {
  ensureBuilt();
  const dir = calibrationScenarioFolder();
  const r = await runCliProcess(dir, ['calibrate', 'team.yaml', '--out', 'fit', '--workers', '1', '--quiet']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  out = join(dir, 'fit');
  if (hasChromium) browser = await launch();
}, 300_000);
afterAll(async () => {
  await release(browser);
  cleanupFixtures();
});

/** Items drawn by each named mark of a chart (vega names a vega-lite layer's mark `<layer name>_marks`). */
function drawn(page: Page, chart: string): Promise<Record<string, { type: string; items: number; stroke: string | null; dash: unknown }>> {
  return page.evaluate((id) => {
    type Node = { marktype?: string; name?: string; items?: Node[]; stroke?: string; strokeDash?: unknown };
    const out: Record<string, { type: string; items: number; stroke: string | null; dash: unknown }> = {};
    const walk = (n: Node) => {
      for (const it of n.items ?? []) {
        if (it.marktype && it.name) {
          const first = it.items?.[0];
          out[it.name] = { type: it.marktype, items: it.items?.length ?? 0, stroke: first?.stroke ?? null, dash: first?.strokeDash ?? null };
        }
        walk(it);
      }
    };
    walk((globalThis as unknown as { __views: Record<string, { scenegraph: () => { root: Node } }> }).__views[id].scenegraph().root);
    return out;
  }, chart);
}

describe('calibration.html in Chromium', () => {
  it.skipIf(!hasChromium)(`draws one chart per observed series with every interval, offline and without errors${skipNote}`, async () => {
    const result = JSON.parse(readFileSync(join(out, 'calibration.json'), 'utf8')) as CalibrationResults;
    expect(result.partial).toBe(false);
    expect(result.series.length).toBe(2);
    const { page, watch, url } = await openReport(browser!, out, undefined, 'calibration.html');
    expect(watch.requests).toEqual([url]);
    expect(watch.problems).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __reportErrors?: string[] }).__reportErrors)).toEqual([]);

    // One figure per series, in calibration.json's order, each an SVG with drawn marks.
    const figures = await page.$$eval('figure.chart', (els) => els.map((el) => ({ series: el.getAttribute('data-series'), marks: el.querySelectorAll('.chart-view svg g[class^="mark-"] > *').length })));
    expect(figures.map((f) => f.series)).toEqual(result.series.map((s) => s.name));
    for (const f of figures) expect(f.marks, f.series!).toBeGreaterThan(4);

    for (const [i, s] of result.series.entries()) {
      const marks = await drawn(page, `series-${i}`);
      // A line mark draws one item per point: the observed line has one per interval compared.
      expect(marks.observed_marks, s.name).toMatchObject({ type: 'line', items: s.intervals, stroke: 'black', dash: [4, 3] });
      expect(marks.fitted_marks, s.name).toMatchObject({ type: 'line', items: s.intervals });
      expect(marks.start_marks, s.name).toMatchObject({ type: 'line', items: s.intervals });
      expect(marks.band_marks, s.name).toMatchObject({ type: 'area', items: s.intervals });
      expect(marks.misses_marks?.items ?? 0, s.name).toBe(s.misses.length);
      // The y axis is titled in the series' unit.
      const titles = await page.$$eval(`#chart-series-${i} svg .role-axis-title text`, (els) => els.map((e) => e.textContent));
      expect(titles, s.name).toContain(`${s.column} (${s.unit})`);
      // One legend, the observed entry dashed as its line.
      const legend = await page.$$eval(`#chart-series-${i} svg .role-legend-label text`, (els) => els.map((e) => e.textContent));
      expect(legend, s.name).toEqual(['observed', 'start: mean', 'fitted: mean, band ± 2 sd']);
    }
    // The burst the model cannot make is shaded on the requests chart.
    expect(result.series[0].misses.length).toBeGreaterThan(0);

    // The tables and the caveats, and the question as text.
    expect(await page.locator('#parameter-table tbody tr').count()).toBe(result.parameters.length);
    expect(await page.locator('#series-table tbody tr').count()).toBe(result.series.length);
    expect(await page.locator('#caveats li').allTextContents()).toEqual(calibrationCaveats(result));
    expect(await page.locator('#question').textContent()).toBe(HOSTILE_QUESTION);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  });
});
