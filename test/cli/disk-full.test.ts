/**
 * A disk that fills while a command writes (issue 39): what the message says is kept is what
 * is kept, the recovery command it prints works, and nothing half written is left behind.
 * The full disk is a file-size limit (`ulimit -f`, in 1 KiB blocks), which makes a write past
 * it stop short and fail (EFBIG) as a full disk makes it fail with ENOSPC, through the same
 * code; Node ignores the SIGXFSZ that comes with it. It needs neither root nor a small mount.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

// Twelve runs of about 30 KB of results each: under a 100 KiB limit the journal takes the
// first and not the rest, and the results (runs.json alone is 360 KB) cannot be written.
const TWELVE = `
name: twelve
horizon: 2m
seeds: 12
clients:
  app:
    arrivals: { kind: constant, rate: 20/s }
    retry: { timeout: 1s }
server: { slots: 5, serviceTime: { kind: constant, value: 10ms } }
`;
const LIMIT_KIB = 100;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-full-'));
  writeFileSync(join(dir, 'twelve.yaml'), TWELVE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI with every file it writes limited to LIMIT_KIB. */
function cliLimited(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const r = spawnSync('sh', ['-c', `ulimit -f ${LIMIT_KIB} && exec '${process.execPath}' '${join(ROOT, 'bin/retrystorm.js')}' ${quoted}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, RETRYSTORM_DEBUG: '' }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a disk that fills during the runs', () => {
  it('exits 73 saying how many finished runs the journal kept and how many it lost; the previous results stay; the printed merge recovers exactly those kept', async () => {
    const first = await runCliProcess(dir, ['run', 'twelve.yaml', '--out', 'out', '--seeds', '1', '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const previous = readFileSync(join(dir, 'out', 'summary.json'));

    const r = cliLimited(['run', 'twelve.yaml', '--out', 'out', '--workers', '1', '--quiet']);
    expect(r.code, r.stderr).toBe(73);
    // A journal that cannot take a run does not make the run a failed one.
    expect(r.stderr).not.toMatch(/FAILED RUN|internal error/);
    // Said when the journal first fails, while the runs go on.
    expect(r.stderr).toMatch(/^note: the journal \S+\/runs\.ndjson cannot take finished runs \(a file would pass the limit on file size \(ulimit -f\)\): from here on they are held in memory only/m);
    const said = /(\d+) finished run\(s\) are kept in (\S+)\/runs\.ndjson \("retrystorm merge (\S+) --out DIR" writes them once there is room\); (\d+) other finished run\(s\) could not be written to it \(a file would pass the limit on file size/.exec(r.stderr);
    expect(said, r.stderr).not.toBeNull();
    const [kept, staging, mergeFrom, lost] = [Number(said![1]), said![2], said![3], Number(said![4])];
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept + lost).toBe(12);
    expect(mergeFrom).toBe(staging);
    // The journal holds what the message says: its plan and `kept` records.
    expect(readFileSync(join(staging, 'runs.ndjson'), 'utf8').trim().split('\n')).toHaveLength(1 + kept);
    // Nothing the failed commit wrote is left (a truncated runs.json stopped the merge).
    expect(readdirSync(staging).sort()).toEqual(['runs.ndjson', 'scenario.yaml']);
    expect(readFileSync(join(dir, 'out', 'summary.json'))).toEqual(previous);
    expect(readdirSync(join(dir, 'out')).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    // The command it printed, once there is room.
    const merged = await runCliProcess(dir, ['merge', mergeFrom, '--out', 'recovered']);
    expect(merged.code, merged.stderr).toBe(130); // partial: 1 of 12
    const summary = JSON.parse(readFileSync(join(dir, 'recovered', 'summary.json'), 'utf8'));
    expect([summary.runsFinished, summary.runsPlanned, summary.partial]).toEqual([kept, 12, true]);
  });

  it('report DIR exits 73, leaving its files as they were and no report.html.tmp', async () => {
    const first = await runCliProcess(dir, ['run', 'twelve.yaml', '--out', 'rep', '--seeds', '2', '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const html = readFileSync(join(dir, 'rep', 'report.html'));
    const md = readFileSync(join(dir, 'rep', 'summary.md'));
    const r = cliLimited(['report', 'rep']);
    expect(r.code, r.stderr).toBe(73);
    expect(r.stderr).toMatch(/^retrystorm: could not write report\.html and summary\.md into \S+rep \(a file would pass the limit on file size \(ulimit -f\)\); the folder is as it was\n$/);
    expect(readdirSync(join(dir, 'rep')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readFileSync(join(dir, 'rep', 'report.html'))).toEqual(html);
    expect(readFileSync(join(dir, 'rep', 'summary.md'))).toEqual(md);
    expect(readdirSync(dir).filter((n) => n.startsWith('.rep.'))).toEqual([]); // its lock given back
  });
});
