/**
 * calibration.html's charts and page, from a real small calibration (calibration-fixture.ts):
 * each observed series gets a chart whose data are that series' curves (observed, start,
 * fitted, the ±2 sd band) at the middle of each interval, on a y axis in the series' unit, with
 * the missed stretches shaded; a calibration stopped early says so and draws no band; scenario
 * text is escaped and the page allows no request (report.html's rules).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalibrationResults } from '../../src/results/calibration.js';
import { calibrationCharts, curveRows, CURVES, FITTED_COLOR, START_COLOR } from '../../src/report/charts/calibration.js';
import { renderCalibrationHtml } from '../../src/report/html/calibration-page.js';
import { calibrationCaveats } from '../../src/report/calibration-text.js';
import { escapeHtml } from '../../src/report/html/escape.js';
import { cleanupFixtures } from './fixtures.js';
import { HOSTILE_QUESTION, smallCalibration } from './calibration-fixture.js';

type Json = Record<string, unknown> & { layer?: Json[]; datasets?: Record<string, Array<Record<string, unknown>>>; encoding?: Record<string, Json>; mark?: Json; name?: string };

let full: CalibrationResults;
let partial: CalibrationResults;
beforeAll(async () => {
  full = await smallCalibration();
  // Stopped as Ctrl-C stops it: after the 4th trial, before the intervals.
  const stop = new AbortController();
  partial = await smallCalibration({ signal: stop.signal, onTrial: (n) => { if (n >= 4) stop.abort(); } });
}, 120_000);
afterAll(cleanupFixtures);

const layerOf = (spec: Json, name: string) => spec.layer!.find((l) => l.name === name);

describe('the calibration charts', () => {
  it('carry each series\' curves, interval by interval, on an axis in the series\' unit', () => {
    expect(full.partial).toBe(false);
    expect(full.series.map((s) => [s.name, s.unit])).toEqual([['requests', 'per second'], ['p50', 'ms']]);
    const charts = calibrationCharts(full);
    expect(charts.map((c) => c.series)).toEqual(['requests', 'p50']);
    charts.forEach((chart, i) => {
      const s = full.series[i];
      const spec = chart.spec as unknown as Json;
      const rows = spec.datasets!.curve;
      expect(chart.factor).toBe(1);
      expect(rows).toHaveLength(s.intervals);
      expect(s.curve.times).toHaveLength(s.intervals);
      const step = s.curve.times[1] - s.curve.times[0];
      expect(step).toBe(20); // the scenario's bucket
      rows.forEach((row, k) => {
        // At the middle of its interval, in minutes of the run.
        expect(row.t).toBeCloseTo((s.curve.times[k] + step / 2) / 60, 12);
        expect(row.observed).toBe(s.curve.observed[k]);
        expect(row.start).toBe(s.curve.start[k]);
        expect(row.fitted).toBe(s.curve.fitted[k]);
        // The band: mean ± 2 sd, clipped at 0 where it crosses it (no run goes below 0).
        expect(row.low).toBe(Math.max(0, s.curve.low[k]));
        expect(row.high).toBe(s.curve.high[k]);
      });
      // Every line and the band read the y axis in the series' unit.
      for (const name of [...CURVES, 'band']) {
        const layer = layerOf(spec, name)!;
        expect(layer, name).toBeDefined();
        expect((layer.encoding!.y as Json).title, name).toBe(`${s.column} (${s.unit})`);
      }
      expect(chart.caption).toContain(`(${s.unit})`);
      // Observed black and dashed as the report's overlay, the start grey, the fitted in colour.
      const color = layerOf(spec, 'observed')!.encoding!.color as Json;
      expect(color.datum).toBe('observed');
      expect(color.scale).toMatchObject({ domain: ['observed', 'start', 'fitted'], range: ['black', START_COLOR, FITTED_COLOR] });
      expect((layerOf(spec, 'observed')!.encoding!.strokeDash as Json).scale).toMatchObject({ range: [[4, 3], [1, 0], [1, 0]] });
      expect(layerOf(spec, 'band')!.mark).toMatchObject({ type: 'area', color: FITTED_COLOR });
      // The missed stretches, in minutes, shaded behind the curves.
      expect(spec.datasets!.misses.map((m) => [m.from, m.to])).toEqual(s.misses.map((m) => [m.fromS / 60, m.toS / 60]));
      expect(layerOf(spec, 'misses') !== undefined).toBe(s.misses.length > 0);
    });
    // The incident's burst of requests (3:20 to 4:20) is no arrival rate's: the fit misses it.
    expect(full.series[0].misses).toEqual([{ fromS: 200, toS: 260, observedAbove: true }]);
    // Some band crossed zero here, so the clipping above was exercised.
    expect(full.series.some((s) => s.curve.low.some((x) => x < 0))).toBe(true);
  });

  it('average runs of consecutive intervals when asked to draw fewer points', () => {
    const s = full.series[0];
    const rows = curveRows(s, 4);
    expect(rows).toHaveLength(Math.ceil(s.intervals / 4));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(rows[1].observed).toBeCloseTo(avg(s.curve.observed.slice(4, 8)), 12);
    expect(rows[1].fitted).toBeCloseTo(avg(s.curve.fitted.slice(4, 8)), 12);
    expect(rows[1].t).toBeCloseTo((s.curve.times[4] + s.curve.times[7] + 20) / 2 / 60, 12);
    expect(rows[1].at).toBe('1m20s to 2m40s');
  });

  it('draw no band for a calibration stopped before its intervals', () => {
    expect(partial.partial).toBe(true);
    expect(partial.trials).toBe(4);
    for (const chart of calibrationCharts(partial)) {
      const spec = chart.spec as unknown as Json;
      expect(layerOf(spec, 'band')).toBeUndefined();
      expect(spec.datasets!.curve.every((row) => !('low' in row) && !('high' in row))).toBe(true);
      expect(layerOf(spec, 'fitted')).toBeDefined();
      expect(chart.caption).toContain('no band');
    }
  });
});

describe('calibration.html', () => {
  it('holds the tables and the caveats, shows the question as text and allows only its own scripts', () => {
    const html = renderCalibrationHtml(full, HOSTILE_QUESTION);
    // The markup outside the scripts (the vega builds hold strings such as "<img").
    const markup = html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '<script></script>');
    expect(markup).not.toContain('window.__pwned=1;alert(1)</script>');
    expect(markup).not.toContain('<img');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('id="partial"');
    expect(html).toMatch(/<tr data-parameter="clients\.app\.arrivals\.rate"><th scope="row"><code>clients\.app\.arrivals\.rate<\/code><\/th><td>14\/s<\/td><td class="fitted">[\d.]+\/s<\/td><td>[\d.]+\/s to [\d.]+\/s<\/td><td>4\/s to 20\/s<\/td><\/tr>/);
    expect(html.match(/<tr data-series=/g)).toHaveLength(2);
    const caveats = calibrationCaveats(full);
    expect(caveats.length).toBeGreaterThan(0);
    for (const c of caveats) expect(html).toContain(`<li>${escapeHtml(c)}</li>`);
    // Nothing to fetch: no src or href, and a policy naming each inline script by its hash.
    expect(markup).not.toMatch(/<[a-z][^>]*\s(src|href)=/i);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1].replaceAll('&#39;', "'");
    expect(csp).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(4); // vega, vega-lite, vega-embed, the page's
    for (const s of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
  });

  it('says at the top when the calibration was stopped early', () => {
    const html = renderCalibrationHtml(partial);
    expect(html).toMatch(/<header>[\s\S]*<p class="warning" role="alert" id="partial">Partial calibration: it was stopped after 4 trials\.[\s\S]*<\/header>/);
    expect(html).not.toContain('id="question"');
  });
});
