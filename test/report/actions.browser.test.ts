/**
 * Operator actions in the report (issue 13), in real Chromium: each action that took effect
 * is a dashed rule at its time on the offered-load and goodput charts (asserted on vega's
 * rendered marks), and the actions table says what, when and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { writeOutputs } from '../../src/report/write.js';
import { actionRows } from '../../src/report/actions-view.js';
import type { Results } from '../../src/results/results.js';
import { hasChromium, launch, openReport, release, skipNote } from './browser.js';

// A cut to 2 slots at 1m; the operators scale back at 2m by hand, and an alert on success
// adds slots 5 s after it has held for 10 s (checks every 10 s). Two seeds.
const SCENARIO = `
name: acting
horizon: 4m
seeds: 2
measures: { bucket: 10s }
clients:
  users:
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 10, serviceTime: { kind: exponential, mean: 50ms } }
faults:
  - { kind: capacity-cut, at: 1m, duration: 2m, slots: 2 }
variants:
  wait: {}
  act:
    overlay:
      actions:
        - { name: paged, when: { signal: success, below: 0.5, for: 10s, after: 5s }, do: { kind: scale, slots: 20 } }
        - { name: scale-back, when: { at: 3m30s }, do: { kind: scale, slots: 10 } }
`;

let dir: string;
let results: Results;
let browser: Browser | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-actions-'));
  // On the calling thread (workers 0): a thread pool under vitest loads the sources through tsx first.
  results = writeOutputs(await runExperiment(loadScenario(SCENARIO, 'acting.yaml'), { workers: 0 }), dir).bundle.results;
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await release(browser);
  rmSync(dir, { recursive: true, force: true });
});

describe('operator actions in the report', () => {
  it('are listed once per variant and action, with when and why', () => {
    const rows = actionRows(results, 0);
    expect(rows.map((a) => [a.variant, a.name, a.kind, a.seeds, a.of])).toEqual([
      ['act', 'paged', 'scale', 2, 2],
      ['act', 'scale-back', 'scale', 2, 2],
    ]);
    const paged = rows[0];
    // The cut starts at 60 s; the check at 70 s sees success below 50%, acted on 5 s later.
    expect(paged.firstS).toBe(75);
    expect(paged.why).toMatch(/^alert: success below 0\.5 for 10s \(checked every 10s\), held at 1m10s \(0\.\d+\); acted 5s later$/);
    expect(rows[1]).toMatchObject({ firstS: 210, lastS: 210, why: 'at a fixed time' });
  });

  it.skipIf(!hasChromium)(`draws each as a dashed rule at its time on the load and goodput charts, and explains it in a table${skipNote}`, async () => {
    const { page, watch } = await openReport(browser!, dir, { width: 1400, height: 900 });
    for (const chart of ['load', 'goodput']) {
      const rules = await page.evaluate((id) => {
        type Node = { marktype?: string; items?: Node[]; datum?: { name?: string; t?: number; variant?: string }; strokeDash?: number[] };
        const out: Array<{ name: string; t: number; variant: string }> = [];
        const walk = (n: Node) => {
          if (n.marktype === 'rule') for (const it of n.items ?? []) if (it.datum?.name) out.push({ name: it.datum.name, t: it.datum.t!, variant: it.datum.variant! });
          for (const c of n.items ?? []) walk(c);
        };
        walk((globalThis as unknown as { __views: Record<string, { scenegraph: () => { root: Node } }> }).__views[id].scenegraph().root);
        return out;
      }, chart);
      // Horizons up to 10 minutes are drawn in seconds.
      const unique = [...new Map(rules.map((r) => [`${r.name}@${r.t}`, r])).values()];
      expect(unique.sort((a, b) => a.t - b.t), chart).toEqual([
        { name: 'paged', t: 75, variant: 'act' },
        { name: 'scale-back', t: 210, variant: 'act' },
      ]);
    }
    const cells = await page.$$eval('#actions-table tbody tr > *', (cs) => cs.map((c) => [c.parentElement === null ? -1 : Array.prototype.indexOf.call(c.parentElement.parentElement!.children, c.parentElement), (c.textContent ?? '').trim()] as [number, string]));
    const table: string[][] = [];
    for (const [row, text] of cells) (table[row] ??= []).push(text);
    expect(table.map((r) => r.slice(0, 4))).toEqual([
      ['act', '1m15s', 'paged', 'scale'],
      ['act', '3m30s', 'scale-back', 'scale'],
    ]);
    expect(table[0][4]).toMatch(/^alert: success below 0\.5/);
    expect(table[0][5]).toBe('2 of 2');
    expect(watch.problems).toEqual([]);
  });
});
