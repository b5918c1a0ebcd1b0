/**
 * Issue 17's reproducers as processes: a run that would never end or would take the host's
 * memory stops with a clear error, is listed as failed (exit 70), and the experiment's
 * other runs are kept. The child's peak RSS is measured (reported by the process itself as
 * it exits) and a watchdog kills it past 2 GiB, so this test can never take the host down.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';
import { peakRssKiB } from '../../bench/whole-process.js';
import { UNBOUNDED_TRIES } from '../helpers/budget-scenarios.js';

const GUARD_BYTES = 2 * 1024 ** 3;

interface Watched {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The child's own peak RSS (all its threads), MiB. */
  peakRssMiB: number;
  /** True when the watchdog had to kill it. */
  killed: boolean;
}

/** Current RSS of a process, from /proc (undefined where there is none). */
function rssBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function runWatched(cwd: string, args: string[]): Promise<Watched> {
  const env = { ...process.env };
  delete env.RETRYSTORM_DEBUG;
  const preload = join(ROOT, 'dist/bench/peak-rss.js');
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, ['--import', preload, join(ROOT, 'bin/retrystorm.js'), ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', killed = false;
    const watchdog = setInterval(() => {
      const rss = p.pid === undefined ? undefined : rssBytes(p.pid);
      if (rss !== undefined && rss > GUARD_BYTES) {
        killed = true;
        p.kill('SIGKILL');
      }
    }, 100);
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', (e) => {
      clearInterval(watchdog);
      fail(e);
    });
    p.on('close', (code) => {
      clearInterval(watchdog);
      done({ code, stdout, stderr, killed, peakRssMiB: (peakRssKiB(stderr) ?? NaN) / 1024 });
    });
  });
}

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'retrystorm-budget-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function summary(out: string) {
  return JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
    partial: boolean;
    runsFinished: number;
    failedRuns: Array<{ variant: string; point: number; seed: number; message: string }>;
  };
}

describe('a run past its budget, as a process', () => {
  it('three layers of 1,000 tries with no backoff against a dependency that is down: the run stops, the other variant is kept, exit 70', async () => {
    const file = join(dir, 'unbounded-tries.yaml');
    writeFileSync(
      file,
      `${UNBOUNDED_TRIES.trimStart()}variants:
  unbounded: {}
  few-tries:
    overlay:
      clients: { app: { layers: { outer: { maxAttempts: 2 }, middle: { maxAttempts: 2 }, inner: { maxAttempts: 3 } } } }
`,
    );
    const out = join(dir, 'out-tries');
    const r = await runWatched(dir, ['run', file, '--out', out, '--workers', '2']);
    expect(r.killed, `the CLI passed ${GUARD_BYTES / 1024 ** 3} GiB and was killed`).toBe(false);
    expect(r.code, r.stderr).toBe(70);
    expect(r.stderr).toMatch(
      /^FAILED RUN: variant unbounded, point 0, seed 1: run stopped at t = 1\.\d+ s of 60 s: [\d,]+ events ran at one instant without the clock moving, over the budget of 1,006,000: the model is in a loop of zero-delay events .*A bounded queue, a backoff, fewer tries or a shorter horizon keep a run smaller/m,
    );
    expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
    const s = summary(out);
    expect(s.partial).toBe(true);
    expect(s.runsFinished).toBe(1);
    expect(s.failedRuns.map((f) => f.variant)).toEqual(['unbounded']);
    // Memory follows what is in flight (a few actions), not the million tries made: the
    // whole CLI, two worker threads included, stays near its size at rest.
    expect(r.peakRssMiB).toBeGreaterThan(30);
    expect(r.peakRssMiB).toBeLessThan(600);
  }, 300_000);

  it('a queue that grows without end stops at --max-run-memory, naming what grew; the bounded variant is kept', async () => {
    const file = join(dir, 'queue.yaml');
    writeFileSync(
      file,
      `name: queue-without-end
horizon: 5m
clients:
  app:
    arrivals: { kind: constant, rate: 2000/s }
    retry: { maxAttempts: 1, timeout: 1h }
server:
  slots: 1
  serviceTime: { kind: constant, value: 100ms }
variants:
  unbounded: {}
  short-queue:
    overlay: { server: { queue: 100 } }
`,
    );
    const out = join(dir, 'out-queue');
    const r = await runWatched(dir, ['run', file, '--out', out, '--workers', '2', '--max-run-memory', '64MiB']);
    expect(r.killed).toBe(false);
    expect(r.code, r.stderr).toBe(70);
    expect(r.stderr).toMatch(
      /^FAILED RUN: variant unbounded, point 0, seed 1: run stopped at t = [\d.]+ s of 300 s: the run would hold more than its memory budget of 64 MiB \(\d+ MiB of simulation state when .+ grew\)\. .*--max-run-memory gives each run more/m,
    );
    const s = summary(out);
    expect(s.runsFinished).toBe(1);
    expect(s.failedRuns.map((f) => f.variant)).toEqual(['unbounded']);
    // The run held at most 64 MiB of state, on top of the CLI at rest.
    expect(r.peakRssMiB).toBeLessThan(600);
  }, 300_000);

  it('refuses a --max-run-memory without a unit, before running anything', async () => {
    const r = await runWatched(dir, ['run', join(ROOT, 'scenarios/reference-storm.yaml'), '--out', join(dir, 'unused'), '--max-run-memory', '512']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^retrystorm: --max-run-memory: expected a size with a unit such as 512MiB or 4GiB \(got "512"\)$/m);
  });
});
