/**
 * Recorded traffic that cannot be replayed as it is (docs/traces.md, "What is refused"): each
 * is refused once, by the loader, naming the trace file and its line (CSV) or the entry (JSON
 * path) and the scenario path it was read for, before anything runs.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, type Problem } from '../../src/scenario/problems.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-trace-bad-'));
const scenarioFile = join(dir, 'scenario.yaml');

function problemsOf(arrivals: string, files: Record<string, string>, extra = ''): Problem[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const yaml = `name: t
horizon: 1h
clients:
  app:
    arrivals: ${arrivals}
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
${extra}`;
  try {
    loadScenario(yaml, scenarioFile);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('loaded without a problem');
}

/** The one problem, which must name `file` (as shown beside the scenario) and `line`, and say `what`. */
function refused(problems: Problem[], file: string, line: number, what: RegExp): void {
  expect(problems).toHaveLength(1);
  const p = problems[0];
  expect(p.file).toBe(join(dir, file));
  expect(p.line).toBe(line);
  expect(p.message).toMatch(what);
  expect(p.message).toMatch(/\(read for clients\.app\.arrivals\)$/);
}

const prom = (o: object) => JSON.stringify(o);
const matrix = (series: Array<{ metric: object; values: unknown[] }>) => prom({ status: 'success', data: { resultType: 'matrix', result: series } });
const steady = (n: number, from = 1_765_000_000) => Array.from({ length: n }, (_, i) => [from + 60 * i, '5']);

describe('a CSV trace that cannot be replayed', () => {
  it('unsorted request times: refused at the line that goes back', () => {
    const ps = problemsOf('{ kind: trace, file: t.csv, format: csv }', { 't.csv': 'time\n10\n11\n# a comment\n12.5\n12\n13\n' });
    refused(ps, 't.csv', 6, /the request at 12 comes before the one above it \(12\.5\): request times must be in time order/);
  });

  it('a negative count: refused at its line', () => {
    const ps = problemsOf('{ kind: trace, file: c.csv, format: csv, columns: { count: n } }', { 'c.csv': 'time,n\n0,5\n60,-3\n120,4\n' });
    refused(ps, 'c.csv', 3, /the count -3 is negative/);
  });

  it('a gap in count data: refused, or a zero-rate step with gaps: zero', () => {
    const csv = 'time,n\n0,60\n60,60\n180,60\n240,60\n';
    const ps = problemsOf('{ kind: trace, file: g.csv, format: csv, columns: { count: n } }', { 'g.csv': csv });
    refused(ps, 'g.csv', 4, /a gap: 1 step\(s\) of 60s missing before the row at 180s .*write gaps: zero/);
    writeFileSync(join(dir, 'g.csv'), csv);
    const s = loadScenario(`name: t
horizon: 1h
clients:
  app:
    arrivals: { kind: trace, file: g.csv, format: csv, columns: { count: n }, gaps: zero }
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`, scenarioFile).base.clients.app.arrivals;
    expect(s.kind === 'trace' && Array.from(s.data!.values)).toEqual([1, 1, 0, 1, 1]);
  });

  it('rows off the step: refused at the row', () => {
    const ps = problemsOf('{ kind: trace, file: s.csv, format: csv, columns: { count: n }, step: 1m }', { 's.csv': 'time,n\n0,1\n60,1\n90,1\n' });
    refused(ps, 's.csv', 4, /is 30s after the time above it, not a whole number of steps of 60s/);
  });

  it('a wrong unit: milliseconds read as seconds, a count with a unit, a time without a zone', () => {
    refused(problemsOf('{ kind: trace, file: ms.csv, format: csv }', { 'ms.csv': 'time\n1765000000000\n1765000000500\n' }), 'ms.csv', 2, /not in seconds.*write timeUnit: ms/);
    refused(problemsOf('{ kind: trace, file: u.csv, format: csv, columns: { rate: r } }', { 'u.csv': 'time,r\n0,12/s\n' }), 'u.csv', 2, /the rate "12\/s" is not a number: write requests per second as a plain number/);
    refused(problemsOf('{ kind: trace, file: z.csv, format: csv }', { 'z.csv': 'time\n2026-12-07 10:00:00\n' }), 'z.csv', 2, /has no zone/);
  });

  it('a column the header does not have: refused at the header, with the likely one', () => {
    const ps = problemsOf('{ kind: trace, file: h.csv, format: csv, columns: { count: requests } }', { 'h.csv': '# exported\ntime,request\n0,1\n' });
    refused(ps, 'h.csv', 2, /no column "requests" in the header \("time", "request"\): did you mean "request"\?/);
  });

  it('a byte-order mark (a spreadsheet\'s UTF-8 export) does not rename the first column', () => {
    writeFileSync(join(dir, 'bom.csv'), '\uFEFFtime\n1\n2\n');
    const a = loadScenario(`name: t
horizon: 1h
clients:
  app:
    arrivals: { kind: trace, file: bom.csv, format: csv }
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`, scenarioFile).base.clients.app.arrivals;
    expect(a.kind === 'trace' && a.data?.values.length).toBe(2);
  });

  it('a row with more fields than the header: csv-parse\'s error, at its line', () => {
    const ps = problemsOf('{ kind: trace, file: f.csv, format: csv }', { 'f.csv': 'time\n1\n2,3\n' });
    refused(ps, 'f.csv', 3, /CSV: .*columns length is 1, got 2/);
  });

  it('a missing file, a folder: refused at the scenario\'s file key, as a missing config is', () => {
    const missing = problemsOf('{ kind: trace, file: nope.csv, format: csv }', {});
    expect(missing[0]).toMatchObject({ file: scenarioFile, line: 5, path: 'clients.app.arrivals.file' });
    expect(missing[0].message).toMatch(/cannot read the trace nope.csv: no such file \(a path is relative to the scenario file's folder\)/);
    mkdirSync(join(dir, 'folder.csv'), { recursive: true });
    expect(problemsOf('{ kind: trace, file: folder.csv, format: csv }', {})[0].message).toMatch(/it is a folder, not a file/);
  });
});

describe('a Prometheus export that cannot be replayed', () => {
  const spec = (file: string, more = '') => `{ kind: trace, file: ${file}, format: prometheus, values: rate${more} }`;

  it('an error response: refused with Prometheus\' own words', () => {
    const ps = problemsOf(spec('e.json'), { 'e.json': prom({ status: 'error', errorType: 'bad_data', error: 'invalid parameter "query": 1:6: parse error' }) });
    expect(ps).toHaveLength(1);
    expect(ps[0].file).toBe(join(dir, 'e.json'));
    expect(ps[0].path).toBe('status');
    expect(ps[0].message).toMatch(/Prometheus answered with an error \(bad_data\): "invalid parameter "query": 1:6: parse error"/);
  });

  it('an empty result', () => {
    const ps = problemsOf(spec('empty.json'), { 'empty.json': matrix([]) });
    expect(ps[0].path).toBe('data.result');
    expect(ps[0].message).toMatch(/the query returned no series/);
  });

  it('an instant query (a vector)', () => {
    const ps = problemsOf(spec('v.json'), { 'v.json': prom({ status: 'success', data: { resultType: 'vector', result: [] } }) });
    expect(ps[0].message).toMatch(/the result is a vector: export a range query/);
  });

  it('several series: refused naming their label sets; select picks one', () => {
    const body = matrix([
      { metric: { __name__: 'http_requests', route: '/login' }, values: steady(10) },
      { metric: { __name__: 'http_requests', route: '/signup' }, values: steady(10) },
    ]);
    const ps = problemsOf(spec('two.json'), { 'two.json': body });
    expect(ps[0].path).toBe('data.result');
    expect(ps[0].message).toMatch(/2 series: http_requests\{route="\/login"\}, http_requests\{route="\/signup"\}; choose one with select/);
    const none = problemsOf(spec('two.json', ', select: { route: "/pay" }'), {});
    expect(none[0].message).toMatch(/no series has the labels select names \(\{route="\/pay"\}\)/);
    const yaml = `name: t
horizon: 1h
clients:
  app:
    arrivals: ${spec('two.json', ', select: { route: "/signup" }')}
    retry: { timeout: 1s }
server: { slots: 10, serviceTime: { kind: constant, value: 1ms } }
`;
    const a = loadScenario(yaml, scenarioFile).base.clients.app.arrivals;
    expect(a.kind === 'trace' && a.data?.values.length).toBe(10);
  });

  it('a negative value, an unsorted one, a gap: refused at the entry', () => {
    const neg = steady(5); neg[3] = [neg[3][0], '-2'];
    expect(problemsOf(spec('n.json'), { 'n.json': matrix([{ metric: {}, values: neg }]) })[0]).toMatchObject({ path: 'data.result[0].values[3]', message: expect.stringMatching(/the value -2 is negative/) });
    const back = steady(5); [back[1], back[2]] = [back[2], back[1]];
    expect(problemsOf(spec('b.json'), { 'b.json': matrix([{ metric: {}, values: back }]) })[0]).toMatchObject({ path: 'data.result[0].values[2]', message: expect.stringMatching(/comes before the time above it/) });
    const gap = steady(6); gap.splice(2, 2);
    expect(problemsOf(spec('g.json'), { 'g.json': matrix([{ metric: {}, values: gap }]) })[0]).toMatchObject({ path: 'data.result[0].values[2]', message: expect.stringMatching(/a gap: 2 step\(s\) of 60s missing/) });
    const nan = steady(3); nan[1] = [nan[1][0], 'NaN'];
    expect(problemsOf(spec('nan.json'), { 'nan.json': matrix([{ metric: {}, values: nan }]) })[0].message).toMatch(/"NaN" is not a finite number/);
  });

  it('not JSON: refused at the line', () => {
    const ps = problemsOf(spec('bad.json'), { 'bad.json': '{\n  "status": "success",\n  "data": {,\n}' });
    expect(ps[0].line).toBe(3);
    expect(ps[0].message).toMatch(/^not JSON/);
  });
});

describe('an OTLP export that cannot be replayed', () => {
  const request = (service: string, spans: object[]) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ spans }] }] });
  const span = (kind: number, name = 'GET /') => ({ name, kind, startTimeUnixNano: '1765000000000000000' });

  it('several services and no service: refused naming them', () => {
    const ps = problemsOf('{ kind: trace, file: two.jsonl, format: otlp }', { 'two.jsonl': `${request('api', [span(2), span(2)])}\n${request('db', [span(2)])}\n` });
    expect(ps[0]).toMatchObject({ file: join(dir, 'two.jsonl'), path: 'resourceSpans', message: expect.stringMatching(/spans of 2 services \(api, db\): choose one with service/) });
  });

  it('no server spans: refused saying which kinds there are', () => {
    const ps = problemsOf('{ kind: trace, file: client.json, format: otlp }', { 'client.json': request('api', [span(3), span(3)]) });
    expect(ps[0].message).toMatch(/no server spans \(kind 2\).*the spans here are of kind 3/);
  });

  it('a start time that is not nanoseconds: refused at its entry', () => {
    const ps = problemsOf('{ kind: trace, file: t.json, format: otlp }', { 't.json': request('api', [span(2), { name: 'x', kind: 2, startTimeUnixNano: '2026-12-07T10:00:00Z' }]) });
    expect(ps[0]).toMatchObject({ path: 'resourceSpans[0].scopeSpans[0].spans[1].startTimeUnixNano' });
  });

  it('a line of JSON Lines that is not JSON: refused at its line', () => {
    const ps = problemsOf('{ kind: trace, file: l.jsonl, format: otlp }', { 'l.jsonl': `${request('api', [span(2)])}\n{ "resourceSpans": [\n` });
    expect(ps[0].line).toBe(2);
  });
});

describe('the trace\'s fields', () => {
  it('prometheus needs values; CSV columns are not for it', () => {
    writeFileSync(join(dir, 'ok.json'), matrix([{ metric: {}, values: steady(3) }]));
    const ps = problemsOf('{ kind: trace, file: ok.json, format: prometheus, columns: { count: n } }', {});
    expect(ps.map((p) => p.path).sort()).toEqual(['clients.app.arrivals.columns', 'clients.app.arrivals.values']);
  });

  it('step is refused for request times; service for a CSV', () => {
    const ps = problemsOf('{ kind: trace, file: t.csv, format: csv, step: 1s, service: api }', { 't.csv': 'time\n1\n2\n' });
    expect(ps.map((p) => p.path).sort()).toEqual(['clients.app.arrivals.service', 'clients.app.arrivals.step']);
  });

  it('data is not written by hand', () => {
    const ps = problemsOf('{ kind: trace, file: t.csv, format: csv, data: [1, 2] }', { 't.csv': 'time\n1\n2\n' });
    expect(ps[0]).toMatchObject({ file: scenarioFile, path: 'clients.app.arrivals.data' });
  });

  it('a window that starts after the trace ends', () => {
    const ps = problemsOf('{ kind: trace, file: w.csv, format: csv, columns: { count: n }, window: { from: 10m } }', { 'w.csv': 'time,n\n0,1\n60,1\n' });
    expect(ps[0]).toMatchObject({ file: scenarioFile, path: 'clients.app.arrivals.window.from', message: expect.stringMatching(/after the trace ends \(it lasts 120s\)/) });
  });

  it('a variant\'s overlay reading another file is read (and refused) too', () => {
    writeFileSync(join(dir, 'good.csv'), 'time\n1\n2\n');
    const ps = problemsOf('{ kind: trace, file: good.csv, format: csv }', { 'worse.csv': 'time\n2\n1\n' }, `variants:
  base: {}
  other: { overlay: { clients: { app: { arrivals: { file: worse.csv } } } } }
`);
    expect(ps).toHaveLength(1);
    expect(ps[0].file).toBe(join(dir, 'worse.csv'));
    expect(ps[0].message).toMatch(/\(read for variants\.other\.overlay\.clients\.app\.arrivals\)$/);
  });
});
