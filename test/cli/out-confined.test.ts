/**
 * `--out` never takes the current folder or the scenario with it (issue 39): the results
 * replace `--out` as a whole, so `--out .`, a folder above the current one, or the folder
 * the scenario is in, is refused up front with one line and exit 2, before any run and with
 * nothing written or moved. (Before, a folder holding only files retrystorm writes, such as
 * scenario.yaml, passed the check on foreign files and was replaced, the current folder with
 * it.)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';

const SCENARIO = `
name: here
horizon: 30s
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
    retry: { timeout: 1s }
server: { slots: 5, serviceTime: { kind: constant, value: 10ms } }
`;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-out-here-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding only a scenario named as the one a results folder holds: nothing foreign in it. */
function folderWithScenario(name: string): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'scenario.yaml'), SCENARIO);
  return d;
}

async function refused(cwd: string, args: string[], message: RegExp): Promise<void> {
  const before = readdirSync(cwd);
  const r = await runCliProcess(cwd, args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.split('\n')[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/running \d+ run/);
  expect(readdirSync(cwd)).toEqual(before);
}

describe('--out is confined', () => {
  it('refuses --out ., the folder you are in', async () => {
    const here = folderWithScenario('dot');
    await refused(here, ['run', 'scenario.yaml', '--out', '.'], /^retrystorm: --out \. is the folder you are in: the results replace --out as a whole and would take it with them/);
    // Named by its absolute path, or through ./, it is the same folder.
    await refused(here, ['run', 'scenario.yaml', '--out', `${here}/`], /is the folder you are in/);
    expect(readdirSync(here)).toEqual(['scenario.yaml']);
  });

  it('refuses a folder above the one you are in', async () => {
    // The parent holds only a folder named as retrystorm names its temporary files: nothing foreign.
    const parent = join(dir, 'above');
    const here = folderWithScenario(join('above', 'work.tmp'));
    await refused(here, ['run', 'scenario.yaml', '--out', '..'], /^retrystorm: --out \.\. is a folder above the one you are in/);
    expect(readdirSync(parent)).toEqual(['work.tmp']);
  });

  it('refuses the folder the scenario is in', async () => {
    const sub = folderWithScenario(join('own', 'sub'));
    await refused(join(dir, 'own'), ['run', 'sub/scenario.yaml', '--out', 'sub'], /^retrystorm: --out sub holds the scenario sub\/scenario\.yaml: the results replace --out as a whole and would take the scenario with them/);
    expect(readdirSync(sub)).toEqual(['scenario.yaml']);
  });

  it('still writes into a folder beside the scenario (and merge refuses --out . too)', async () => {
    const here = folderWithScenario('beside');
    const r = await runCliProcess(here, ['run', 'scenario.yaml', '--out', 'results', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(here, 'results', 'summary.json'))).toBe(true);
    // merge, from inside the results folder, is held to the same rule.
    await refused(join(here, 'results'), ['merge', '.', '--out', '.'], /^retrystorm: --out \. is the folder you are in/);
  });
});
