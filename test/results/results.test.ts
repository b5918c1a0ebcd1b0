/**
 * The typed results survive their files: summary.json and the CSVs parse back into exactly the
 * value `run` rendered from, so `report DIR` writes byte-identical report.html and summary.md;
 * and anything but this retrystorm's files is refused in one line that says what is wrong.
 */
import { readFileSync, writeFileSync, copyFileSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResultsFolder } from '../../src/results/bundle.js';
import { SUMMARY_FORMAT } from '../../src/results/results.js';
import { ResultsError, parseSummary, summaryJson } from '../../src/results/summary-json.js';
import { reportCommand } from '../../src/cli/report-command.js';
import { cleanupFixtures, full, tempDir, type Fixture } from '../report/fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await full();
});
afterAll(cleanupFixtures);

const quiet = { out: () => {}, err: () => {} };

/** A copy of the fixture's folder with summary.json edited. */
function edited(edit: (summary: Record<string, unknown>) => void): string {
  const dir = tempDir('rs-edited-');
  for (const name of ['summary.json', 'timeseries.csv', 'populations.csv', 'scenario.yaml']) copyFileSync(join(f.dir, name), join(dir, name));
  const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  edit(s);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(s));
  return dir;
}

function refusal(dir: string): string {
  try {
    readResultsFolder(dir);
  } catch (e) {
    expect(e).toBeInstanceOf(ResultsError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error(`${dir} was not refused`);
}

describe('the results value and its files', () => {
  it('summary.json parses back into the value it was written from', () => {
    expect(f.bundle.results.format).toBe(SUMMARY_FORMAT);
    expect(parseSummary(summaryJson(f.bundle.results), 'summary.json')).toEqual(f.bundle.results);
  });

  it('the folder reads back into the bundle the writers rendered: results, both series and the scenario', () => {
    expect(readResultsFolder(f.dir)).toEqual(f.bundle);
  });

  it('report DIR writes byte-identical report.html and summary.md to the ones run wrote', async () => {
    const html = readFileSync(join(f.dir, 'report.html'), 'utf8');
    const md = readFileSync(join(f.dir, 'summary.md'), 'utf8');
    expect(await reportCommand(f.dir, quiet)).toBe(0);
    expect(readFileSync(join(f.dir, 'report.html'), 'utf8') === html).toBe(true);
    expect(readFileSync(join(f.dir, 'summary.md'), 'utf8')).toBe(md);
  });

  it('keeps seeds and sweep values exactly as written, measured values to 6 significant digits', () => {
    const r = f.bundle.results;
    expect(r.seeds).toEqual([1, 2]);
    expect(r.sweep?.points.map((p) => p.values)).toEqual([{ 'faults[0].duration': '30s' }, { 'faults[0].duration': '2m' }, { 'faults[0].duration': '5m' }]);
    const numbers = JSON.stringify(r.variants).match(/\d+\.\d+/g) ?? [];
    expect(numbers.length).toBeGreaterThan(100);
    for (const x of numbers) expect(x.replace(/^0\.0*/, '').replace('.', '').length, x).toBeLessThanOrEqual(6);
  });

  it('carries the units of the measures and of the series columns, and every population with its role', () => {
    const r = f.bundle.results;
    expect(r.measures.find((m) => m.key === 'recoveryTimeS')).toMatchObject({ unit: 'duration', better: 'lower', aggregate: 'mean' });
    expect(r.columns.run.find((c) => c.name === 'queue_len')).toMatchObject({ unit: 'level' });
    expect(r.columns.run.find((c) => c.name === 'dead_lettered')).toMatchObject({ unit: 'count' });
    expect(r.populations).toEqual([
      { name: 'app', route: 'login', role: 'user', contract: null },
      { name: 'worker', route: 'default', role: 'internal', contract: null },
      { name: 'scraper', route: 'search', role: 'attacker', contract: null },
    ]);
    expect(r.subject).toEqual(['app', 'worker']);
  });

  it('refuses a summary.json of another version, saying which it is and which is read', () => {
    expect(refusal(edited((s) => (s.format = 'retrystorm-summary/1')))).toMatch(/has format retrystorm-summary\/1; this retrystorm reads retrystorm-summary\/4: run the scenario again to write it$/);
    expect(refusal(edited((s) => delete s.format))).toMatch(/has no format field \(written by retrystorm before 0\.2, or not by retrystorm\)/);
  });

  it('refuses a summary.json with a missing or mistyped field, naming it', () => {
    expect(refusal(edited((s) => delete (s.variants as Array<Record<string, unknown>>)[1].points))).toMatch(/summary\.json: variants\[1\]\.points: .*it is not a summary\.json that retrystorm wrote$/);
    expect(refusal(edited((s) => ((s.ranking as Record<string, unknown>).baseline = 7)))).toMatch(/summary\.json: ranking\.baseline: /);
  });

  it('refuses CSVs that do not match the columns summary.json declares', () => {
    const dir = edited(() => {});
    writeFileSync(join(dir, 'timeseries.csv'), 'variant,point,seed,t_s\nretries,0,1,0\n');
    expect(refusal(dir)).toMatch(/timeseries\.csv: its header is not the columns summary\.json declares/);
    const short = edited(() => {});
    const lines = readFileSync(join(f.dir, 'populations.csv'), 'utf8').split('\n');
    lines[3] = lines[3].split(',').slice(0, 5).join(',');
    writeFileSync(join(short, 'populations.csv'), lines.join('\n'));
    expect(refusal(short)).toMatch(/populations\.csv:4: 5 cells, but the header has \d+/);
  });

  it('refuses folders that are not results folders', () => {
    const empty = tempDir('rs-empty-');
    expect(refusal(join(empty, 'nope'))).toMatch(/no such folder/);
    expect(refusal(empty)).toMatch(/has no summary\.json/);
    mkdirSync(join(empty, 'x'));
    writeFileSync(join(empty, 'x', 'summary.json'), '{ nope');
    expect(refusal(join(empty, 'x'))).toMatch(/is not valid JSON/);
  });

  it('refuses a results file that is a link to a device, before reading a byte of it (issue 39: /dev/zero aborted report and merge on memory)', () => {
    const dir = edited(() => {});
    rmSync(join(dir, 'summary.json'));
    symlinkSync('/dev/zero', join(dir, 'summary.json'));
    expect(refusal(dir)).toBe(`${join(dir, 'summary.json')} is a device or a pipe, not a file: a results folder holds the files retrystorm wrote`);
    const csv = edited(() => {});
    rmSync(join(csv, 'timeseries.csv'));
    symlinkSync('/dev/zero', join(csv, 'timeseries.csv'));
    expect(refusal(csv)).toMatch(/timeseries\.csv is a device or a pipe, not a file/);
  });
});
