/**
 * The observed incident in the report's files: the fit table in summary.md, the observed block
 * of summary.json read back by `report DIR` into the same value, the observed series placed on
 * the run's clock by t0 (an RFC 3339 moment) and converted to the chart unit (percent to a
 * ratio), and its recovery read by the simulated rule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResultsFolder } from '../../src/results/bundle.js';
import { cleanupFixtures, type Fixture } from './fixtures.js';
import { observedFolder } from './observed-fixture.js';
import { planReport } from '../../src/report/html/plan.js';
import { DATASETS } from '../../src/report/charts/common.js';

let f: Fixture;
beforeAll(async () => {
  f = await observedFolder();
});
afterAll(cleanupFixtures);

describe('the observed incident in summary.json and summary.md', () => {
  it('places the file on the run\'s clock by t0 and in the chart unit', () => {
    const o = f.bundle.results.observed!;
    const ok = o.series.find((s) => s.name === 'ok')!;
    // The file starts at 10:00:00Z and t0 is 10:00:30Z: its first whole interval inside the run is its 4th.
    expect(ok.startS).toBe(0);
    expect(ok.stepS).toBe(10);
    expect(ok.values.slice(0, 3)).toEqual([0.995, 0.995, 0.995]);
    expect(ok.values[12]).toBe(0.4); // file 10:02:30 = run 2:00, the dip
    expect(ok.values).toHaveLength(30); // 5 minutes of 10 s inside the run
  });

  it('reads recovery from the observed success ratio by the simulated rule', () => {
    const fits = f.bundle.results.observed!.fits.filter((x) => x.name === 'ok');
    expect(fits.map((x) => x.variant)).toEqual(['retries', 'no-retries']);
    // Healthy again from 2:30 (the dip ends) and for the 30 s hold after the fault's end at 2:40.
    for (const x of fits) expect(x.recovery!.observedAtS).toBe(150);
    for (const x of fits) {
      const sim = f.bundle.results.variants.find((v) => v.name === x.variant)!.points[0].measures.recoveredAtS.value;
      expect(x.recovery!.simulatedAtS.value).toBe(sim);
      expect(x.recovery!.differenceS).toBe(sim === null ? null : sim - 150);
    }
    expect(f.bundle.results.observed!.fits.filter((x) => x.name !== 'ok').every((x) => x.recovery === null)).toBe(true);
  });

  it('summary.md has the fit table, and report DIR reads the observed block back unchanged', () => {
    const md = readFileSync(join(f.dir, 'summary.md'), 'utf8');
    expect(md).toContain('### Fit to the observed incident');
    expect(md).toMatch(/\| retries \| ok \| success_ratio \| 30 \| \d\.\d{3} \| at 2m30s \|/);
    expect(readResultsFolder(f.dir).results.observed).toEqual(f.bundle.results.observed);
  });

  it('draws a long observed series as at most 2,000 means of consecutive intervals', () => {
    const results = structuredClone(f.bundle.results);
    const ok = results.observed!.series.find((s) => s.name === 'ok')!;
    ok.stepS = 0.01;
    ok.values = Array.from({ length: 5000 }, (_, j) => (j % 3 === 2 ? null : j % 3));
    const rows = planReport({ ...f.bundle, results }).datasets[DATASETS.observed].filter((r) => r.name === 'ok');
    expect(rows).toHaveLength(1667); // 3 intervals a point
    expect(rows.slice(0, 2).map((r) => r.value)).toEqual([0.5, 0.5]);
    expect(rows[1].t).toBeCloseTo(0.03, 9);
  });
});
