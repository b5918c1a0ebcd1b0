/**
 * Splitting an experiment across machines: `run --shard i/n` on each, `merge` the folders,
 * and get exactly the bytes the unsharded run writes. Merging folders that are not shards
 * of one experiment is refused with exit code 2 and one line saying why.
 */
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expandRuns, inShard, parseShard, type RunSpec } from '../../src/experiment/expand.js';
import { assemble, runExperiment } from '../../src/experiment/experiment.js';
import type { RunResult } from '../../src/experiment/run-one.js';
import { loadScenario } from '../../src/scenario/load.js';
import { summaryText, seriesText } from '../helpers/outputs.js';
import { runsJson } from '../../src/experiment/runs-json.js';
import { writeOutputs } from '../../src/report/write.js';
import { MergeError, mergeDirs } from '../../src/experiment/merge.js';
import type { Results } from '../../src/results/results.js';

const ROOT = resolve(import.meta.dirname, '../..');

// 2 variants x 3 sweep points x 2 seeds = 12 runs; 12 is not a multiple of 5 (uneven shards below).
const SCENARIO = `
name: shards
horizon: 4m
seeds: 2
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 80/s }
    retry: { maxAttempts: 3, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 4s, jitter: full } }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 90s, duration: 10s }
sweep:
  - parameter: faults[0].duration
    values: [10s, 30s, 1m]
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 20 } }
expectations:
  - variant: short-queue
    attemptsPerAction: { atMost: 3 }
`;

// Another experiment: same shape, other name and one sweep point.
const OTHER = SCENARIO.replace('name: shards', 'name: other').replace('values: [10s, 30s, 1m]', 'values: [10s]');

// ── parseShard and inShard ─────────────────────────────────────────────────

describe('parseShard', () => {
  it('reads i/n', () => {
    expect(parseShard('1/2')).toEqual({ index: 1, count: 2 });
    expect(parseShard('2/2')).toEqual({ index: 2, count: 2 });
    expect(parseShard(' 3/10 ')).toEqual({ index: 3, count: 10 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
  });

  it.each([
    ['0/2', /between 1 and n/],
    ['3/2', /between 1 and n/],
    ['1/0', /between 1 and n/],
    ['x', /--shard takes i\/n, e\.g\. 2\/4 \(got "x"\)/],
    ['1/2/3', /takes i\/n/],
    ['-1/2', /takes i\/n/],
    ['1.5/2', /takes i\/n/],
    ['', /takes i\/n/],
  ])('%j is refused with a message', (text, message) => {
    const r = parseShard(text);
    expect(typeof r).toBe('string');
    expect(r).toMatch(message);
    expect(r as string).not.toContain('\n');
  });
});

describe('inShard', () => {
  it('puts every run in exactly one of n shards, and the shards differ in size by at most one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 9 }), (total, count) => {
        const runs: RunSpec[] = Array.from({ length: total }, (_, index) => ({ index, variant: 'v', point: 0, seed: index }));
        const sizes = Array.from({ length: count }, (_, i) => runs.filter((r) => inShard(r, { index: i + 1, count })).length);
        for (const r of runs) {
          expect(Array.from({ length: count }, (_, i) => inShard(r, { index: i + 1, count })).filter(Boolean)).toHaveLength(1);
        }
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
    expect(inShard({ index: 7, variant: 'v', point: 0, seed: 1 }, undefined)).toBe(true);
  });
});

describe('runExperiment with shards, folded by assemble', () => {
  it('5 uneven shards put together give the unsharded bytes; a shard alone is not partial and checks no expectation', async () => {
    const loaded = loadScenario(SCENARIO, 'shards.yaml');
    // On the calling thread (workers 0): what is checked is the folding, not the thread pool
    // (determinism.test.ts shows threads give the same bytes); a pool under vitest starts threads
    // that load the sources through tsx, six times here.
    const whole = await runExperiment(loaded, { workers: 0 });
    const results: Array<RunResult | undefined> = new Array(whole.runs.length);
    for (let i = 1; i <= 5; i++) {
      const part = await runExperiment(loaded, { workers: 0, shard: { index: i, count: 5 } });
      expect(part.partial).toBe(false);
      expect(part.expectations).toEqual([]);
      expect(part.runs).toEqual(whole.runs); // every shard knows the whole plan
      const mine = part.results.flatMap((r, index) => (r ? [index] : []));
      expect(mine).toEqual(whole.runs.filter((r) => r.index % 5 === i - 1).map((r) => r.index));
      for (const index of mine) results[index] = part.results[index];
    }
    const merged = assemble(loaded, whole.runs, results, [], false);
    expect(summaryText(merged)).toBe(summaryText(whole));
    expect(runsJson(merged)).toBe(runsJson(whole));
    expect(seriesText(merged)).toBe(seriesText(whole));
    // The users' latency is among what was compared, with values (equal bytes of nulls would
    // prove nothing): every point's quantiles and means, per population too, and the series.
    const summary = JSON.parse(summaryText(merged)) as Results;
    const latency = ['actionLatencyP50S', 'actionLatencyP95S', 'actionLatencyP99S', 'actionLatencyMeanS', 'attemptLatencyP50S', 'attemptLatencyP95S', 'attemptLatencyP99S', 'attemptLatencyMeanS'];
    for (const p of summary.variants.flatMap((v) => v.points)) {
      for (const k of latency) {
        expect(p.measures[k].value, k).toBeGreaterThan(0);
        expect(p.populations[0].measures[k].value, k).toBeGreaterThan(0);
      }
      expect(p.measures.actionLatencyP99S.value!).toBeGreaterThan(p.measures.actionLatencyP50S.value!);
    }
    expect(seriesText(merged).split('\n')[0]).toContain('action_latency_p99_ms');
    expect(whole.expectations.length).toBeGreaterThan(0);
    expect(expandRuns(loaded)).toEqual(whole.runs);
  });
});

// ── As processes: run --shard, merge ────────────────────────────────────────

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-shards-'));
  writeFileSync(join(dir, 'shards.yaml'), SCENARIO);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

const cli = (...args: string[]): Promise<Result> => runCliProcess(dir, args);
const cliWithEnv = (env: Record<string, string>, ...args: string[]): Promise<Result> => runCliProcess(dir, args, env);

const read = (...path: string[]) => readFileSync(join(dir, ...path), 'utf8');
const OUTPUTS = ['summary.json', 'timeseries.csv', 'populations.csv', 'expectations.xml', 'timeseries.openmetrics.txt', 'runs.json', 'report.html', 'summary.md'] as const;

/** A refusal: exit 2, a one-line reason (then the usage hint), no stack trace, nothing written. */
function expectRefused(r: Result, reason: RegExp, out: string): void {
  expect(r.code, r.stderr + r.stdout).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toMatch(/^retrystorm: /);
  expect(lines[0]).toMatch(reason);
  expect(lines.slice(1)).toEqual(['run "retrystorm --help" for usage']);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(existsSync(join(dir, out))).toBe(false);
}

describe('retrystorm run --shard i/n, then merge', () => {
  beforeAll(async () => {
    const runs = await Promise.all([
      cli('run', 'shards.yaml', '--shard', '1/2', '--out', 'A', '--workers', '1', '--quiet'),
      // Shard 2 as the second pod of a Kubernetes Indexed Job would run it (the index is 0-based).
      cliWithEnv({ JOB_COMPLETION_INDEX: '1' }, 'run', 'shards.yaml', '--shard', 'auto/2', '--out', 'B', '--workers', '1', '--quiet'),
      cli('run', 'shards.yaml', '--out', 'U', '--workers', '1', '--quiet'),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    // Folders that are not shards of the same experiment, written in-process on the calling thread
    // (cheaper than more processes, or than thread pools loading the sources through tsx).
    writeOutputs(await runExperiment(loadScenario(OTHER, 'other.yaml'), { workers: 0, shard: { index: 2, count: 2 } }), join(dir, 'other'));
    writeOutputs(await runExperiment(loadScenario(SCENARIO, 'shards.yaml'), { workers: 0, seeds: 1, shard: { index: 2, count: 2 } }), join(dir, 'seeds1'));
    writeOutputs(await runExperiment(loadScenario(SCENARIO, 'shards.yaml'), { workers: 0, seed: 7, shard: { index: 2, count: 2 } }), join(dir, 'seed7'));
  });

  it('each shard folder says which shard it is and holds only its runs', () => {
    const a = JSON.parse(read('A', 'summary.json'));
    const b = JSON.parse(read('B', 'summary.json'));
    const u = JSON.parse(read('U', 'summary.json'));
    expect(a.shard).toEqual({ index: 1, count: 2 });
    expect(b.shard).toEqual({ index: 2, count: 2 });
    expect(u.shard).toBeNull();
    expect([a.runsPlanned, b.runsPlanned, u.runsPlanned]).toEqual([12, 12, 12]);
    expect([a.runsFinished, b.runsFinished, u.runsFinished]).toEqual([6, 6, 12]);
    expect([a.partial, b.partial, u.partial]).toEqual([false, false, false]);
    // Expectations are checked once the shards are merged, not on a shard's half of the seeds.
    expect(a.expectations).toEqual([]);
    expect(u.expectations.length).toBe(3);
  });

  it('merge A B writes summary.json, timeseries.csv and runs.json byte-identical to the unsharded run', async () => {
    const r = await cli('merge', 'A', 'B', '--out', 'M');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PASS {2}short-queue at faults\[0\]\.duration=10s/);
    for (const name of [...OUTPUTS, 'scenario.yaml']) {
      expect(read('M', name) === read('U', name), `M/${name} differs from U/${name}`).toBe(true);
    }
  });

  it('refuses folders of different scenarios: exit 2, one line, nothing written', async () => {
    expectRefused(await cli('merge', 'A', 'other', '--out', 'bad1'), /other ran a different scenario file than A: only shards of one experiment can be merged/, 'bad1');
  });
});

describe('mergeDirs', () => {
  const at = (...names: string[]) => names.map((n) => join(dir, n));

  it('gives the same bytes whatever the order of the folders', () => {
    const x = mergeDirs(at('B', 'A'));
    expect(summaryText(x) === read('U', 'summary.json')).toBe(true);
    expect(runsJson(x) === read('U', 'runs.json')).toBe(true);
    expect(seriesText(x) === read('U', 'timeseries.csv')).toBe(true);
  });

  it('refuses a set of shards with one missing or one given twice (it would pass for an interruption)', () => {
    expect(() => mergeDirs(at('A'))).toThrow(/^shard 2\/2 missing: give the folders of every shard$/);
    expect(() => mergeDirs(at('A', 'A'))).toThrow(/are both shard 1\/2$/);
    expect(() => mergeDirs(at('A'))).toThrow(MergeError);
  });

  it.each([
    ['a different --seeds', 'seeds1', /seeds1 planned other runs than .*A \(different --seed or --seeds\?\)/],
    ['a different --seed', 'seed7', /seed7 planned other runs than .*A \(different --seed or --seeds\?\)/],
    ['a different scenario', 'other', /other ran a different scenario file than .*A/],
    ['a folder without results', 'nowhere', /nowhere\/scenario\.yaml: missing; a results folder is one written by "retrystorm run --out DIR" \(a shard's, by run --shard i\/n --out DIR\)/],
  ])('refuses %s with a one-line MergeError', (_what, folder, message) => {
    let error: unknown;
    try {
      mergeDirs(at('A', folder));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MergeError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses no folder at all', () => {
    expect(() => mergeDirs([])).toThrow(MergeError);
  });
});
