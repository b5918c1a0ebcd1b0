// `run --reuse DIR`, as users run it (a process, from dist/): iterating on a scenario, a
// variant added to it simulates only the new variant's runs, and the folder written is the
// one a run from scratch writes, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';

// 2 variants x 2 seeds, then a third variant added: 4 runs kept, 2 new.
const BASE = `name: reuse
horizon: 3m
seeds: 2
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 80/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 8s, jitter: full } }
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
faults:
  - { kind: dependency-down, at: 1m, duration: 20s }
variants:
  retries: {}
  one-try:
    overlay: { clients: { app: { retry: { maxAttempts: 1, timeout: 1s } } } }
`;
const EDITED = `${BASE}  short-queue:
    overlay: { server: { queue: 20 } }
`;

let dir: string;
const cli = (...args: string[]) => runCliProcess(dir, args);
const read = (folder: string, file: string) => readFileSync(join(dir, folder, file), 'utf8');

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-reuse-cli-'));
  writeFileSync(join(dir, 'base.yaml'), BASE);
  writeFileSync(join(dir, 'edited.yaml'), EDITED);
  const r = await cli('run', 'base.yaml', '--out', 'first', '--quiet');
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run --reuse', () => {
  it('simulates only the new variant, and writes what a run from scratch writes', async () => {
    const taken = await cli('run', 'edited.yaml', '--reuse', 'first', '--out', 'second', '--workers', '2');
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(/^running 2 run\(s\) on 2 worker\(s\); 4 run\(s\) unchanged in first \(same scenario and seed\), taken from it; Ctrl-C keeps finished runs$/m);
    const fresh = await cli('run', 'edited.yaml', '--out', 'fresh', '--quiet');
    expect(fresh.code, fresh.stderr).toBe(0);
    for (const file of ['summary.json', 'runs.json', 'timeseries.csv', 'populations.csv']) expect(read('second', file), file).toBe(read('fresh', file));
  }, 120_000);

  it('takes nothing from a folder made by another build of retrystorm, says so, and simulates every run (run --reuse, and diff with it as the base)', async () => {
    // The same folder as if an earlier checkout of the same version had written it.
    cpSync(join(dir, 'first'), join(dir, 'older'), { recursive: true });
    const runs = read('older', 'runs.json');
    const older = runs.replace(/"tool":"([^"+]+)\+[0-9a-f]{12}"/, '"tool":"$1+000000000000"');
    expect(older).not.toBe(runs);
    writeFileSync(join(dir, 'older', 'runs.json'), older);
    const r = await cli('run', 'edited.yaml', '--reuse', 'older', '--out', 'from-older', '--workers', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^note: --reuse older: made by retrystorm \d+\.\d+\.\d+\+000000000000, and this is \d+\.\d+\.\d+\+[0-9a-f]{12} \(version\+code digest\): its runs may not be what this build computes, so every run is simulated$/m);
    expect(r.stderr).toMatch(/^running 6 run\(s\) on 1 worker\(s\); Ctrl-C keeps finished runs$/m);
    expect(read('from-older', 'summary.json')).toBe(read('second', 'summary.json'));
    // diff with that folder as its base: the base's numbers are the folder's, and the head
    // takes none of its runs.
    const d = await cli('diff', 'older', 'edited.yaml', '--workers', '1');
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toMatch(/^note: base older: made by retrystorm \d+\.\d+\.\d+\+000000000000, and this is \d+\.\d+\.\d+\+[0-9a-f]{12} \(version\+code digest\): the head simulates every run rather than take the base's$/m);
    expect(d.stderr).toMatch(/^head: running edited\.yaml, 6 run\(s\) on 1 worker\(s\)$/m);
  }, 120_000);

  it('refuses a folder whose runs cannot be verified, with the reason and exit code 2', async () => {
    const runs = read('first', 'runs.json');
    const edited = runs.replace('"eventsProcessed":', '"eventsProcessed":1');
    expect(edited).not.toBe(runs);
    writeFileSync(join(dir, 'first', 'runs.json'), edited);
    const r = await cli('run', 'edited.yaml', '--reuse', 'first', '--out', 'third', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^retrystorm: --reuse first: its runs cannot be reused: first\/runs\.json: its results do not match its digest/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  }, 120_000);

  it('says to merge a shard\'s folder first (merge\'s "shard 2/2 missing: give the folders of every shard" asked for folders --reuse does not take)', async () => {
    const shard = await cli('run', 'base.yaml', '--shard', '1/2', '--out', 'shard-1', '--quiet');
    expect(shard.code, shard.stderr).toBe(0);
    const r = await cli('run', 'edited.yaml', '--reuse', 'shard-1', '--out', 'fifth', '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--reuse shard-1: it holds one shard of a split run (--shard i/n), and --reuse takes one whole run\'s folder: merge the shards first ("retrystorm merge SHARD1 SHARD2 … --out DIR") and reuse DIR');
  }, 120_000);

  it('says a folder without results is not one, in terms of --reuse (it spoke of merge, a command the user never ran)', async () => {
    const { runCliInProcess } = await import('../helpers/cli.js');
    const r = await runCliInProcess(['run', join(dir, 'base.yaml'), '--reuse', join(dir, 'nowhere'), '--out', join(dir, 'fourth'), '--quiet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--reuse ${join(dir, 'nowhere')}: its runs cannot be reused: ${join(dir, 'nowhere', 'scenario.yaml')}: missing; a results folder is one written by "retrystorm run --out DIR"`);
    expect(r.stderr).not.toContain('merge takes');
  });
});
