/**
 * An observed incident drawn over the simulated series in real Chromium: the observed layer
 * is in the rendered scenegraph of each chart that draws its column (black dashed line, its
 * label "observed: <name>"), and the fit table is on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cleanupFixtures, type Fixture } from './fixtures.js';
import { observedFolder } from './observed-fixture.js';
import { hasChromium, launch, openReport, release, skipNote } from './browser.js';

let f: Fixture;
let browser: Browser | undefined;
beforeAll(async () => {
  f = await observedFolder();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await release(browser);
  cleanupFixtures();
});

/** What a chart rendered of the observed series: per mark type, the labels of the items drawn and their stroke. */
function observedItems(page: Page, chart: string): Promise<Array<{ marktype: string; label: string; stroke: string | null; dash: unknown; text: string | null }>> {
  return page.evaluate((id) => {
    const out: Array<{ marktype: string; label: string; stroke: string | null; dash: unknown; text: string | null }> = [];
    type Node = { marktype?: string; items?: Node[]; datum?: { label?: string }; stroke?: string; strokeDash?: unknown; text?: string };
    const walk = (n: Node, type?: string) => {
      for (const it of n.items ?? []) {
        if (type && typeof it.datum?.label === 'string' && it.datum.label.startsWith('observed')) {
          out.push({ marktype: type, label: it.datum.label, stroke: it.stroke ?? null, dash: it.strokeDash ?? null, text: it.text ?? null });
        }
        walk(it, it.marktype ?? type);
      }
    };
    walk((globalThis as unknown as { __views: Record<string, { scenegraph: () => { root: Node } }> }).__views[id].scenegraph().root);
    return out;
  }, chart);
}

describe('the observed incident in report.html', () => {
  it.skipIf(!hasChromium)(`draws the observed series over the simulated ones, labelled "observed"${skipNote}`, async () => {
    const { page, watch } = await openReport(browser!, f.dir);
    for (const [chart, name] of [['goodput', 'ok'], ['attempts', 'requests'], ['latency', 'p99']] as const) {
      const items = await observedItems(page, chart);
      const lines = items.filter((i) => i.marktype === 'line' && i.label === `observed: ${name}`);
      expect(lines.length, chart).toBeGreaterThan(0);
      expect(lines[0].stroke, chart).toBe('black');
      expect(lines[0].dash, chart).toEqual([4, 3]);
      expect(items.some((i) => i.marktype === 'text' && i.text === `observed: ${name}`), chart).toBe(true);
    }
    // Nothing observed stands beside the queue: no observed layer there.
    expect(await observedItems(page, 'queue')).toEqual([]);
    const table = await page.locator('#fit-table tbody tr').allTextContents();
    expect(table.length).toBe(6); // two variants × three observed series
    expect(table.filter((t) => t.includes('success_ratio'))).toHaveLength(2);
    expect(watch.problems).toEqual([]);
  });
});
