// The files a scenario reads besides itself, as a results folder will carry them: recorded by
// path as written with the sha256 of their text, and bounded in all (a results folder keeps a
// copy of each), the bound said at the path that crosses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { storedName } from '../../src/scenario/input-files.js';
import { runExperiment } from '../../src/experiment/experiment.js';
import { mergeDirs } from '../../src/experiment/merge.js';
import { OutputFolder } from '../../src/cli/output-folder.js';

const TRACE = 'time,count\n0,100\n10,300\n20,200\n';
const TRACE_B = 'time,count\n0,200\n10,100\n20,300\n';
const scenario = `name: s
horizon: 30s
clients:
  app:
    arrivals: { kind: trace, file: a.csv, format: csv, columns: { time: time, count: count } }
    retry: { timeout: 1s }
server: { slots: 5, serviceTime: { kind: exponential, mean: 100ms } }
variants:
  a: {}
  b:
    overlay: { clients: { app: { arrivals: { file: ./sub/../b.csv } } } }
`;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-input-files-'));
  writeFileSync(join(dir, 'a.csv'), TRACE);
  writeFileSync(join(dir, 'b.csv'), TRACE_B);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

describe('the inputs of a scenario', () => {
  it('are recorded once each, by path as written, with the sha256 of their text, and kept under inputs/ at their normalised path', () => {
    const loaded = loadScenario(scenario, join(dir, 's.yaml'), { allowOutside: false });
    expect(loaded.inputs.map(({ path, sha256 }) => ({ path, sha256 }))).toEqual([
      { path: './sub/../b.csv', sha256: sha(TRACE_B) },
      { path: 'a.csv', sha256: sha(TRACE) },
    ]);
    expect(loaded.inputs.map(storedName)).toEqual(['inputs/b.csv', 'inputs/a.csv']);
    expect(storedName({ path: '../x/t.csv', sha256: sha(TRACE) })).toBe(`inputs/outside/${sha(TRACE).slice(0, 16)}/t.csv`);
    expect(storedName({ path: '/abs/t.csv', sha256: sha(TRACE) })).toBe(`inputs/outside/${sha(TRACE).slice(0, 16)}/t.csv`);
  });

  it('are refused past their bound in all, at the file that crosses it, before anything runs', () => {
    const bound = Buffer.byteLength(TRACE) + Buffer.byteLength(TRACE_B) - 1;
    let problems: string[] = [];
    try {
      loadScenario(scenario, join(dir, 's.yaml'), { allowOutside: false, mostBytes: bound });
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      problems = e.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
    }
    expect(problems).toEqual([
      `11:46 variants.b.overlay.clients.app.arrivals.file: cannot read the trace ./sub/../b.csv: with it, the files this scenario reads total more than ${bound} bytes, the most a results folder keeps copies of (inputs/, so that merge, run --reuse and diff read them from there): read fewer or smaller files (a shorter range, a coarser step)`,
    ]);
    // Within the bound, the same scenario loads.
    expect(loadScenario(scenario, join(dir, 's.yaml'), { allowOutside: false, mostBytes: bound + 1 }).inputs).toHaveLength(2);
  });
});

describe('the journal of a run that did not finish', () => {
  it('keeps the inputs beside it, so its staging folder merges from its own copies once the originals are gone', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'a.csv'), TRACE);
    writeFileSync(join(project, 'b.csv'), TRACE_B);
    const loaded = loadScenario(scenario, join(project, 's.yaml'), { allowOutside: false });
    const folder = OutputFolder.claim(join(dir, 'results', 'killed'));
    const x = await runExperiment(loaded, {
      workers: 1,
      onPlan: (runs) => folder.begin({ runs, source: loaded.source, inputs: loaded.inputs }, loaded.source),
      onRun: (_d, _t, result, r) => folder.record(r.index, result),
    });
    // Killed before the commit: only the staging folder is left, and the originals move away.
    folder.release(true);
    rmSync(project, { recursive: true });
    expect(readFileSync(join(folder.staging, 'inputs/b.csv'), 'utf8')).toBe(TRACE_B);
    const merged = mergeDirs([folder.staging]);
    expect(merged.results.map((r) => r?.summary.measures)).toEqual(x.results.map((r) => r?.summary.measures));
    expect(merged.loaded.inputs.map(({ path, sha256 }) => ({ path, sha256 }))).toEqual(loaded.inputs.map(({ path, sha256 }) => ({ path, sha256 })));
  }, 60_000);
});
