/**
 * Progress of `retrystorm run` as a process, with one long run (the case that used to be
 * silent from start to end): in a pipe, plain lines that say how far the run has got in
 * simulated time while it is still running; on a terminal (a pseudo-terminal from `script`),
 * a block redrawn in place with the run's own bar. Lines are counted and read for their
 * simulated time; no wall-clock gap is measured here (the interval itself is checked with a
 * fake clock in progress.test.ts).
 *
 * The long run is sized so that no engine could finish it while the test reads (4 simulated
 * hours of a storm: about 20 s today, and still seconds at the speed of a hand-written loop),
 * and the test stops it with Ctrl-C as soon as it has read three different positions in the
 * middle of the run. So the test neither waits for the whole run nor depends on how fast the
 * engine is: a faster engine only means the three positions come sooner. What needs a finished
 * run (the closing line, results identical to a run without progress) uses a short one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { parseDuration } from '../../src/scenario/units.js';

// A storm after an 8-minute outage at 400 actions/s.
const scenario = (horizon: string) => `
name: one-long-run
horizon: ${horizon}
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
/** The long run, stopped once it has shown it moving. */
const LONG_S = 4 * 3600;
/** A short run (about 0.2 s, still several of the engine's progress polls) that finishes. */
const SHORT_S = 5 * 60;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-progress-'));
  writeFileSync(join(dir, 'long.yaml'), scenario('4h'));
  writeFileSync(join(dir, 'short.yaml'), scenario('5m'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const seconds = (text: string) => {
  const d = parseDuration(text);
  if (!d.ok) throw new Error(`not a duration: ${text}`);
  return d.value;
};

/**
 * Spawns `command` and reads what it prints as it comes; the first time `enough(output)` holds,
 * it calls `stop` (Ctrl-C, as a user would press it). Resolves when the process has ended.
 */
function watch(
  command: string,
  args: string[],
  opts: { cwd: string; enough: (output: string) => boolean; stop: (p: ReturnType<typeof spawn>) => void; stderrOnly?: boolean },
): Promise<{ code: number | null; output: string; stopped: boolean }> {
  return new Promise((done, fail) => {
    const p = spawn(command, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let stopped = false;
    const read = (d: Buffer) => {
      output += d;
      if (!stopped && opts.enough(output)) {
        stopped = true;
        opts.stop(p);
      }
    };
    if (opts.stderrOnly) p.stdout.resume();
    else p.stdout.on('data', read);
    p.stderr.on('data', read);
    p.on('error', fail);
    p.on('close', (code) => {
      p.stdin.destroy();
      done({ code, output, stopped });
    });
  });
}

/** Progress lines of the one run in the middle of it: its share of the time and its position. */
const during = (stderr: string, horizon: string) =>
  stderr
    .split('\n')
    .map((l) => new RegExp(`^progress: 0/1 runs, ([\\d.]+)% of simulated time, ETA \\S+; running: base, seed 1 at (\\S+) of ${horizon}$`).exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ percent: Number(m[1]), simS: seconds(m[2]) }));
/** Different positions strictly inside the run. */
const positions = (runs: { simS: number }[], horizonS: number) => new Set(runs.map((d) => d.simS).filter((s) => s > 0 && s < horizonS));
const CLI = [join(ROOT, 'bin/retrystorm.js')];
const PROGRESS_LINE = /^progress: /;

describe('retrystorm run, one long run, stderr a pipe', () => {
  it('prints plain progress lines while the run is in progress, each saying how far it has got in simulated time', async () => {
    const r = await watch(process.execPath, [...CLI, 'run', 'long.yaml', '--out', 'pipe', '--progress-every', '100ms'], {
      cwd: dir,
      stderrOnly: true,
      enough: (stderr) => positions(during(stderr, '4h'), LONG_S).size >= 3,
      stop: (p) => p.kill('SIGINT'),
    });
    // Stopped by the test in the middle of the run (Ctrl-C: the finished runs, none, are kept).
    expect(r.stopped, r.output).toBe(true);
    expect(r.code, r.output).toBe(130);
    expect(r.output).not.toMatch(/\r|\x1b\[/); // no redraws in a log
    const lines = r.output.split('\n').filter((l) => PROGRESS_LINE.test(l));
    // While running: "0/1 runs, 4.1% of simulated time, ETA 14s; running: base, seed 1 at 9m50s of 4h".
    const runs = during(r.output, '4h');
    // Reported every 0.1 s while the run moves: three different positions in the middle of the
    // run (what the test waited for) are a floor that only a display that does not report
    // within a run could miss.
    expect(positions(runs, LONG_S).size).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < runs.length; i++) expect(runs[i].simS).toBeGreaterThanOrEqual(runs[i - 1].simS);
    // The share of simulated time matches the run's position. Both are rounded down for display
    // (the share below 10% to 0.1 point, the position to the second, 100/14,400 of a point).
    for (const d of runs.filter((x) => x.simS > 0)) {
      expect(d.percent).toBeLessThanOrEqual((100 * (d.simS + 1)) / LONG_S);
      expect(d.percent).toBeGreaterThan((100 * d.simS) / LONG_S - 0.1);
    }
    // Every line is one of those, or one from before the worker had started the run.
    const waiting = lines.filter((l) => /^progress: 0\/1 runs, 0\.0% of simulated time, ETA \?$/.test(l));
    expect(lines.length - runs.length - waiting.length, lines.join('\n')).toBe(0);
    expect(r.output).toMatch(/^PARTIAL: 0 of 1 runs finished/m);
  });

  it('closes with a line for the finished experiment, and the results are those of a run without progress', async () => {
    const r = await runCliProcess(dir, ['run', 'short.yaml', '--out', 'pipe-short', '--progress-every', '100ms']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\r|\x1b\[/);
    const lines = r.stderr.split('\n').filter((l) => PROGRESS_LINE.test(l));
    // Lines while it runs (if the run lasts long enough for any), then the closing one.
    const waiting = lines.filter((l) => /^progress: 0\/1 runs, 0\.0% of simulated time, ETA \?$/.test(l));
    expect(lines.length - during(r.stderr, '5m').length - waiting.length).toBe(1);
    expect(lines.at(-1)).toMatch(/^progress: 1\/1 runs, 100% of simulated time, ETA 0s, [\d.]+[kM]? attempts\/s$/);
    // The progress is for people only: the results are those of a run without it (--quiet).
    // The run is long enough for the engine's progress polls (every 64k events) to have run
    const quiet = await runCliProcess(dir, ['run', 'short.yaml', '--out', 'quiet', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const summary = readFileSync(join(dir, 'pipe-short', 'summary.json'), 'utf8');
    expect(summary).toBe(readFileSync(join(dir, 'quiet', 'summary.json'), 'utf8'));
    // Each attempt is at least one event: more than 65,536 attempts mean the polls ran.
    expect(JSON.parse(readFileSync(join(dir, 'pipe-short', 'runs.json'), 'utf8')).results[0].summary.measures.attempts).toBeGreaterThan(65_536);
  });

  it('refuses a --progress-every without a unit, with one line and exit 2', async () => {
    const r = await runCliProcess(dir, ['run', 'short.yaml', '--out', 'bad', '--progress-every', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^retrystorm: --progress-every takes a duration above 0 with its unit, e\.g\. 5s or 1m \(got "5"\)$/m);
  });
});

describe('retrystorm run, one long run, on a terminal', () => {
  it('redraws a block in place: the experiment bar and the run bar, moving through simulated time', async () => {
    // `script` gives the CLI a pseudo-terminal for stdout and stderr and copies what it draws;
    // a Ctrl-C typed into it reaches the CLI as SIGINT, as from a user at the keyboard.
    // NO_COLOR: the summary's heading is bold on a terminal, and this test reads its words.
    const command = `exec env NO_COLOR=1 ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI[0])} run long.yaml --out tty --progress-every 50ms`;
    const runBars = (output: string) =>
      output
        .replace(/\r\n/g, '\n')
        .split('\r')
        .filter((f) => /^\[[#-]{24}\] /.test(f))
        .map((f) => /\n {2}\[([#-]{16})\] (\S+) of 4h {2}base, seed 1/.exec(f))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ simS: seconds(m[2]) }));
    const { code, output, stopped } = await watch('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd: dir,
      enough: (out) => positions(runBars(out), LONG_S).size >= 3,
      stop: (p) => p.stdin!.write('\x03'),
    });
    expect(stopped, output.slice(0, 2000)).toBe(true);
    expect(code, output.slice(-2000)).toBe(130);
    expect(output).not.toMatch(/^progress: /m); // no plain log lines on a terminal
    // Frames: each redraw starts with a carriage return (after a cursor-up once there are two lines).
    // The terminal turns each \n into \r\n; undo that first.
    const frames = output.replace(/\r\n/g, '\n').split('\r').filter((f) => /^\[[#-]{24}\] /.test(f));
    const bars = runBars(output).map((b) => b.simS);
    expect(positions(runBars(output), LONG_S).size).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < bars.length; i++) expect(bars[i]).toBeGreaterThanOrEqual(bars[i - 1]);
    // Redrawn in place: the cursor goes up over the run's line before the next frame.
    expect(output).toContain('\x1b[1A\r[');
    // The last frame shows where the experiment stopped, then the summary follows on its own
    // lines (the finished picture, 1/1 runs at 100%, is drawn in progress.test.ts).
    expect(frames.at(-1)).toMatch(/^\[[#-]{24}\] 0\/1 runs, [\d.]+% of simulated time, ETA \S+\x1b\[K\n {2}\[[#-]{16}\] \S+ of 4h {2}base, seed 1\x1b\[K\x1b\[J\n/);
    expect(output).toMatch(/one-long-run: 1 variant\(s\) x 1 seed\(s\)/);
    expect(output).toMatch(/^PARTIAL: 0 of 1 runs finished/m);
  });
});
