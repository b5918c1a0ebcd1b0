/**
 * A commit stopped between its renames is finished by the next command that writes or reads
 * the folder (issue 39: a kill between the two renames left --out missing, both versions in
 * hidden folders). The states are made as the commit leaves them (commit-swap.ts names the
 * folders: `.NAME.commit-PID` whole new results, `.NAME.old-PID` the previous ones), not by
 * racing a kill against renames that take microseconds.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishSwap } from '../../src/cli/commit-swap.js';
import { OutputFolder } from '../../src/cli/output-folder.js';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';

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
/** A process that has exited: its pid names the killed writer's folders. */
let dead: number;
/** Two complete results folders of the same scenario, told apart by their seed. */
let before: string, after: string;
const summaryOf = (d: string) => readFileSync(join(d, 'summary.json'), 'utf8');
const hidden = (name: string) => readdirSync(dir).filter((n) => n.startsWith(`.${name}.`)).sort();

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-swap-'));
  writeFileSync(join(dir, 'small.yaml'), SMALL);
  dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  for (const [name, seed] of [['before', '1'], ['after', '2']]) {
    const r = await runCliProcess(dir, ['run', 'small.yaml', '--out', name, '--seed', seed, '--quiet', '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
  }
  before = join(dir, 'before');
  after = join(dir, 'after');
  expect(summaryOf(before)).not.toBe(summaryOf(after));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `NAME` as a commit by a killed writer left it: 'committed' just after the new results became
 * whole (rename 1), 'between' after the previous ones stood aside (rename 2), 'cleaning' after
 * the new ones went in place (rename 3) but before the previous ones were removed.
 */
function stopped(name: string, at: 'committed' | 'between' | 'cleaning'): void {
  const out = join(dir, name), commit = join(dir, `.${name}.commit-${dead}`), old = join(dir, `.${name}.old-${dead}`);
  cpSync(before, out, { recursive: true });
  cpSync(after, commit, { recursive: true });
  // Killed right after rename 1, before the journal (which runs.json repeats) was removed.
  if (at === 'committed') return writeFileSync(join(commit, 'runs.ndjson'), 'the journal, not yet removed\n');
  renameSync(out, old);
  if (at === 'cleaning') renameSync(commit, out);
}

describe('finishSwap: each state a stopped commit leaves', () => {
  it('puts whole new results in place, whether or not the previous ones stood aside, and removes the previous ones', () => {
    for (const at of ['committed', 'between', 'cleaning'] as const) {
      const name = `state-${at}`;
      stopped(name, at);
      const said = finishSwap(join(dir, name));
      expect(said, at).toMatch(at === 'cleaning' ? /previous results .* removed/ : new RegExp(`pid ${dead}\\) stopped between the renames of its commit are now put in place`));
      expect(summaryOf(join(dir, name)), at).toBe(summaryOf(after));
      expect(existsSync(join(dir, name, 'runs.ndjson')), at).toBe(false);
      expect(hidden(name), at).toEqual([]);
      expect(finishSwap(join(dir, name)), at).toBeUndefined();
    }
  });

  it('puts the previous results back when there are no whole new ones and the folder is missing', () => {
    const old = join(dir, `.lone.old-${dead}`);
    cpSync(before, old, { recursive: true });
    expect(finishSwap(join(dir, 'lone'))).toMatch(/previous results, set aside by a writer .* are put back/);
    expect(summaryOf(join(dir, 'lone'))).toBe(summaryOf(before));
    expect(hidden('lone')).toEqual([]);
  });

  it('leaves a live writer alone: a reader does not finish a commit under a lock it cannot take', () => {
    stopped('live', 'between');
    writeFileSync(join(dir, '.live.lock'), `${process.ppid}\n`);
    const said: string[] = [];
    OutputFolder.settle(join(dir, 'live'), (l) => said.push(l));
    expect(said).toEqual([]);
    expect(existsSync(join(dir, 'live'))).toBe(false);
    rmSync(join(dir, '.live.lock'));
    OutputFolder.settle(join(dir, 'live'), (l) => said.push(l));
    expect(said).toHaveLength(1);
    expect(summaryOf(join(dir, 'live'))).toBe(summaryOf(after));
    expect(existsSync(join(dir, '.live.lock'))).toBe(false);
  });
});

describe('the next command finishes a commit stopped between its renames, with one line, before anything else', () => {
  it('report DIR: the folder that was missing holds the new results, and its report is written', async () => {
    stopped('rep', 'between');
    expect(existsSync(join(dir, 'rep'))).toBe(false);
    const r = await runCliProcess(dir, ['report', 'rep']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^note: .*rep: the results of a writer \\(pid ${dead}\\) stopped between the renames`))]);
    expect(summaryOf(join(dir, 'rep'))).toBe(summaryOf(after));
    expect(hidden('rep')).toEqual([]);
  });

  it('merge DIR: reads the new results the commit was putting in place', async () => {
    stopped('mrg', 'between');
    const r = await runCliProcess(dir, ['merge', 'mrg', '--out', 'mrg-out']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: .*mrg: the results of a writer .* are now put in place/);
    expect(summaryOf(join(dir, 'mrg'))).toBe(summaryOf(after));
    expect(JSON.parse(summaryOf(join(dir, 'mrg-out'))).variants).toEqual(JSON.parse(summaryOf(after)).variants);
  });

  it('run --out DIR: finishes it, then replaces it with its own results', async () => {
    stopped('again', 'between');
    const r = await runCliProcess(dir, ['run', 'small.yaml', '--out', 'again', '--seed', '1', '--quiet', '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: .*again: the results of a writer .* are now put in place/);
    expect(summaryOf(join(dir, 'again'))).toBe(summaryOf(before));
    expect(hidden('again')).toEqual([]);
  });
});
