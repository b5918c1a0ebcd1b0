/**
 * An observed series that cannot be compared with the run (docs/traces.md, "Comparing with
 * what happened"): each refused once, by the loader, before anything runs, at the scenario
 * path (a series name that is no simulated column, with "did you mean"; a unit that is not
 * the column's; times that do not overlap the run) or at the file's line or JSON entry (the
 * trace readers' own refusals, reused); and the CLI exits 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, type Problem } from '../../src/scenario/problems.js';
import { OBSERVED_SERIES } from '../../src/scenario/observed-schema.js';
import { RUN_COLUMN_INFO } from '../../src/measures/columns.js';
import { validateCommand } from '../../src/cli/validate-command.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-observed-bad-'));
const scenarioFile = join(dir, 'scenario.yaml');

const WORLD = `name: t
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;

function problemsOf(observed: string, files: Record<string, string>): Problem[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    loadScenario(`${WORLD}observed:\n  ok:\n${observed.split('\n').map((l) => `    ${l}`).join('\n')}\n`, scenarioFile);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('loaded without a problem');
}

const GOOD = 'time,value\n0,1\n60,0.9\n120,1\n';

describe('an observed series that cannot be compared', () => {
  it('a series name that is no simulated column: said at its line, with the likely one', () => {
    const ps = problemsOf('file: ok.csv\nformat: csv\nseries: succes_ratio\nunit: ratio', { 'ok.csv': GOOD });
    expect(ps).toHaveLength(1);
    expect(ps[0].file).toBe(scenarioFile);
    expect(ps[0].path).toBe('observed.ok.series');
    expect(ps[0].line).toBe(11);
    expect(ps[0].message).toMatch(/"succes_ratio" is not a simulated series .*: did you mean "success_ratio"\?/);
  });

  it('a unit that is not the column\'s', () => {
    const ps = problemsOf('file: ok.csv\nformat: csv\nseries: latency_p99_ms\nunit: ratio', { 'ok.csv': GOOD });
    expect(ps.map((p) => [p.path, p.message])).toEqual([['observed.ok.unit', '"ratio" is not a unit of latency_p99_ms: write ms or s']]);
  });

  it('times that do not overlap the run: said at t0, with the file\'s start', () => {
    const ps = problemsOf('file: ok.csv\nformat: csv\nseries: success_ratio\nunit: ratio\nt0: -3600', { 'ok.csv': GOOD });
    expect(ps).toHaveLength(1);
    expect(ps[0].path).toBe('observed.ok.t0');
    expect(ps[0].line).toBe(13);
    expect(ps[0].message).toMatch(/covers 3600s to 3780s of the run .* no whole interval of 60s inside the run \[0s, 600s\): set t0 to the file's moment the run starts at \(e\.g\. 0s\)/);
  });

  it('a file that is not there: said at its file', () => {
    const ps = problemsOf('file: none.csv\nformat: csv\nseries: success_ratio\nunit: ratio', {});
    expect(ps.map((p) => [p.path, p.line])).toEqual([['observed.ok.file', 9]]);
    expect(ps[0].message).toMatch(/cannot read the observed series none\.csv: no such file/);
  });

  it('the trace readers\' refusals, at the file\'s line or entry, for the scenario path', () => {
    const unsorted = problemsOf('file: u.csv\nformat: csv\nseries: success_ratio\nunit: ratio', { 'u.csv': 'time,value\n0,1\n120,1\n60,1\n' });
    expect(unsorted.map((p) => [p.file, p.line])).toEqual([[join(dir, 'u.csv'), 4]]);
    expect(unsorted[0].message).toMatch(/comes before the time above it.*\(read for observed\.ok\)$/);
    const negative = problemsOf('file: n.csv\nformat: csv\nseries: attempts\nunit: per-second', { 'n.csv': 'time,value\n0,1\n60,-2\n' });
    expect(negative.map((p) => [p.file, p.line])).toEqual([[join(dir, 'n.csv'), 3]]);
    expect(negative[0].message).toMatch(/-2 is negative/);
    const column = problemsOf('file: c.csv\nformat: csv\nseries: attempts\nunit: per-second\ncolumns: { value: rps }', { 'c.csv': 'time,rpss\n0,1\n60,2\n' });
    expect(column[0].message).toMatch(/no column "rps" in the header \("time", "rpss"\): did you mean "rpss"\?; the scenario names it in columns\.value \(read for observed\.ok\)/);
    const gap = problemsOf('file: g.csv\nformat: csv\nseries: attempts\nunit: per-second', { 'g.csv': 'time,value\n0,1\n60,2\n180,2\n' });
    expect(gap[0].message).toMatch(/a gap: 1 step\(s\) of 60s missing/);
    const error = problemsOf('file: p.json\nformat: prometheus\nseries: attempts\nunit: per-second', { 'p.json': JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }) });
    expect(error.map((p) => [p.file, p.path])).toEqual([[join(dir, 'p.json'), 'status']]);
    expect(error[0].message).toMatch(/Prometheus answered with an error \(bad_data\): "parse error"/);
    const empty = problemsOf('file: e.json\nformat: prometheus\nseries: attempts\nunit: per-second', { 'e.json': JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }) });
    expect(empty[0].message).toMatch(/the query returned no series/);
  });

  it('an empty cell or a Prometheus NaN is "no value" there, not a refusal (an observed ratio of 0/0)', () => {
    writeFileSync(join(dir, 'blank.csv'), 'time,value\n0,1\n60,\n120,NaN\n180,1\n');
    const loaded = loadScenario(`${WORLD}observed:\n  ok: { file: blank.csv, format: csv, series: success_ratio, unit: ratio }\n`, scenarioFile);
    expect(Array.from(loaded.base.observed!.ok.data!.values)).toEqual([1, NaN, NaN, 1]);
  });

  it('the CLI says it once, with file:line, and exits 2', async () => {
    writeFileSync(join(dir, 'ok.csv'), GOOD);
    writeFileSync(scenarioFile, `${WORLD}observed:\n  ok: { file: ok.csv, format: csv, series: latency_p98_ms, unit: ms }\n`);
    const err: string[] = [];
    const code = await validateCommand([scenarioFile], { out: () => {}, err: (s) => err.push(s), progressStream: process.stderr });
    expect(code).toBe(2);
    expect(err[0]).toMatch(new RegExp(`^${scenarioFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:8:\\d+  observed\\.ok\\.series: "latency_p98_ms" is not a simulated series .*did you mean "latency_p99_ms"\\?`));
  });

  it('every observed series is a column of timeseries.csv, of a unit its kind converts to', () => {
    const units = new Map(RUN_COLUMN_INFO.map((c) => [c.name, c.unit]));
    for (const [name, kind] of Object.entries(OBSERVED_SERIES)) expect(units.get(name), name).toBe(kind);
  });
});
