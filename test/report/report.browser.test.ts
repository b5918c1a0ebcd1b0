/**
 * report.html in a real browser (Debian's Chromium through playwright-core): it must open
 * offline with no request but the file itself, draw every chart, agree with summary.json,
 * and show hostile scenario text as text without running any of it. Skipped only when no
 * Chromium is installed (CI installs chromium and chromium-headless-shell: browser.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { writeOutputs } from '../../src/report/write.js';
import { formatValue } from '../../src/measures/format.js';
import type { Results } from '../../src/results/results.js';
import { readResultsFolder } from '../../src/results/bundle.js';
import { cleanupFixtures, tempDir } from './fixtures.js';
import { hasChromium, launch, openReport as open, release, skipNote } from './browser.js';

const SCENARIO = (extra: { question: string; description: string; variantDescription: string; comment: string }) => `# ${extra.comment}
name: browser-check
question: ${JSON.stringify(extra.question)}
description: ${JSON.stringify(extra.description)}
horizon: 20m
seed: 3
clients:
  app:
    clients: 2000
    arrivals: { kind: constant, rate: 200/s }
    retry:
      maxAttempts: 4
      timeout: 1s
      backoff: { kind: exponential, base: 500ms, multiplier: 2, max: 8s, jitter: full }
server:
  slots: 25
  queue: unbounded
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - kind: dependency-down
    at: 5m
    duration: 3m
variants:
  retries:
    description: ${JSON.stringify(extra.variantDescription)}
  no-retries:
    description: Clients never retry.
    overlay:
      clients: { app: { retry: { maxAttempts: 1 } } }
compare: { baseline: no-retries }   # not the first variant: the default is overridden
`;

/** Simulates the scenario in-process and writes the results folder with its report. */
async function results(source: string): Promise<string> {
  const dir = tempDir('rs-report-');
  const file = join(dir, 'scenario-src.yaml');
  writeFileSync(file, source);
  // On the calling thread (workers 0): a thread pool under vitest loads the sources through tsx first.
  const x = await runExperiment(loadScenarioFile(file), { workers: 0 });
  const out = join(dir, 'out');
  writeOutputs(x, out);
  return out;
}

describe('report.html in Chromium', () => {
  afterAll(cleanupFixtures);
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (hasChromium) browser = await launch();
  });
  afterAll(async () => {
    await release(browser);
  });

  it.skipIf(!hasChromium)(`draws every chart offline and agrees with summary.json${skipNote}`, async () => {
    const dir = await results(SCENARIO({ question: 'Does it come back?', description: 'A small check.', variantDescription: 'Retries.', comment: 'browser test' }));
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Results;
    const { page, watch, url } = await open(browser!, dir);

    expect(watch.requests).toEqual([url]);
    expect(watch.problems).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __reportErrors?: string[] }).__reportErrors)).toEqual([]);

    // Every chart has a view and an SVG with drawn marks.
    const charts = await page.$$eval('.chart-view', (els) => els.map((el) => ({ id: el.id, marks: el.querySelectorAll('svg g[class^="mark-"] > *').length })));
    expect(charts.map((c) => c.id)).toEqual(['chart-load', 'chart-user-latency', 'chart-attempts', 'chart-goodput', 'chart-latency', 'chart-failures', 'chart-queue', 'chart-amplification']);
    for (const c of charts) expect(c.marks, c.id).toBeGreaterThan(4);
    const views = await page.evaluate(() => Object.keys((globalThis as { __views?: object }).__views ?? {}));
    expect(views.length).toBe(charts.length);

    // The comparison table shows summary.json's numbers, each formatted in its measure's unit.
    const headline = summary.measures.filter((m) => m.headline);
    const shown = await page.$$eval('#comparison-table thead th', (ths) => ths.map((th) => th.textContent));
    for (const v of summary.variants) {
      const p = v.points[0];
      for (const m of headline) {
        if (!shown.includes(m.label)) continue; // a column of zeros is left out
        const text = await page.locator(`#comparison-table tr[data-variant="${v.name}"] td[data-measure="${m.key}"] .value`).textContent();
        const value = p.measures[m.key].value;
        const expected = m.aggregate === 'fraction' ? (value === 1 ? 'yes' : 'no') : value === null && m.key === 'recoveryTimeS' ? 'not recovered' : formatValue(m.unit, value);
        expect(text, `${v.name} ${m.key}`).toBe(expected);
      }
    }

    // The ranking comes first, and its table is summary.json's ranking: the same order, ranks and numbers.
    const sections = await page.$$eval('main > section', (els) => els.map((el) => el.id));
    expect(sections.slice(0, 2)).toEqual(['answer', 'comparison']);
    // The compact ranking on the first screen shows the same order as the full one in the fold.
    const compact = await page.$$eval('#ranking table.ranking-table.compact tbody tr', (trs) => trs.map((tr) => tr.getAttribute('data-variant')));
    const k = summary.ranking!;
    expect(k.baseline).toBe('no-retries');
    expect(k.points).toHaveLength(1);
    const entries = k.points[0].entries;
    expect(entries.map((e) => e.variant)).toEqual(['no-retries', 'retries']); // it recovered, the storm did not
    expect(entries[1].decidedBy).toBe('recovered');
    expect(compact).toEqual(entries.map((e) => e.variant));
    // The Pareto front's mark: no-retries passed every gate and nothing dominates it; the
    // storm fell below the recovery gate, so it is on no front the mark speaks of.
    expect(entries.map((e) => e.gate)).toEqual([null, 'recovered']);
    const fronts = await page.$$eval('#ranking table.ranking-table.compact tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-front'), tr.querySelector('td.front') !== null]));
    expect(fronts).toEqual([['true', true], ['false', false]]);
    const rows = await page.$$eval('#ranking table.ranking-table:not(.compact) tbody tr', (trs) => trs.map((tr) => ({
      variant: tr.getAttribute('data-variant'),
      rank: tr.getAttribute('data-rank'),
      cells: Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map((td) => [td.getAttribute('data-field'), { value: td.getAttribute('data-value'), text: td.textContent }])),
    })));
    expect(rows.map((r) => [r.rank, r.variant])).toEqual(entries.map((e) => [String(e.rank), e.variant]));
    entries.forEach((e, i) => {
      const c = rows[i].cells;
      for (const f of ['recovered', 'recoveryTimeS', 'perceivedOutageS', 'peakLoadMultiple', 'wastedWorkShare', 'attemptsPerAction', 'originalSuccessAfterFault', 'retryWaves']) {
        const x = e.values[f];
        expect(c[f]?.value, `${e.variant} ${f}`).toBe(x === null ? '' : String(x));
      }
      expect(c.outageSavedS.value).toBe(e.outageSavedS === null ? '' : String(e.outageSavedS));
      expect(c.decidedBy.text).toBe(i === 0 ? '—' : 'recovered');
      expect(c.recoveryTimeS.text).toBe(e.values.recoveryTimeS === null ? 'not recovered' : formatValue('duration', e.values.recoveryTimeS));
      expect(c.perceivedOutageS.text).toBe(formatValue('duration', e.values.perceivedOutageS));
      expect(c.peakLoadMultiple.text).toBe(formatValue('multiple', e.values.peakLoadMultiple));
    });
    // The storm costs users perceived outage against the baseline that does not retry.
    expect(entries[1].outageSavedS).toBeLessThan(0);
    expect('longestRecovered' in rows[0].cells).toBe(false); // no sweep

    // The load chart's data peak is summary.json's peak load (the plotted band keeps maxima).
    const peaks = await page.evaluate(() => {
      const view = (globalThis as unknown as { __views: Record<string, { data: (n: string) => Array<Record<string, number | string>> }> }).__views.load;
      const out: Record<string, number> = {};
      for (const row of view.data('series')) out[row.variant as string] = Math.max(out[row.variant as string] ?? 0, row.load_hi as number);
      return out;
    });
    for (const v of summary.variants) expect(peaks[v.name] / v.points[0].measures.peakLoadMultiple.value!, v.name).toBeCloseTo(1, 2);

    // One legend entry per variant, in scenario order; the fault window is shaded where the scenario puts it.
    const legend = await page.$$eval('#chart-load svg .role-legend-label text', (els) => els.map((e) => e.textContent));
    expect(legend).toEqual(summary.variants.map((v) => v.name));
    const faults = await page.evaluate(() => (globalThis as unknown as { __views: Record<string, { data: (n: string) => unknown[] }> }).__views.load.data('faultWindows'));
    expect(faults).toMatchObject([{ kind: 'dependency-down', start: 5, end: 8 }]);

    // The users' latency, drawn right after the load: the p50 and p99 each variant drew are
    // timeseries.csv's action_latency_*_ms (one seed, 2 s buckets: a point per bucket, to 4
    // digits), on a log axis.
    const drawn = await page.evaluate(() => {
      const view = (globalThis as unknown as { __views: Record<string, { data: (n: string) => Array<Record<string, number | string | null>>; scale: (n: string) => { type: string } }> }).__views['user-latency'];
      return { rows: view.data('series').map((r) => ({ variant: r.variant as string, t: r.t as number, p50: r.action_latency_p50_ms, p99: r.action_latency_p99_ms })), scale: view.scale('y').type };
    });
    expect(drawn.scale).toBe('log');
    const csv = readResultsFolder(dir).series;
    for (const v of summary.variants) {
      const want = new Map<number, [number, number]>();
      for (let row = 0; row < csv.rows; row++) {
        if (csv.variant[row] === v.name) want.set(csv.num.t_s[row] / 60, [csv.num.action_latency_p50_ms[row], csv.num.action_latency_p99_ms[row]]);
      }
      const mine = drawn.rows.filter((r) => r.variant === v.name);
      expect(mine.length, v.name).toBe(want.size);
      for (const r of mine) {
        const [p50, p99] = want.get(r.t)!;
        for (const [got, w] of [[r.p50, p50], [r.p99, p99]] as const) {
          if (Number.isNaN(w)) expect(got, `${v.name} at ${r.t} min`).toBeNull();
          else if (w === 0) expect(got, `${v.name} at ${r.t} min`).toBe(0); // failed at once: drawn on the floor
          else expect(Math.abs((got as number) / w - 1), `${v.name} at ${r.t} min`).toBeLessThan(5e-4);
        }
      }
    }
    // Whoever waits longest, the chart shows it: the retrying variant's users sat through
    // timeouts and backoff (its p99 in seconds), the other's failed fast.
    const maxP99 = (variant: string) => Math.max(...drawn.rows.filter((r) => r.variant === variant && r.p99 !== null).map((r) => r.p99 as number));
    expect(maxP99('retries')).toBeGreaterThan(1000);
    expect(maxP99('retries')).toBeGreaterThan(3 * maxP99('no-retries'));
    await page.close();
  });

  it.skipIf(!hasChromium)(`shows hostile scenario text as text and runs none of it${skipNote}`, async () => {
    const payload = '</script><script>window.__pwned=1;alert(1)</script>';
    const img = '<img src=x onerror="window.__pwned=2;alert(2)">';
    const source = SCENARIO({
      question: `${payload} and ${img}?`,
      description: `<!-- ${payload} --> & <b>bold</b> </style><style>body{display:none}</style>`,
      variantDescription: `${payload}${img}`,
      comment: `${payload} <!-- ${img}`,
    });
    const dir = await results(source);
    const { page, watch, url } = await open(browser!, dir);

    // includes(), not toContain(): a failure would otherwise print the whole page, vega included.
    const text = (await page.textContent('body')) ?? '';
    expect(text.includes(`${payload} and ${img}?`), 'the question is shown as text').toBe(true);
    expect(text.includes(`${payload}${img}`), 'the variant description is shown as text').toBe(true);
    expect(await page.textContent('#scenario-source')).toBe(source);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$('img')).toHaveLength(0);
    expect(await page.$$('b')).toHaveLength(0);
    // An injected <style> could hide the page without running any script.
    expect(await page.isVisible('#question')).toBe(true);
    expect(await page.isVisible('#comparison-table')).toBe(true);
    expect(await page.isVisible('#ranking table.ranking-table')).toBe(true);
    expect(watch.dialogs).toEqual([]);
    expect(watch.requests).toEqual([url]);
    expect(watch.problems).toEqual([]);

    // summary.md carries the same text as entities, never as markup.
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).not.toContain('<script');
    expect(md).not.toContain('<img');
    expect(md).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
    await page.close();
  });
});
