/**
 * Observed latency that cannot be read as a distribution (docs/traces.md, "Service times from
 * observed latency"): each is refused once, by the loader, naming the latency file and its
 * line (CSV) or the entry (JSON path) and the scenario path it was read for, before anything
 * runs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, type Problem } from '../../src/scenario/problems.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-latency-bad-'));
const scenarioFile = join(dir, 'scenario.yaml');

function yamlWith(serviceTime: string, extra = ''): string {
  return `name: t
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 5/s }
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: ${serviceTime} }
${extra}`;
}

function problemsOf(serviceTime: string, files: Record<string, string>, extra = ''): Problem[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    loadScenario(yamlWith(serviceTime, extra), scenarioFile);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('loaded without a problem');
}

/** The one problem, in `file` at `line` (CSV) or `path` (JSON), saying `what`, read for `readFor`. */
function refused(problems: Problem[], file: string, where: { line: number } | { path: string }, what: RegExp, readFor = 'server.serviceTime'): void {
  expect(problems).toHaveLength(1);
  const p = problems[0];
  expect(p.file).toBe(join(dir, file));
  if ('line' in where) expect(p.line).toBe(where.line);
  else expect(p.path).toBe(where.path);
  expect(p.message).toMatch(what);
  expect(p.message.endsWith(`(read for ${readFor})`)).toBe(true);
}

const buckets = (file: string, extra = '') => `{ kind: empirical, file: ${file}, format: csv, columns: { le: le, count: n }${extra} }`;
const prom = (file: string, extra = '') => `{ kind: empirical, file: ${file}, format: prometheus${extra} }`;
const json = (o: object) => JSON.stringify(o, null, 1);
const vector = (series: Array<{ metric: object; value: unknown }>) => json({ status: 'success', data: { resultType: 'vector', result: series } });
const at = (le: string, v: string, extra: object = {}) => ({ metric: { __name__: 'http_request_duration_seconds_bucket', ...extra, le }, value: [1_765_100_000, v] });

describe('a histogram CSV that is not a histogram', () => {
  it('non-cumulative buckets: refused at the bucket that counts fewer than the one below', () => {
    const ps = problemsOf(buckets('h.csv'), { 'h.csv': 'le,n\n0.1,10\n0.2,30\n# per-bucket counts, by mistake\n0.5,5\n+Inf,45\n' });
    refused(ps, 'h.csv', { line: 5 }, /the buckets are not cumulative: le=0\.5 counts 5, fewer than le=0\.2 below it \(30\)/);
  });

  it('unsorted le: refused at the bound that goes back', () => {
    const ps = problemsOf(buckets('u.csv'), { 'u.csv': 'le,n\n0.1,10\n0.5,40\n0.2,30\n+Inf,40\n' });
    refused(ps, 'u.csv', { line: 4 }, /the bound 0\.2 is not above the one before it \(line 3\): the buckets must be in increasing le/);
  });

  it('a negative count: refused at its line', () => {
    const ps = problemsOf(buckets('n.csv'), { 'n.csv': 'le,n\n0.1,-1\n0.2,3\n' });
    refused(ps, 'n.csv', { line: 2 }, /the count -1 is negative/);
  });

  it('a +Inf bucket holding more than the last bound: refused without max, spread to max with it', () => {
    const text = 'le,n\n0.1,10\n1,30\n+Inf,40\n';
    const ps = problemsOf(buckets('i.csv'), { 'i.csv': text });
    refused(ps, 'i.csv', { line: 4 }, /10 observations \(25%\) are above the largest bound, le=1, in the \+Inf bucket, .*give max/);
    const s = loadScenario(yamlWith(buckets('i.csv', ', max: 5s')), scenarioFile).base.server.serviceTime;
    expect(s.kind === 'empirical' && Array.from(s.data!.values)).toEqual([0, 0.1, 1, 5]);
  });

  it('a column the scenario names but the header lacks: said at the header with the likely one', () => {
    const ps = problemsOf(buckets('c.csv'), { 'c.csv': '# export\nle,count\n0.1,1\n' });
    refused(ps, 'c.csv', { line: 2 }, /no column "n" in the header \("le", "count"\).*columns\.count/);
  });

  it('a histogram with no observations', () => {
    const ps = problemsOf(buckets('z.csv'), { 'z.csv': 'le,n\n0.1,0\n+Inf,0\n' });
    refused(ps, 'z.csv', { line: 1 }, /holds no observations/);
  });
});

describe('samples and quantiles that are not a distribution', () => {
  it('a negative sample, and one that is not a number (a unit in the cell)', () => {
    const spec = '{ kind: empirical, file: s.csv, format: csv, columns: { sample: ms }, unit: ms }';
    refused(problemsOf(spec, { 's.csv': 'ms\n12\n-3\n40\n' }), 's.csv', { line: 3 }, /the sample -3 is negative: a duration is 0 or more/);
    refused(problemsOf(spec, { 's.csv': 'ms\n12\n40ms\n' }), 's.csv', { line: 3 }, /the sample "40ms" is not a number: write plain milliseconds/);
  });

  it('quantiles not increasing, values decreasing, and a table not from 0 to 1', () => {
    const spec = '{ kind: empirical, file: q.csv, format: csv, columns: { quantile: q, value: v } }';
    refused(problemsOf(spec, { 'q.csv': 'q,v\n0,0.01\n0.9,0.2\n0.5,0.3\n1,2\n' }), 'q.csv', { line: 4 }, /the quantile 0\.5 is not above the one before it \(line 3, 0\.9\)/);
    refused(problemsOf(spec, { 'q.csv': 'q,v\n0,0.01\n0.5,0.3\n0.9,0.2\n1,2\n' }), 'q.csv', { line: 4 }, /the value at quantile 0\.9 is below the value at 0\.5/);
    refused(problemsOf(spec, { 'q.csv': 'q,v\n0,0.01\n0.5,0.3\n0.99,2\n' }), 'q.csv', { line: 4 }, /must run from 0 to 1.*add quantile 1/);
    refused(problemsOf(spec, { 'q.csv': 'q,v\n0\n' }), 'q.csv', { line: 2 }, /CSV: /);
  });
});

describe('a Prometheus response that is not a histogram', () => {
  it('an error response: its errorType and error quoted', () => {
    const ps = problemsOf(prom('e.json'), { 'e.json': json({ status: 'error', errorType: 'bad_data', error: 'invalid parameter "query"' }) });
    refused(ps, 'e.json', { path: 'status' }, /Prometheus answered with an error \(bad_data\): "invalid parameter "query""/);
  });

  it('an empty result', () => {
    refused(problemsOf(prom('empty.json'), { 'empty.json': vector([]) }), 'empty.json', { path: 'data.result' }, /the query returned no series \(the result is empty\)/);
  });

  it('series with no le label (the _count, or a sum without by (le))', () => {
    const ps = problemsOf(prom('nole.json'), { 'nole.json': vector([at('0.1', '3'), { metric: { __name__: 'http_request_duration_seconds_count' }, value: [1_765_100_000, '9'] }]) });
    refused(ps, 'nole.json', { path: 'data.result[1].metric' }, /has no le label: a histogram's buckets are its <name>_bucket series/);
  });

  it('non-cumulative buckets: refused at the series', () => {
    const ps = problemsOf(prom('nc.json'), { 'nc.json': vector([at('+Inf', '40'), at('0.1', '30'), at('0.5', '20')]) });
    refused(ps, 'nc.json', { path: 'data.result[2].value' }, /not cumulative: le=0\.5 counts 20, fewer than le=0\.1 below it \(30\)/);
  });

  it('bounds in milliseconds are named as the file writes them', () => {
    const ps = problemsOf(prom('ms.json', ', unit: ms'), { 'ms.json': vector([at('+Inf', '40'), at('100', '30'), at('250', '20')]) });
    refused(ps, 'ms.json', { path: 'data.result[2].value' }, /not cumulative: le=250 counts 20, fewer than le=100 below it \(30\)/);
  });

  it('a negative count', () => {
    refused(problemsOf(prom('neg.json'), { 'neg.json': vector([at('0.1', '-2'), at('+Inf', '4')]) }), 'neg.json', { path: 'data.result[0].value' }, /the count -2 is negative/);
  });

  it('a counter reset inside a range query', () => {
    const m = (le: string, vs: string[]) => ({ metric: { le }, values: vs.map((v, i) => [1_765_100_000 + 60 * i, v]) });
    const text = json({ status: 'success', data: { resultType: 'matrix', result: [m('0.1', ['5', '9', '2']), m('+Inf', ['8', '12', '3'])] } });
    refused(problemsOf(prom('reset.json'), { 'reset.json': text }), 'reset.json', { path: 'data.result[0].values[2]' }, /the counter goes down \(9 to 2\)/);
  });

  it('several histograms and no select: the label sets listed; select picks one', () => {
    const text = vector([at('0.1', '1', { route: '/a' }), at('+Inf', '2', { route: '/a' }), at('0.1', '3', { route: '/b' }), at('+Inf', '3', { route: '/b' })]);
    refused(problemsOf(prom('two.json'), { 'two.json': text }), 'two.json', { path: 'data.result' }, /2 histograms: http_request_duration_seconds_bucket\{route="\/a"\}, .*choose one with select/);
    const s = loadScenario(yamlWith(prom('two.json', ', select: { route: /b }')), scenarioFile).base.server.serviceTime;
    expect(s.kind === 'empirical' && Array.from(s.data!.values)).toEqual([0, 0.1]);
  });

  it('a range query\'s result type that is neither (a scalar)', () => {
    refused(problemsOf(prom('sc.json'), { 'sc.json': json({ status: 'success', data: { resultType: 'scalar', result: [1, '2'] } }) }), 'sc.json', { path: 'data.resultType' }, /the result is a scalar/);
  });
});

describe('where a latency file is named', () => {
  it('a missing file: said at the scenario\'s file key', () => {
    const ps = problemsOf(buckets('none.csv'), {});
    expect(ps).toHaveLength(1);
    expect(ps[0].file).toBe(scenarioFile);
    expect(ps[0].path).toBe('server.serviceTime.file');
    expect(ps[0].message).toMatch(/cannot read the latency file none\.csv: no such file/);
  });

  it('a file read for two variants\' overlays: refused once, for the first', () => {
    writeFileSync(join(dir, 'bad.csv'), 'le,n\n0.2,3\n0.1,4\n');
    const route = `${buckets('bad.csv')}`;
    const ps = problemsOf('{ kind: constant, value: 1ms }', {}, `variants:
  a:
    overlay: { server: { serviceTime: ${route} } }
  b:
    overlay: { server: { serviceTime: ${route} } }
`);
    refused(ps, 'bad.csv', { line: 3 }, /not above the one before it/, 'variants.a.overlay.server.serviceTime');
  });

  it('a file read deep in a list (a latency fault\'s added time): named by its path', () => {
    writeFileSync(join(dir, 'neg.csv'), 'sample\n0.1\n-0.2\n');
    const ps = problemsOf('{ kind: constant, value: 1ms }', {}, `faults:
  - { kind: latency, at: 1m, duration: 1m, add: { kind: empirical, file: neg.csv, format: csv, columns: { sample: sample } } }
`);
    refused(ps, 'neg.csv', { line: 3 }, /the sample -0\.2 is negative/, 'faults[0].add');
  });

  it('an overlay changing only max reads the base\'s file with it', () => {
    writeFileSync(join(dir, 'inf.csv'), 'le,n\n0.1,10\n1,30\n+Inf,40\n');
    const l = loadScenario(yamlWith(buckets('inf.csv', ', max: 2s'), `variants:
  base: {}
  longer:
    overlay: { server: { serviceTime: { max: 10s } } }
`), scenarioFile);
    const top = (name: string) => {
      const st = l.variants.find((v) => v.name === name)!.scenario.server.serviceTime;
      return st.kind === 'empirical' ? st.data!.values.at(-1) : undefined;
    };
    expect(top('base')).toBe(2);
    expect(top('longer')).toBe(10);
  });

  it('the scenario\'s own slips: percentiles and file both, a CSV without columns, data written', () => {
    const messages = (spec: string, files: Record<string, string> = {}) => problemsOf(spec, files).map((p) => `${p.path}: ${p.message}`);
    writeFileSync(join(dir, 'ok.csv'), 'le,n\n0.1,1\n');
    expect(messages('{ kind: empirical, file: ok.csv, format: csv, columns: { le: le, count: n }, percentiles: { p0: 1ms, p100: 2ms } }')).toEqual(['server.serviceTime.percentiles: give percentiles or file, not both']);
    expect(messages('{ kind: empirical, file: ok.csv, format: csv }')[0]).toMatch(/^server\.serviceTime: name the columns of one of: \{ le, count \}/);
    expect(messages('{ kind: empirical, file: ok.csv, format: csv, columns: { le: le, count: n }, data: 1 }')).toEqual(['server.serviceTime.data: data is read from the latency file by the loader: remove it (name the file with file)']);
    expect(messages('{ kind: empirical }')[0]).toMatch(/^server\.serviceTime: give percentiles .* or file/);
  });
});
