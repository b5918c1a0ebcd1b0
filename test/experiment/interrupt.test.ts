/**
 * Ctrl-C during `retrystorm run`: the finished runs are kept and written, summary.json says
 * "partial": true, stderr says PARTIAL, and the exit code is 130. The process test uses one
 * worker (runs on the main thread, the case where a busy loop could starve the SIGINT
 * handler); the pool's abort is tested in-process below, which costs less CPU.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { ensureBuilt } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');

// 2 variants x 3 points x 30 seeds = 180 runs of ~0.3 s: about a minute of work, of which
// the test lets a few seconds happen.
const SCENARIO = `
name: interrupt
horizon: 20m
seeds: 3
measures: { bucket: 10s, hold: 1m }
clients:
  app:
    arrivals: { kind: constant, rate: 200/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 8s } }
server:
  slots: 25
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 5m, duration: 1m }
sweep:
  - parameter: faults[0].duration
    values: [10s, 1m, 3m]
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 50 } }
expectations:
  - variant: short-queue
    recoveryTimeS: { atMost: 2m }
`;

// 2 variants x 30 seeds of ~0.05 s each, for the in-process tests.
const QUICK = `
name: quick
horizon: 5m
seeds: 30
clients:
  app:
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 4, timeout: 1s }
server:
  slots: 12
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 2m, duration: 30s }
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 20 } }
`;

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-interrupt-'));
  writeFileSync(join(dir, 'interrupt.yaml'), SCENARIO);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts a run and sends the signal once a run has certainly finished: when a progress line
 * says so (without a terminal one is printed every --progress-every, here 200 ms, with how
 * many runs are done), so the test waits for what the CLI says, never for a time that depends
 * on this machine.
 */
function runAndInterrupt(out: string, workers: number, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): Promise<Interrupted> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'run', 'interrupt.yaml', '--seeds', '30', '--workers', String(workers), '--progress-every', '200ms', '--out', out], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '', stderr = '';
    let sent = false;
    let stopTimer: NodeJS.Timeout | undefined;
    // Hang guards only, generous multiples of the quiet times (a finished run within a second
    // or two, a stop within a second or two), so a machine at load 10 does not fail the test.
    const giveUp = setTimeout(() => {
      p.kill('SIGKILL');
      fail(new Error(`no progress line within 200 s; stderr: ${stderr}`));
    }, 200_000);
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => {
      stderr += d;
      if (!sent && /^progress: [1-9]\d*\/180 runs/m.test(stderr)) {
        sent = true;
        p.kill(signal);
        // Not stopping within 60 s means the signal was not honoured: end it and let the test say so.
        stopTimer = setTimeout(() => p.kill('SIGKILL'), 60_000);
      }
    });
    p.on('error', fail);
    p.on('close', (code, signal) => {
      clearTimeout(giveUp);
      clearTimeout(stopTimer);
      done({ code, signal, stdout, stderr });
    });
  });
}

/**
 * The process handled `signal` rather than dying of it, exited with `code` before finishing
 * every run (that would take about a minute; fewer than all 180 are kept), said so, and wrote
 * the finished runs marked partial. Returns summary.json for further checks.
 */
function expectStoppedAndPartial(r: Interrupted, out: string, signal: 'SIGINT' | 'SIGTERM', code: number) {
  expect(r.signal, `killed by ${signal} instead of handling it (or still running 15 s after it); stderr: ${r.stderr}`).toBeNull();
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr).toMatch(new RegExp(`stopping \\(${signal}\\): keeping finished runs`));
  const partialLine = /^PARTIAL: (\d+) of 180 runs finished/m.exec(r.stderr);
  expect(partialLine, r.stderr).not.toBeNull();
  const summary = JSON.parse(readFileSync(join(dir, out, 'summary.json'), 'utf8'));
  expect(summary.partial).toBe(true);
  expect(summary.runsPlanned).toBe(180);
  expect(summary.runsFinished).toBeGreaterThanOrEqual(1);
  expect(summary.runsFinished).toBeLessThan(180);
  expect(summary.runsFinished).toBe(Number(partialLine![1]));
  // Said on stdout too, above the verdict and the table, which read only the finished runs.
  expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^PARTIAL: ${partialLine![1]} of 180 runs finished; the verdict, the table and the ranking below read only those`));
  return summary;
}

describe('retrystorm run --workers 1, then Ctrl-C', () => {
  const workers = 1;
  it('exits 130 and writes the finished runs, marked partial', async () => {
    const out = `w${workers}`;
    const r = await runAndInterrupt(out, workers);
    const summary = expectStoppedAndPartial(r, out, 'SIGINT', 130);
    expect(summary.failedRuns).toEqual([]); // an interrupted run is not a failed run

    // The other files hold the same finished runs, and no half-written file is left behind.
    const runs = JSON.parse(readFileSync(join(dir, out, 'runs.json'), 'utf8'));
    expect(runs.interrupted).toBe(true);
    expect(runs.results).toHaveLength(summary.runsFinished);
    const csvRows = readFileSync(join(dir, out, 'timeseries.csv'), 'utf8').trim().split('\n').length - 1;
    expect(csvRows).toBe(summary.runsFinished * (20 * 6)); // 20m of 10s buckets per run
    expect(existsSync(join(dir, out, 'summary.json.tmp'))).toBe(false);
  });
});

describe('retrystorm run, then SIGTERM (a pod or CI job being stopped)', () => {
  it('exits 143 and writes the finished runs, marked partial, like Ctrl-C', async () => {
    const out = 'term';
    const r = await runAndInterrupt(out, 2, 'SIGTERM');
    expectStoppedAndPartial(r, out, 'SIGTERM', 143);
  });
});

// ── In-process: aborting runExperiment from a timer ─────────────────────────
// The abort comes from a timer, as a SIGINT handler's would: it can only fire if the
// experiment lets the event loop turn between runs (a synchronous loop over the runs would
// finish them all first).

describe.each([1, 2])('runExperiment with workers %i, aborted after the first finished run', (workers) => {
  it('stops, keeps the finished runs, reports no failure, and is partial', async () => {
    const loaded = loadScenario(QUICK, 'quick.yaml');
    const abort = new AbortController();
    const x = await runExperiment(loaded, {
      workers,
      signal: abort.signal,
      onRun: (done) => {
        if (done === 1) setTimeout(() => abort.abort(), 0);
      },
    });
    const finished = x.results.filter(Boolean).length;
    expect(finished).toBeGreaterThanOrEqual(1);
    expect(finished).toBeLessThan(x.runs.length / 2); // 60 runs; stopping takes a run or two per worker
    expect(x.partial).toBe(true);
    expect(x.failures).toEqual([]);
    // What finished is stored at its own index and aggregated.
    for (const [i, r] of x.results.entries()) if (r) expect([r.variant, r.point, r.seed]).toEqual([x.runs[i].variant, x.runs[i].point, x.runs[i].seed]);
    expect(x.variants.flatMap((v) => v.points).reduce((a, p) => a + p.runs, 0)).toBe(finished);
  });
});

describe('retrystorm run, one long run, Ctrl-C', () => {
  it('stops the run itself (it runs on a worker thread), exits 130 and writes a partial result', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rs-one-'));
    const p = spawn(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'run', join(ROOT, 'scenarios/reference-storm.yaml'), '--seeds', '1', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let sent = false;
    // The CLI says when its signal handlers are in place; a signal sent before that would kill it.
    p.stderr.on('data', (d) => {
      stderr += d;
      if (!sent && /^running 2 run\(s\)/m.test(stderr)) {
        sent = true;
        p.kill('SIGINT');
      }
    });
    const guard = setTimeout(() => p.kill('SIGKILL'), 240_000); // a hang guard, not a timing check
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => p.on('close', (c, s) => done([c, s])));
    clearTimeout(guard);
    expect(signal, stderr).toBeNull();
    expect(code, stderr).toBe(130);
    // The signal came before either 1-hour storm could finish: stopping means stopping the
    // runs themselves, not waiting for them.
    expect(stderr).toMatch(/PARTIAL: 0 of 2 runs finished/);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).partial).toBe(true);
    rmSync(out, { recursive: true, force: true });
  }, 300_000);
});
