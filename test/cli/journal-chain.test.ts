/**
 * A killed run's journal cannot be edited into a result (issue 39), as users meet it: a run
 * killed with SIGKILL leaves runs.ndjson; merged as left, its runs are written and marked as
 * recovered from a journal; with a number edited in one record, `merge` and `run --reuse`
 * refuse it with exit 2 and one line naming the journal and the record's line (before, the
 * edit was merged, and --reuse turned it into a complete result with a fresh digest).
 * Processes are waited on by what they print, never by the clock.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

// 40 runs of a fraction of a second on one worker: still running when the test kills it,
// after the first progress line (by then at least one run is in the journal).
const LONG = `
name: long
horizon: 10m
seeds: 40
measures: { bucket: 1m }
clients:
  app:
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 20, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: dependency-down, at: 3m, duration: 1m }
`;

let dir: string;
let staging: string;
const cli = (...args: string[]) => runCliProcess(dir, args);

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-chain-cli-'));
  writeFileSync(join(dir, 'long.yaml'), LONG);
  const child = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'run', 'long.yaml', '--out', 'killed', '--workers', '1', '--progress-every', '1s'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((ready) => child.stderr!.on('data', (d) => {
    stderr += d;
    if (/progress: [1-9]\d*\/40 runs/.test(stderr)) ready();
  }));
  const closed = new Promise((r) => child.on('close', r));
  child.kill('SIGKILL');
  await closed;
  staging = readdirSync(dir).find((n) => n.startsWith('.killed.partial-'))!;
  expect(staging).toBeDefined();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the killed run's staging folder with the record on line 2 (the first finished run) made a little better. */
function tampered(name: string): string {
  cpSync(join(dir, staging), join(dir, name), { recursive: true });
  const file = join(dir, name, 'runs.ndjson');
  const lines = readFileSync(file, 'utf8').split('\n');
  const edited = lines[1].replace(/"attempts":(\d+)/, (_m, n: string) => `"attempts":${Number(n) - 1}`);
  expect(edited).not.toBe(lines[1]);
  lines[1] = edited;
  writeFileSync(file, lines.join('\n'));
  return name;
}

/** The refusal is one line (and the usage hint every exit 2 ends with), no stack trace. */
const oneLine = (stderr: string) => {
  expect(stderr.trim().split('\n'), stderr).toEqual([expect.stringMatching(/^retrystorm: /), 'run "retrystorm --help" for usage']);
  expect(stderr).not.toMatch(/\n\s+at /);
};

describe('a killed run\'s journal', () => {
  it('merges as left, each run marked as recovered from the journal', async () => {
    const r = await cli('merge', staging, '--out', 'recovered');
    expect(r.code, r.stderr).toBe(130);
    const runs = JSON.parse(readFileSync(join(dir, 'recovered', 'runs.json'), 'utf8'));
    expect(runs.interrupted).toBe(true);
    expect(runs.results.length).toBeGreaterThan(0);
    for (const result of runs.results) expect(result.fromJournal).toBe(true);
  });

  it('is refused by merge when a record was edited, naming the journal and its line', async () => {
    const name = tampered('edited-merge');
    const r = await cli('merge', name, '--out', 'from-edited');
    expect(r.code, r.stderr).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/edited-merge\/runs\.ndjson:2: the journal's chain of digests breaks at this record/);
    expect(readdirSync(dir)).not.toContain('from-edited');
  });

  it('is refused by run --reuse when a record was edited, before any run', async () => {
    const name = tampered('edited-reuse');
    const r = await cli('run', 'long.yaml', '--seeds', '2', '--reuse', name, '--out', 'reused', '--quiet');
    expect(r.code, r.stderr).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/^retrystorm: --reuse edited-reuse: its runs cannot be reused: .*edited-reuse\/runs\.ndjson:2: the journal's chain of digests breaks at this record/);
    expect(readdirSync(dir)).not.toContain('reused');
  });

  it('taken by run --reuse, its runs stay marked in the complete result', async () => {
    const r = await cli('run', 'long.yaml', '--seeds', '2', '--reuse', staging, '--out', 'reused-intact');
    expect(r.code, r.stderr).toBe(0);
    const taken = Number(/; (\d+) run\(s\) unchanged in/.exec(r.stderr)?.[1]);
    expect(taken).toBeGreaterThan(0);
    const runs = JSON.parse(readFileSync(join(dir, 'reused-intact', 'runs.json'), 'utf8'));
    expect(runs.interrupted).toBe(false);
    expect(runs.results).toHaveLength(2);
    // The runs taken from the journal are marked; a run simulated here is not.
    expect(runs.results.filter((x: { fromJournal?: boolean }) => x.fromJournal === true)).toHaveLength(taken);
    expect(runs.results.filter((x: { fromJournal?: boolean }) => x.fromJournal === undefined)).toHaveLength(2 - taken);
  });
});

// A write that fails part way, for real: a file-size limit (ulimit -f, in 1 KiB blocks) makes a
// write past it stop short and fail with EFBIG, as a full disk stops one with ENOSPC (Node
// ignores SIGXFSZ). The second record crosses the 2 KiB limit; the third, smaller, fits once
// the torn second is cut back, and must not follow a torn line (the chain would break there
// and the whole journal be refused).
const PARTIAL_WRITE = `
import { OutputFolder } from '${ROOT}/dist/src/cli/output-folder.js';
import { parseJournal } from '${ROOT}/dist/src/experiment/runs-journal.js';
import { readFileSync } from 'node:fs';
const f = OutputFolder.claim(process.argv[2]);
f.begin({ runs: [0, 1, 2].map((index) => ({ index, variant: 'a', point: 0, seed: 1 + index })), source: 'name: x\\n' }, 'name: x\\n');
const result = (n) => ({ variant: 'a', point: 0, seed: 1, wallS: 0, pad: 'x'.repeat(n) });
const tried = [];
for (const [i, n] of [[0, 1200], [1, 1200], [2, 100]]) {
  // A run the journal cannot take is counted as lost, not thrown (it is not a failed run).
  const lost = f.runsLost;
  f.record(i, result(n));
  tried.push(f.runsLost > lost ? 'lost' : 'ok');
}
let merged;
try { merged = parseJournal(readFileSync(f.staging + '/runs.ndjson', 'utf8'), 'runs.ndjson').results.map((r) => r.index); } catch (e) { merged = e.message; }
f.release();
console.log(JSON.stringify({ tried, merged }));
`;

describe.runIf(process.platform === 'linux')('a journal write that fails part way', () => {
  it('is cut back to the last whole line, so a later record still chains', () => {
    const script = join(dir, 'partial-write.mjs');
    writeFileSync(script, PARTIAL_WRITE);
    const r = spawnSync('bash', ['-c', 'ulimit -f 2 && exec "$0" "$1" "$2"', process.execPath, script, join(dir, 'limited')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ tried: ['ok', 'lost', 'ok'], merged: [0, 2] });
  });
});
