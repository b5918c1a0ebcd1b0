// `retrystorm diff` as users run it (a process, from dist/), on a smaller model of the
// flagship (test/diff/small-flagship.ts): its base is run once into a results folder, and
// each change is run from its scenario file by `diff` itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { smallFlagship } from './small-flagship.js';

const ROOT = join(import.meta.dirname, '../..');
let dir: string;
/** The scenario change of a head that adds a guard on change the base does not have. */
const GUARD_ADDED = {
  variant: null, path: 'expectations[1]', before: null, viaBefore: null, viaAfter: null,
  after: '{ variant: client-ceiling, at: { "faults[0].duration": 12m }, recoveryTimeS: { worsenBy: { atMost: 10% } } }',
};
const diff = (head: string, ...flags: string[]) => runCliProcess(dir, ['diff', 'base-out', head, ...flags], { NO_COLOR: '1' });

/** `diff base-out attempts-8-comment.yaml --json`, run once for the two tests that read it. */
let unchangedHead: Promise<ReturnType<typeof JSON.parse>> | undefined;
function diffUnchangedHead(): Promise<ReturnType<typeof JSON.parse>> {
  unchangedHead ??= diff('attempts-8-comment.yaml', '--json').then((r) => {
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  });
  return unchangedHead;
}

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-diff-'));
  const files: Record<string, string> = {
    'base.yaml': smallFlagship(),
    'attempts-8-deadline-60s.yaml': smallFlagship({ attempts: 8, deadline: '60s' }),
    // Two changes that change no number, in one head (one diff, six runs, instead of two):
    // client-ceiling's attempts alone, and a comment (with the guard the head adds).
    'attempts-8-comment.yaml': smallFlagship({ attempts: 8, comment: 'a reviewer asked for this comment', guards: ['10%'] }),
    'seeds-5.yaml': smallFlagship({ seeds: 5, guards: ['10%'] }),
    'deadline-30s.yaml': smallFlagship({ deadline: '30s', guards: ['10%', '50%'] }),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const base = await runCliProcess(dir, ['run', 'base.yaml', '--out', 'base-out', '--quiet']);
  expect(base.stderr).toBe('');
  expect(base.code).toBe(0);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('retrystorm diff on the flagship (smaller model)', () => {
  it('client-ceiling at 8 attempts with a 60 s deadline: recovery at 12 min is worse beyond seed noise, and the check fails', async () => {
    const r = await diff('attempts-8-deadline-60s.yaml', '--json', '--out', 'h8d');
    expect(r.code).toBe(1);
    // Only client-ceiling changed: as-is's runs are the base folder's, read from its runs.json.
    expect(r.stderr).toMatch(/^head: running attempts-8-deadline-60s\.yaml, 3 run\(s\) on \d+ worker\(s\); 3 run\(s\) unchanged from the base \(same scenario and seed\), taken from it$/m);
    expect(r.stderr).toMatch(/passed on the base and fail on the head: client-ceiling at faults\[0\]\.duration=12m: recovered at least 100%/);
    // Progress as run draws it, in a log: the closing line once the head's 3 runs are done.
    expect(r.stderr).toMatch(/^progress: 3\/3 runs, 100% of simulated time, ETA 0s, /m);
    const all = JSON.parse(r.stdout);
    const d = all.results;
    const p = d.points.find((x: { variant: string }) => x.variant === 'client-ceiling');
    expect(p.values).toEqual({ 'faults[0].duration': '12m' });
    const rt = p.changes.find((c: { key: string }) => c.key === 'recoveryTimeS');
    // Every seed recovered within about 2.5 minutes before, none recovers before the horizon (10 minutes after the outage).
    expect(rt.base).toBeGreaterThan(60);
    expect(rt.base).toBeLessThan(300);
    expect(rt.head).toBeNull();
    expect(rt).toMatchObject({ beyondNoise: true, direction: 'worse' });
    const po = p.changes.find((c: { key: string }) => c.key === 'perceivedOutageS');
    expect(po).toMatchObject({ beyondNoise: true, direction: 'worse' });
    expect(po.lo).toBeGreaterThan(5 * 60);
    // The scenario diff says what the pull request changed, once resolved.
    expect(all.scenario.changes).toEqual(expect.arrayContaining([
      { variant: 'client-ceiling', path: 'clients.app.layers.app.maxAttempts', before: '4', after: '8', viaBefore: null, viaAfter: null },
      { variant: 'client-ceiling', path: 'clients.app.layers.app.deadline', before: '20s', after: '60s', viaBefore: null, viaAfter: null },
    ]));
    expect(all.scenario.changes).toHaveLength(6); // app, sync and partner: attempts and deadline
    // as-is did not change: its scenario did not.
    const asIs = d.points.find((x: { variant: string }) => x.variant === 'as-is');
    expect(asIs.changes.every((c: { beyondNoise: boolean; delta: number | null }) => !c.beyondNoise && (c.delta === null || c.delta === 0))).toBe(true);
  }, 300_000);

  it('says so in the terminal and in the comment, verdict first', async () => {
    // The head's results, kept by the test above (--out), read back: no second run.
    const text = await diff('h8d/head');
    expect(text.stdout.split('\n')[1]).toMatch(/^ {2}client-ceiling at faults\[0\]\.duration = 12m: recovery time 2m\d+s -> not recovered \(worse, beyond seed noise\)$/);
    const md = await diff('h8d/head', '--markdown');
    const lines = md.stdout.split('\n');
    expect(lines[1]).toMatch(/^### retrystorm diff: retry-storm: \d+ worse beyond seed noise, 1 expectation\(s\) now failing$/);
    expect(md.stdout).toContain('- client-ceiling: clients.app.layers.app.maxAttempts 4 → 8');
    expect(lines[3]).toMatch(/^- 🔴 client-ceiling at faults\\\[0\\\]\.duration = 12m: recovery time 2m\d+s → not recovered \(worse, beyond seed noise\)$/);
  }, 300_000);

  it('client-ceiling at 8 attempts alone changes nothing: its 20 s deadline and the honoured 30 s Retry-After end the retries first', async () => {
    const all = await diffUnchangedHead();
    const d = all.results;
    for (const p of d.points) for (const c of p.changes) expect(c.delta === null || c.delta === 0, `${p.variant} ${c.key}`).toBe(true);
    expect(all.scenario.changes.map((c: { path: string }) => c.path)).toEqual([GUARD_ADDED.path, 'clients.app.layers.app.maxAttempts', 'clients.partner.layers.app.maxAttempts', 'clients.sync.layers.sync.maxAttempts']);
  }, 300_000);

  it('a changed comment changes no number', async () => {
    const all = await diffUnchangedHead();
    const d = all.results;
    expect(d.points).toHaveLength(2);
    expect(all.guards).toMatchObject([{ passed: true, actual: expect.stringMatching(/^2m\d+s -> 2m\d+s: unchanged$/) }]);
    // The three attempts and the guard this head adds (the base has none): the comment itself is no change.
    expect(all.scenario.changes.filter((c: { path: string }) => !c.path.endsWith('.maxAttempts'))).toEqual([GUARD_ADDED]);
    expect(all.scenario.changes).toHaveLength(4);
    for (const p of d.points) for (const c of p.changes) expect(c.base === c.head && !c.beyondNoise, `${p.variant} ${c.key}`).toBe(true);
    expect(d.ranking.every((k: { changed: boolean }) => !k.changed)).toBe(true);
  }, 300_000);

  it('more seeds alone: numbers move, nothing beyond seed noise', async () => {
    const r = await diff('seeds-5.yaml', '--json');
    expect(r.code).toBe(0);
    const all = JSON.parse(r.stdout);
    const d = all.results;
    expect(d.base.seeds).toEqual([1, 2, 3]);
    expect(d.head.seeds).toEqual([1, 2, 3, 4, 5]);
    expect(all.scenario.changes).toEqual([{ variant: null, path: 'seeds', before: '3', after: '5', viaBefore: null, viaAfter: null }, GUARD_ADDED]);
    const changes = d.points.flatMap((p: { changes: unknown[] }) => p.changes);
    expect(changes.some((c: { delta: number | null }) => c.delta !== null && c.delta !== 0)).toBe(true); // two more seeds did move the means
    expect(changes.filter((c: { beyondNoise: boolean }) => c.beyondNoise)).toEqual([]);
    // Two more seeds move the mean recovery time by less than 10%: the guard passes.
    expect(all.guards).toHaveLength(1);
    expect(all.guards[0].passed).toBe(true);
    expect(Math.abs(all.guards[0].head - all.guards[0].base) / all.guards[0].base).toBeLessThan(0.1);
  }, 300_000);

  it('a guard on change fails the check when recovery worsens by more than it allows, and passes when it allows that much', async () => {
    // A 30 s deadline instead of 20 s: every seed still recovers, about 40% later. as-is is
    // unchanged, so its three storms are taken from the base (--reuse), as a user would.
    const r = await runCliProcess(dir, ['run', 'deadline-30s.yaml', '--base', 'base-out', '--reuse', 'base-out', '--out', 'deadline-30s-out']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/3 run\(s\) unchanged in base-out \(same scenario and seed\), taken from it/);
    const fail = /^FAIL {2}guard: client-ceiling at faults\[0\]\.duration=12m: recovery time worsens by at most 10% \((\d+)m(\d+)s -> (\d+)m(\d+)s: .* worse \(\+(\d+\.\d)% worse\)\)$/m.exec(r.stdout);
    expect(fail, r.stdout).not.toBeNull();
    const worse = Number(fail![5]);
    expect(worse).toBeGreaterThan(10);
    expect(worse).toBeLessThan(50);
    expect(r.stdout).toMatch(/^PASS {2}guard: client-ceiling at faults\[0\]\.duration=12m: recovery time worsens by at most 50% /m);
    expect(r.stdout).toMatch(/^PASS {2}client-ceiling at faults\[0\]\.duration=12m: recovered at least 100%/m); // the absolute check still passes
    expect(r.stderr).toMatch(/1 guard\(s\) on change failed against the base/);
  }, 300_000);

  it('refuses what would fail later before any run: a bad head file, a file as --out, a bad --workers (found by a probe of the command)', async () => {
    writeFileSync(join(dir, 'bad.yaml'), smallFlagship().replace(/slots: \d+/, 'slots: -3'));
    // The base is a scenario file, so it would run first: the head's problem is said before it does.
    const bad = await runCliProcess(dir, ['diff', 'base.yaml', 'bad.yaml'], { NO_COLOR: '1' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bad\.yaml:\d+:\d+ +server\.slots: /);
    expect(bad.stderr).not.toMatch(/base: running/);
    writeFileSync(join(dir, 'a-file'), 'x');
    const out = await runCliProcess(dir, ['diff', 'base.yaml', 'seeds-5.yaml', '--out', 'a-file'], { NO_COLOR: '1' });
    expect([out.code, out.stderr.split('\n')[0]]).toEqual([2, "retrystorm: --out a-file is a file, not a folder: name a folder to keep both sides' results in (DIR/base, DIR/head)"]);
    const workers = await diff('seeds-5.yaml', '--workers', 'abc');
    expect([workers.code, workers.stderr.split('\n')[0]]).toEqual([2, 'retrystorm: --workers must be a whole number ≥ 1 (got something that is not a number)']);
    // DIR/base a file, or DIR holding another writer's lock: said before the base runs (issue
    // 39: found after simulating, "internal error EEXIST", the runs lost), the way run says it.
    mkdirSync(join(dir, 'taken'), { recursive: true });
    writeFileSync(join(dir, 'taken', 'base'), 'x');
    const taken = await runCliProcess(dir, ['diff', 'base.yaml', 'seeds-5.yaml', '--out', 'taken'], { NO_COLOR: '1' });
    expect([taken.code, taken.stderr.split('\n')[0]]).toEqual([2, `retrystorm: --out ${join('taken', 'base')} is a file, not a folder: name a folder for the results (it is created if needed)`]);
    expect(taken.stderr).not.toMatch(/base: running/);
    mkdirSync(join(dir, 'busy'), { recursive: true });
    writeFileSync(join(dir, 'busy', '.head.lock'), `${process.pid}\n`);
    const busy = await runCliProcess(dir, ['diff', 'base.yaml', 'seeds-5.yaml', '--out', 'busy'], { NO_COLOR: '1' });
    expect([busy.code, busy.stderr.split('\n')[0]]).toEqual([2, `retrystorm: another retrystorm (pid ${process.pid}) is writing to ${join('busy', 'head')}: wait for it to finish, or name another --out`]);
    // The base's folder it had claimed is given back: no lock, no staging folder left.
    expect(readdirSync(join(dir, 'busy')).sort()).toEqual(['.head.lock']);
    // Two folders: nothing runs, so nothing is written to --out and no head "simulates every run".
    const folders = await runCliProcess(dir, ['diff', 'base-out', 'base-out', '--out', 'unused'], { NO_COLOR: '1' });
    expect(folders.code).toBe(0);
    expect(folders.stderr).toBe('note: --out unused: both sides are results folders already, so nothing is written there\n');
  });

  it.each([['base', 130], ['head', 130]] as const)('stopped by Ctrl-C while the %s runs, keeps its finished runs in --out, says so, and exits %i', async (which, code) => {
    // 60 seeds of a small world on one worker: the side runs for seconds, and the signal goes
    // when it says it started (a line printed after the handlers are installed).
    const world = (seeds: number) => `name: sig\nhorizon: 30m\nseeds: ${seeds}\nclients:\n  app:\n    arrivals: { kind: constant, rate: 100/s }\n    retry: { maxAttempts: 3, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 4s, jitter: full } }\nserver: { slots: 12, serviceTime: { kind: exponential, mean: 100ms } }\nfaults:\n  - { kind: dependency-down, at: 5m, duration: 2m }\n`;
    writeFileSync(join(dir, 'sig-base.yaml'), world(which === 'base' ? 60 : 2));
    writeFileSync(join(dir, 'sig-head.yaml'), world(60));
    const out = `sig-${which}`;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'diff', 'sig-base.yaml', 'sig-head.yaml', '--workers', '1', '--out', out], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '', stderr = '', sent = false;
      p.stdout.on('data', (d) => (stdout += d));
      p.stderr.on('data', (d) => {
        stderr += d;
        if (!sent && new RegExp(`^${which}: running`, 'm').test(stderr)) {
          sent = true;
          p.kill('SIGINT');
        }
      });
      p.on('close', (c) => done({ code: c, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(new RegExp(`${which}: PARTIAL: \\d+ of 60 run\\(s\\) of sig-${which}\\.yaml finished, kept in ${out}/${which} \\(marked partial\\)`));
    expect(JSON.parse(readFileSync(join(dir, out, which, 'summary.json'), 'utf8')).partial).toBe(true);
    if (which === 'base') {
      expect(r.stderr).toContain('no diff: the base did not finish, and a diff needs all of it');
      expect(r.stdout).toBe('');
    } else expect(r.stdout).toMatch(/^sig: .*head 60 seed\(s\), partial\)/);
  }, 120_000);

  it('refuses a side that is neither a folder nor a file, with exit code 2', async () => {
    const r = await diff('nowhere.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/head nowhere\.yaml: no such file or folder/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });
});
