/**
 * The charts' interactions in real Chromium, asserted on what vega rendered (its scenegraph),
 * never on timing: a click on a legend entry isolates a variant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cleanupFixtures, full, type Fixture } from './fixtures.js';
import { hasChromium, launch, nextFrames, openReport, skipNote } from './browser.js';

let f: Fixture;
let browser: Browser | undefined;
beforeAll(async () => {
  f = await full();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
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

describe('chart interactions', () => {
  it.skipIf(!hasChromium)(`isolates a variant when its legend entry is clicked, and shows all again on a double-click${skipNote}`, async () => {
    const { page, watch } = await openReport(browser!, f.dir, { width: 1400, height: 900 });
    const variants = f.bundle.results.variants.map((v) => v.name);
    for (const chart of ['load', 'goodput', 'latency', 'queue', 'recovery']) {
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
    await page.close();
  });
});
