/**
 * Progress of `retrystorm run` as a process, with one long run (the case that used to be
 * silent from start to end): in a pipe, plain lines that say how far the run has got in
 * simulated time while it is still running; on a terminal (a pseudo-terminal from `script`),
 * a block redrawn in place with the run's own bar. Lines are counted and read for their
 * simulated time; no wall-clock gap is measured here (the interval itself is checked with a
 * fake clock in progress.test.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { parseDuration } from '../../src/scenario/units.js';

// One run of a second or two: 20 simulated minutes, a storm after an 8-minute outage.
const SCENARIO = `
name: one-long-run
horizon: 20m
clients:
  app:
    arrivals: { kind: constant, rate: 400/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 8s, jitter: full } }
server:
  slots: 50
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 3m, duration: 8m }
`;
const HORIZON_S = 1200;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-progress-'));
  writeFileSync(join(dir, 'one.yaml'), SCENARIO);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const seconds = (text: string) => {
  const d = parseDuration(text);
  if (!d.ok) throw new Error(`not a duration: ${text}`);
  return d.value;
};

describe('retrystorm run, one long run, stderr a pipe', () => {
  it('prints plain progress lines while the run is in progress, each saying how far it has got in simulated time', async () => {
    const r = await runCliProcess(dir, ['run', 'one.yaml', '--out', 'pipe', '--progress-every', '100ms']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\r|\x1b\[/); // no redraws in a log
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('progress: '));
    // While running: "0/1 runs, 41% of simulated time, ETA 14s; running: base, seed 1 at 8m12s of 20m".
    const during = lines
      .map((l) => /^progress: 0\/1 runs, ([\d.]+)% of simulated time, ETA \S+; running: base, seed 1 at (\S+) of 20m$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ percent: Number(m[1]), simS: seconds(m[2]) }));
    const moving = during.filter((d) => d.simS > 0 && d.simS < HORIZON_S);
    // A run of seconds, reported every 0.1 s: many lines in the middle of the run (3 is a floor
    // that only a progress display that does not report within a run could miss).
    expect(moving.length, r.stderr).toBeGreaterThanOrEqual(3);
    expect(new Set(moving.map((d) => d.simS)).size).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < during.length; i++) expect(during[i].simS).toBeGreaterThanOrEqual(during[i - 1].simS);
    // The share of simulated time matches the run's position (both are rounded for display).
    for (const d of moving) expect(Math.abs(d.percent - (100 * d.simS) / HORIZON_S)).toBeLessThanOrEqual(1);
    // Every line is one of those, or one from before the worker had started the run, or the closing one.
    const waiting = lines.filter((l) => /^progress: 0\/1 runs, 0\.0% of simulated time, ETA \?$/.test(l));
    expect(lines.length - during.length - waiting.length).toBe(1);
    expect(lines.at(-1)).toMatch(/^progress: 1\/1 runs, 100% of simulated time, ETA 0s, [\d.]+[kM]? attempts\/s$/);
    // The progress is for people only: the results are those of a run without it (--quiet).
    const quiet = await runCliProcess(dir, ['run', 'one.yaml', '--out', 'quiet', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(readFileSync(join(dir, 'pipe', 'summary.json'), 'utf8')).toBe(readFileSync(join(dir, 'quiet', 'summary.json'), 'utf8'));
  });

  it('refuses a --progress-every without a unit, with one line and exit 2', async () => {
    const r = await runCliProcess(dir, ['run', 'one.yaml', '--out', 'bad', '--progress-every', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^retrystorm: --progress-every takes a duration above 0 with its unit, e\.g\. 5s or 1m \(got "5"\)$/m);
  });
});

describe('retrystorm run, one long run, on a terminal', () => {
  it('redraws a block in place: the experiment bar and the run bar, moving through simulated time', async () => {
    // `script` gives the CLI a pseudo-terminal for stdout and stderr and copies what it draws.
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/retrystorm.js'))} run one.yaml --out tty --progress-every 50ms`;
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done, fail) => {
      const p = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      p.stdout.on('data', (d) => (output += d));
      p.stderr.on('data', (d) => (output += d));
      p.on('error', fail);
      p.on('close', (c) => done({ code: c, output }));
    });
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/^progress: /m); // no plain log lines on a terminal
    // Frames: each redraw starts with a carriage return (after a cursor-up once there are two lines).
    // The terminal turns each \n into \r\n; undo that first.
    const frames = output.replace(/\r\n/g, '\n').split('\r').filter((f) => /^\[[#-]{24}\] /.test(f));
    const runBars = frames
      .map((f) => /\n {2}\[([#-]{16})\] (\S+) of 20m {2}base, seed 1/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => seconds(m[2]));
    const moving = runBars.filter((s) => s > 0 && s < HORIZON_S);
    expect(new Set(moving).size, output.slice(0, 2000)).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < runBars.length; i++) expect(runBars[i]).toBeGreaterThanOrEqual(runBars[i - 1]);
    // Redrawn in place: the cursor goes up over the run's line before the next frame.
    expect(output).toContain('\x1b[1A\r[');
    // The last frame shows the experiment done, then the summary follows on its own lines.
    expect(frames.at(-1)).toMatch(/^\[#{24}\] 1\/1 runs, 100% of simulated time, ETA 0s/);
    expect(output).toMatch(/one-long-run: 1 variant\(s\) x 1 seed\(s\)/);
  });
});
