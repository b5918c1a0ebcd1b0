/**
 * The results folder is never lost and never mixed (issue 17): `--out` is checked and locked
 * before any run, outputs replace the folder as a whole, a failed write (a full disk, for
 * real: /dev/full answers ENOSPC) leaves the previous folder intact, and a run killed with
 * SIGKILL keeps its finished runs in a journal that `merge` turns into a partial experiment.
 * Processes are waited on by what they print, never by the clock.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputError, OutputFolder } from '../../src/cli/output-folder.js';
import { UsageError } from '../../src/cli/errors.js';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

// Runs of a fraction of a second to a second each (30 simulated minutes), 40 of them on one
// worker: a writer that is still busy when the test acts (the tests act on what it prints,
// after its first line or its first finished run, and the 40 runs take many times longer
// than the second process the test starts meanwhile). The SIGKILL test waits for one run to
// finish: at 2 hours a run, that wait was most of this file's time.
const LONG = `
name: long
horizon: 30m
seeds: 40
measures: { bucket: 1m }
clients:
  app:
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 20, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: dependency-down, at: 10m, duration: 1m }
`;

const SMALL = `
name: small
horizon: 2m
clients:
  app:
    arrivals: { kind: constant, rate: 20/s }
    retry: { timeout: 1s }
server: { slots: 5, serviceTime: { kind: constant, value: 10ms } }
`;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-out-'));
  writeFileSync(join(dir, 'long.yaml'), LONG);
  writeFileSync(join(dir, 'small.yaml'), SMALL);
  writeFileSync(join(dir, 'a-file'), 'not a folder');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const usage = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

/** Spawns the CLI and resolves when a line of stderr matches `ready`. */
function start(args: string[], ready: RegExp): { child: ChildProcess; ready: Promise<void>; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let onReady: () => void;
  const readyP = new Promise<void>((r) => (onReady = r));
  child.stderr!.on('data', (d) => {
    stderr += d;
    if (ready.test(stderr)) onReady();
  });
  const done = new Promise<{ code: number | null; stderr: string }>((r) => child.on('close', (code) => r({ code, stderr })));
  return { child, ready: readyP, done };
}

describe('OutputFolder.claim: --out is checked before any run', () => {
  it('refuses an empty --out, a file, a path under a file, and a folder of other files', () => {
    expect(usage(() => OutputFolder.claim(''))).toMatch(/^--out is empty \(an unset variable in a script\?\)/);
    expect(usage(() => OutputFolder.claim(join(dir, 'a-file')))).toMatch(/a-file is a file, not a folder/);
    expect(usage(() => OutputFolder.claim(join(dir, 'a-file', 'under')))).toMatch(/under: .*a-file is a file, not a folder; name a folder for the results/);
    mkdirSync(join(dir, 'photos'));
    writeFileSync(join(dir, 'photos', 'holiday.jpg'), 'x');
    expect(usage(() => OutputFolder.claim(join(dir, 'photos')))).toMatch(/holds files that are not retrystorm results \(holiday\.jpg\)/);
    expect(readFileSync(join(dir, 'photos', 'holiday.jpg'), 'utf8')).toBe('x');
  });

  it('refuses while another live process holds the lock, and takes over a lock whose process is gone', () => {
    const out = join(dir, 'locked');
    writeFileSync(join(dir, '.locked.lock'), `${process.ppid}\n`);
    expect(usage(() => OutputFolder.claim(out))).toMatch(new RegExp(`another retrystorm \\(pid ${process.ppid}\\) is writing to .*locked: wait for it to finish, or name another --out`));
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, '.locked.lock'), `${gone}\n`);
    const f = OutputFolder.claim(out);
    expect(readFileSync(join(dir, '.locked.lock'), 'utf8')).toBe(`${process.pid}\n`);
    f.release();
    expect(existsSync(join(dir, '.locked.lock'))).toBe(false);
    expect(existsSync(f.staging)).toBe(false);
  });

  it('takes a lock with its pid already in it, and does not take over a lock just created without one (issue 39: a second writer stole it in that window)', () => {
    const out = join(dir, 'starting');
    const lock = join(dir, '.starting.lock');
    // A writer that creates the lock before writing its pid, caught in between.
    writeFileSync(lock, '');
    // Made "just now" however slowly this test runs: its time is set a minute ahead.
    utimesSync(lock, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(usage(() => OutputFolder.claim(out))).toMatch(/another retrystorm is starting to write to .*starting: wait for it to finish, or name another --out/);
    expect(readFileSync(lock, 'utf8')).toBe('');
    // Still empty a minute later: its writer died before writing; the lock is taken over.
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const f = OutputFolder.claim(out);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dir).filter((n) => n.startsWith('.starting.lock.'))).toEqual([]); // the name it was written under is gone
    f.release();
  });

  it('removes the names killed writers wrote their lock under, and leaves a live one\'s', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, `.litter.lock.${gone}`), `${gone}\n`);
    writeFileSync(join(dir, `.litter.lock.${process.ppid}`), `${process.ppid}\n`);
    const f = OutputFolder.claim(join(dir, 'litter'));
    expect(readdirSync(dir).filter((n) => n.startsWith('.litter.lock.'))).toEqual([`.litter.lock.${process.ppid}`]);
    f.release();
    rmSync(join(dir, `.litter.lock.${process.ppid}`));
  });
});

describe('OutputFolder.commit: the folder is replaced as a whole', () => {
  it('puts the new files in place of the old folder: nothing of the previous experiment is left mixed in', () => {
    const out = join(dir, 'whole');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.json'), 'old');
    writeFileSync(join(out, 'report.html'), 'old report');
    const f = OutputFolder.claim(out);
    f.commit([['summary.json', 'new']]);
    f.release();
    expect(readdirSync(out)).toEqual(['summary.json']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('new');
    expect(readdirSync(dir).filter((n) => n.startsWith('.whole'))).toEqual([]);
  });

  it('on a full disk leaves the previous folder as it was and keeps the finished runs', () => {
    const out = join(dir, 'full');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.json'), 'previous');
    const f = OutputFolder.claim(out);
    f.begin({ runs: [{ index: 0, variant: 'a', point: 0, seed: 1 }], source: 'name: x' }, 'name: x');
    f.record(0, { variant: 'a', point: 0, seed: 1, wallS: 0 } as unknown as Parameters<OutputFolder['record']>[1]);
    // The kernel's own full device: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', join(f.staging, 'report.html'));
    let error: unknown;
    try {
      f.commit([['summary.json', 'new'], ['report.html', 'a report']]);
    } catch (e) {
      error = e;
    }
    f.release(true);
    expect(error).toBeInstanceOf(OutputError);
    expect((error as Error).message).toMatch(/\(the disk is full\); .*full is as it was, and 1 finished run\(s\) are kept in .*runs\.ndjson/);
    // What the failed commit wrote is gone; the journal and the scenario it needs stay.
    expect(readdirSync(f.staging).sort()).toEqual(['runs.ndjson', 'scenario.yaml']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('previous');
    expect(existsSync(join(f.staging, 'runs.ndjson'))).toBe(true);
    rmSync(f.staging, { recursive: true, force: true });
  });
});

describe('OutputFolder.commit: results that cannot be moved into place', () => {
  it('stay whole in the staging folder the error names, kept even without a journal (a merge), and the previous folder stays', () => {
    const out = join(dir, 'stuck');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.json'), 'previous');
    const f = OutputFolder.claim(out);
    // The place the previous results stand aside is taken (a folder that is not empty), so
    // the swap fails after the new results became whole: rename(2) says ENOTEMPTY.
    const aside = join(dir, `.stuck.old-${process.pid}`);
    mkdirSync(aside);
    writeFileSync(join(aside, 'x'), 'x');
    let error: unknown;
    try {
      f.commit([['summary.json', 'new']]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutputError);
    expect((error as Error).message.startsWith(`could not move the results into ${out} (`)).toBe(true);
    expect((error as Error).message.endsWith(`); they are in ${f.staging}`)).toBe(true);
    expect(f.worthKeeping).toBe(true);
    f.release(f.worthKeeping);
    expect(readFileSync(join(f.staging, 'summary.json'), 'utf8')).toBe('new');
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('previous');
    expect(readdirSync(dir).filter((n) => n.startsWith('.stuck.commit-'))).toEqual([]);
    rmSync(f.staging, { recursive: true, force: true });
    rmSync(aside, { recursive: true, force: true });
  });
});

describe('retrystorm run and --out, as processes', () => {
  it('refuses --out "" and --out FILE before any run, with exit 2 and one line', async () => {
    for (const [out, reason] of [['', /--out is empty/], ['a-file', /a-file is a file, not a folder/]] as const) {
      const r = await runCliProcess(dir, ['run', 'small.yaml', '--out', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(reason);
      expect(r.stderr).not.toMatch(/running \d+ run/);
    }
    expect(existsSync(join(dir, 'summary.json'))).toBe(false);
  });

  it("says so when the folder holds another scenario's results, which it replaces; not when they are its own", async () => {
    const out = join(dir, 'someone-elses');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.json'), JSON.stringify({ scenario: 'long' }));
    const first = await runCliProcess(dir, ['run', 'small.yaml', '--out', 'someone-elses', '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/note: someone-elses holds the results of scenario "long"; those of "small" replace them/);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).scenario).toBe('small');
    const again = await runCliProcess(dir, ['run', 'small.yaml', '--out', 'someone-elses', '--quiet']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/holds the results of scenario/);
  });

  it('refuses a second writer into the same folder while the first runs; the first then finishes its own folder', async () => {
    const first = start(['run', 'long.yaml', '--out', 'shared', '--workers', '1'], /running \d+ run\(s\)/);
    await first.ready;
    const second = await runCliProcess(dir, ['run', 'small.yaml', '--out', 'shared']);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr.split('\n')[0]).toMatch(new RegExp(`another retrystorm \\(pid ${first.child.pid}\\) is writing to shared`));
    first.child.kill('SIGINT');
    const r = await first.done;
    expect(r.code, r.stderr).toBe(130);
    const summary = JSON.parse(readFileSync(join(dir, 'shared', 'summary.json'), 'utf8'));
    expect(summary.scenario).toBe('long');
    expect(summary.partial).toBe(true);
  });

  it('killed with SIGKILL after a run finished, it leaves that run in a journal that merge writes as a partial experiment', async () => {
    const victim = start(['run', 'long.yaml', '--out', 'killed', '--workers', '1', '--progress-every', '1s'], /progress: [1-9]\d*\/40 runs/);
    await victim.ready;
    victim.child.kill('SIGKILL');
    await victim.done;
    const staging = readdirSync(dir).filter((n) => n.startsWith('.killed.partial-'));
    expect(staging).toEqual([`.killed.partial-${victim.child.pid}`]);
    const journal = readFileSync(join(dir, staging[0], 'runs.ndjson'), 'utf8').trim().split('\n');
    expect(journal.length).toBeGreaterThanOrEqual(2); // the plan, then at least one finished run
    expect(existsSync(join(dir, 'killed'))).toBe(false);

    // The next run into the same folder says where they are (and takes over the dead lock).
    const next = await runCliProcess(dir, ['run', 'small.yaml', '--out', 'killed', '--quiet']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toMatch(new RegExp(`note: \\.killed\\.partial-${victim.child.pid} holds the finished runs of an earlier run that was killed`));

    const merged = await runCliProcess(dir, ['merge', staging[0], '--out', 'recovered']);
    expect(merged.code, merged.stderr).toBe(130);
    const summary = JSON.parse(readFileSync(join(dir, 'recovered', 'summary.json'), 'utf8'));
    expect(summary.partial).toBe(true);
    expect(summary.runsPlanned).toBe(40);
    expect(summary.runsFinished).toBe(journal.length - 1);
  });
});
