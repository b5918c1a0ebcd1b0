/**
 * A scenario's search survives a split (issue 39): its batches depend on each other, so shard
 * 1 of `run --shard i/n` runs it whole and keeps its outcome in runs.json (under the digest),
 * and `merge` puts it back with the expectations on the tipping point. The merged folder is
 * the unsharded run's, byte for byte; before, the merge had no search at all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';

// The CLI tests' small cliff (about 0.2 s a run), at the least budget a search takes (5 values
// x 4 seeds), 2 seeds so each shard has a run, and a bound on the tipping point.
const SCENARIO = readFileSync(join(import.meta.dirname, '../experiment/search/tiny-cliff.yaml'), 'utf8')
  .replace('budget: 40', 'budget: 20')
  .replace(/^seed: 1$/m, 'seed: 1\nseeds: 2') + 'expectations:\n  - { variant: base, tippingPoint: { atLeast: 20/s } }\n';

let dir: string;
const cli = (...args: string[]) => runCliProcess(dir, args);
const read = (folder: string, file: string) => readFileSync(join(dir, folder, file), 'utf8');

beforeAll(async () => {
  ensureBuilt();
  expect(SCENARIO).toContain('budget: 20');
  expect(SCENARIO).toContain('seeds: 2');
  dir = mkdtempSync(join(tmpdir(), 'rs-search-merge-'));
  writeFileSync(join(dir, 's.yaml'), SCENARIO);
  const runs = await Promise.all([
    cli('run', 's.yaml', '--out', 'whole', '--workers', '1', '--quiet'),
    cli('run', 's.yaml', '--shard', '1/2', '--out', 'shard-1', '--workers', '1', '--quiet'),
    cli('run', 's.yaml', '--shard', '2/2', '--out', 'shard-2', '--workers', '1', '--quiet'),
  ]);
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('search: in a split run', () => {
  it('merges into the unsharded run\'s search results and files, byte for byte', async () => {
    const r = await cli('merge', 'shard-1', 'shard-2', '--out', 'merged');
    expect(r.code, r.stderr).toBe(0);
    const whole = JSON.parse(read('whole', 'summary.json'));
    const merged = JSON.parse(read('merged', 'summary.json'));
    expect(whole.search.variants[0].runs).toBe(20);
    expect(merged.search).toEqual(whole.search);
    expect(merged.expectations.map((e: { kind: string; passed: boolean }) => [e.kind, e.passed])).toEqual([['atLeast', true]]);
    expect(r.stdout).toMatch(/^PASS {2}base: tipping point of clients\.app\.arrivals\.rate at least 20\/s/m);
    for (const file of ['summary.json', 'runs.json', 'summary.md', 'timeseries.csv']) expect(read('merged', file), file).toBe(read('whole', file));
  });

  it('keeps the search when a whole run\'s folder is merged alone', async () => {
    const r = await cli('merge', 'whole', '--out', 'whole-again');
    expect(r.code, r.stderr).toBe(0);
    expect(read('whole-again', 'summary.json')).toBe(read('whole', 'summary.json'));
  });

  it('refuses a search outcome edited in shard 1\'s runs.json', async () => {
    const runs = JSON.parse(read('shard-1', 'runs.json'));
    expect(runs.search.variants[0].variant).toBe('base');
    runs.search.variants[0].result.runs += 1;
    writeFileSync(join(dir, 'shard-1', 'runs.json'), JSON.stringify(runs));
    const r = await cli('merge', 'shard-1', 'shard-2', '--out', 'edited');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/shard-1\/runs\.json: its results do not match its digest/);
  });
});
