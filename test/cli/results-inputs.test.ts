// A results folder holds what its scenario read besides itself (a trace, a deployed config):
// runs.json records each file (path as written, sha256) and inputs/ keeps a copy, so `merge`,
// `run --reuse` and `diff` read the scenario from the folder alone, from any working folder
// and wherever the folder sits. A changed input is never mixed in: --reuse simulates the runs
// that read it again, merge refuses shards whose inputs differ. A path leaving the scenario's
// folder is refused unless --allow-outside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt, runCliProcess } from '../helpers/cli.js';

// Two variants, each replaying its own small trace of counts per 10 s step.
const TRACE = 'time,count\n0,100\n10,300\n20,200\n30,400\n40,100\n50,150\n';
const TRACE_B = 'time,count\n0,200\n10,100\n20,300\n30,100\n40,250\n50,150\n';
const traced = (file: string, fileB: string) => `name: traced
horizon: 1m
seeds: 2
measures: { bucket: 10s, hold: 10s }
clients:
  app:
    arrivals: { kind: trace, file: ${file}, format: csv, columns: { time: time, count: count } }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 5, serviceTime: { kind: exponential, mean: 100ms } }
variants:
  recorded: {}
  other-day:
    overlay: { clients: { app: { arrivals: { file: ${fileB} } } } }
`;
const ENVOY = `name: envoy
horizon: 1m
seeds: 2
measures: { bucket: 10s, hold: 10s }
clients:
  app:
    arrivals: { kind: constant, rate: 40/s }
    layers:
      proxy: { from: { envoy: configs/envoy-routes.yaml, route: api } }
server: { slots: 5, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: dependency-down, at: 20s, duration: 10s }
`;

let dir: string;
const cli = (cwd: string, ...args: string[]) => runCliProcess(join(dir, cwd), args);
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-inputs-'));
  // The scenarios in one folder, the results in another, commands run from a third.
  for (const d of ['project/data', 'project/configs', 'results', 'elsewhere']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'project/data/day.csv'), TRACE);
  writeFileSync(join(dir, 'project/data/other.csv'), TRACE_B);
  writeFileSync(join(dir, 'project/traced.yaml'), traced('data/day.csv', 'data/other.csv'));
  copyFileSync(join(ROOT, 'test/scenario/from-config/envoy-routes.yaml'), join(dir, 'project/configs/envoy-routes.yaml'));
  writeFileSync(join(dir, 'project/envoy.yaml'), ENVOY);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a scenario whole and in two shards, then merges the shards from another working folder. */
async function wholeAndMerged(scenario: string, name: string): Promise<void> {
  for (const [out, shard] of [[`${name}-whole`], [`${name}-1`, '1/2'], [`${name}-2`, '2/2']] as const) {
    const r = await cli('project', 'run', scenario, '--out', `../results/${out}`, '--quiet', '--workers', '1', ...(shard ? ['--shard', shard] : []));
    expect(r.code, r.stderr).toBe(0);
  }
  const m = await cli('elsewhere', 'merge', `../results/${name}-1`, `../results/${name}-2`, '--out', `${name}-merged`);
  expect(m.stderr).not.toMatch(/^\s+at /m);
  expect(m.code, m.stderr).toBe(0);
  expect(read('elsewhere', `${name}-merged`, 'summary.json')).toBe(read('results', `${name}-whole`, 'summary.json'));
}

describe('a results folder carries the files its scenario read', () => {
  it('shards of a scenario with trace files merge from another working folder into the unsharded summary.json, byte for byte', async () => {
    await wholeAndMerged('traced.yaml', 'traced');
    const runs = JSON.parse(read('results', 'traced-whole', 'runs.json')) as { inputs?: Array<{ path: string; sha256: string }> };
    expect(runs.inputs).toEqual([
      { path: 'data/day.csv', sha256: sha256(TRACE) },
      { path: 'data/other.csv', sha256: sha256(TRACE_B) },
    ]);
    // The copies mirror the paths as written, in the results and in the merged folder.
    expect(read('results', 'traced-whole', 'inputs/data/day.csv')).toBe(TRACE);
    expect(read('elsewhere', 'traced-merged', 'inputs/data/other.csv')).toBe(TRACE_B);
  }, 120_000);

  it('the same with a deployed Envoy config (from:) in a subfolder of the scenario\'s', async () => {
    await wholeAndMerged('envoy.yaml', 'envoy');
    expect(read('results', 'envoy-1', 'inputs/configs/envoy-routes.yaml')).toBe(readFileSync(join(ROOT, 'test/scenario/from-config/envoy-routes.yaml'), 'utf8'));
  }, 120_000);

  it('diff of two results folders, from another working folder, compares their scenarios (read from the folders)', async () => {
    const d = await cli('elsewhere', 'diff', '../results/traced-whole', 'traced-merged', '--json');
    expect(d.code, d.stderr).toBe(0);
    const report = JSON.parse(d.stdout) as { scenarioNote: string | null; scenario: unknown };
    expect(report.scenarioNote).toBeNull();
    expect(report.scenario).not.toBeNull();
  }, 60_000);

  it('run --reuse takes every run while the traces are unchanged, and simulates again the runs of the variant whose trace was edited', async () => {
    const same = await cli('project', 'run', 'traced.yaml', '--reuse', '../results/traced-whole', '--out', '../results/reused', '--workers', '1');
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toMatch(/^running 0 run\(s\) on 1 worker\(s\); 4 run\(s\) unchanged in \.\.\/results\/traced-whole/m);
    writeFileSync(join(dir, 'project/data/other.csv'), TRACE_B.replace('30,100', '30,900'));
    try {
      const edited = await cli('project', 'run', 'traced.yaml', '--reuse', '../results/traced-whole', '--out', '../results/reused-edited', '--workers', '1');
      expect(edited.code, edited.stderr).toBe(0);
      // other-day's 2 seeds read the edited file; recorded's 2 runs did not change.
      expect(edited.stderr).toMatch(/^running 2 run\(s\) on 1 worker\(s\); 2 run\(s\) unchanged in \.\.\/results\/traced-whole/m);
      const fresh = await cli('project', 'run', 'traced.yaml', '--out', '../results/edited-fresh', '--quiet', '--workers', '1');
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(read('results', 'reused-edited', 'summary.json')).toBe(read('results', 'edited-fresh', 'summary.json'));
      expect(read('results', 'reused-edited', 'summary.json')).not.toBe(read('results', 'traced-whole', 'summary.json'));
    } finally {
      writeFileSync(join(dir, 'project/data/other.csv'), TRACE_B);
    }
  }, 120_000);

  it('merge refuses shards run on different versions of a trace, in one message', async () => {
    writeFileSync(join(dir, 'project/data/day.csv'), TRACE.replace('20,200', '20,500'));
    try {
      const r = await cli('project', 'run', 'traced.yaml', '--shard', '2/2', '--out', '../results/traced-2-edited', '--quiet', '--workers', '1');
      expect(r.code, r.stderr).toBe(0);
    } finally {
      writeFileSync(join(dir, 'project/data/day.csv'), TRACE);
    }
    const m = await cli('elsewhere', 'merge', '../results/traced-1', '../results/traced-2-edited', '--out', 'mixed');
    expect(m.code).toBe(2);
    expect(m.stderr).toContain(`../results/traced-2-edited ran on other input files than ../results/traced-1: data/day.csv is sha256 ${sha256(TRACE.replace('20,200', '20,500')).slice(0, 12)}… there and sha256 ${sha256(TRACE).slice(0, 12)}… in ../results/traced-1`);
    expect(m.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(dir, 'elsewhere/mixed'))).toBe(false);
  }, 120_000);

  it('merge refuses a folder whose copy of a trace was edited after the run', async () => {
    const r = await cli('project', 'run', 'traced.yaml', '--out', '../results/tampered', '--quiet', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(join(dir, 'results/tampered/inputs/data/day.csv'), TRACE.replace('0,100', '0,101'));
    const m = await cli('elsewhere', 'merge', '../results/tampered', '--out', 'from-tampered');
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/cannot read the trace data\/day\.csv: its copy \.\.\/results\/tampered\/inputs\/data\/day\.csv was edited after the run/);
  }, 60_000);
});

describe('a path that leaves the scenario\'s folder', () => {
  beforeAll(() => {
    mkdirSync(join(dir, 'project/sub'), { recursive: true });
    writeFileSync(join(dir, 'project/sub/up.yaml'), traced('../data/day.csv', '../data/other.csv'));
    writeFileSync(join(dir, 'project/sub/envoy-up.yaml'), ENVOY.replace('configs/envoy-routes.yaml', '../configs/envoy-routes.yaml'));
    symlinkSync('../data/day.csv', join(dir, 'project/sub/linked.csv'));
    writeFileSync(join(dir, 'project/sub/linked.yaml'), traced('linked.csv', 'linked.csv'));
  });

  it('is refused without --allow-outside (a trace through ../, a config through ../, a symlink), with one positioned message and exit 2', async () => {
    const up = await cli('project', 'run', 'sub/up.yaml', '--out', '../results/up', '--quiet');
    expect(up.code).toBe(2);
    expect(up.stderr).toContain(`sub/up.yaml:7:30  clients.app.arrivals.file: cannot read the trace ../data/day.csv: it is outside the scenario's folder (${join(dir, 'project/sub')}): a scenario reads files in its own folder or below it, so that its results folder can carry a copy of each; move the file there, or give --allow-outside`);
    expect(existsSync(join(dir, 'results/up'))).toBe(false);
    const envoy = await cli('project', 'validate', 'sub/envoy-up.yaml');
    expect(envoy.code).toBe(2);
    expect(envoy.stderr).toMatch(/clients\.app\.layers\.proxy\.from\.envoy: cannot read \.\.\/configs\/envoy-routes\.yaml: it is outside the scenario's folder/);
    const linked = await cli('project', 'validate', 'sub/linked.yaml');
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`cannot read the trace linked.csv: it is a link to ${join(dir, 'project/data/day.csv')}, outside the scenario's folder`);
  }, 60_000);

  it('is read with --allow-outside, and its results folder still merges from anywhere', async () => {
    expect((await cli('project', 'validate', '--allow-outside', 'sub/envoy-up.yaml', 'sub/linked.yaml')).code).toBe(0);
    const up = await cli('project', 'run', 'sub/up.yaml', '--allow-outside', '--out', '../results/up', '--quiet', '--workers', '1');
    expect(up.code, up.stderr).toBe(0);
    // Kept under inputs/outside/, named by digest: the copy never lands outside the folder.
    expect(read('results', 'up', `inputs/outside/${sha256(TRACE).slice(0, 16)}/day.csv`)).toBe(TRACE);
    const m = await cli('elsewhere', 'merge', '../results/up', '--out', 'up-merged');
    expect(m.code, m.stderr).toBe(0);
    expect(read('elsewhere', 'up-merged', 'summary.json')).toBe(read('results', 'up', 'summary.json'));
    // A results folder holding inputs/ is ours: a second run replaces it as a whole.
    const again = await cli('project', 'run', 'sub/up.yaml', '--allow-outside', '--out', '../results/up', '--quiet', '--workers', '1');
    expect(again.code, again.stderr).toBe(0);
  }, 60_000);
});
