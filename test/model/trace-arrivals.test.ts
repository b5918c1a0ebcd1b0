/**
 * Recorded traffic replayed (arrivals kind trace, docs/traces.md): request times arrive
 * exactly as recorded, N times giving N arrivals; counts per step are a Poisson process at
 * each step's rate, so each step keeps its count in expectation (a chi-square over many
 * steps, fixed seed); scale, shift, window and loop move and repeat the same data. The traces
 * go through the loader (a file beside the scenario), as a user's would.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ArrivalProcess, surgesFor } from '../../src/model/arrivals.js';
import { stream } from '../../src/engine/rng.js';
import { simulate } from '../../src/model/simulate.js';
import { plainShape } from '../../src/model/plain/plain-shape.js';
import { meanRate, rateAt } from '../../src/scenario/arrival-profile.js';
import type { Scenario } from '../../src/scenario/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'rs-trace-'));

/** A scenario with one population replaying `arrivals` (its file written beside it first). */
function load(arrivals: string, files: Record<string, string>, extra = '', horizon = '1h'): Scenario {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const yaml = `
name: trace
horizon: ${horizon}
clients:
  app:
    clients: 1000
    arrivals: ${arrivals}
    retry: { maxAttempts: 1, timeout: 1s }
server: { slots: 1000, serviceTime: { kind: constant, value: 1ms } }
${extra}`;
  return loadScenario(yaml, join(dir, 'scenario.yaml')).base;
}

/** Every arrival of the population's process before `until`. */
function arrivals(s: Scenario, until: number, seed = 7): number[] {
  const a = s.clients.app.arrivals;
  const p = new ArrivalProcess(a, stream(seed, 'clients/app/arrivals'), surgesFor(s.faults, 'app'));
  const out: number[] = [];
  for (let t = p.next(0); t < until; t = p.next(t)) out.push(t);
  return out;
}

/** Request times: 1,000 of them, irregular, some at the same instant, the first at a Unix time. */
function requestTimes(): number[] {
  const rng = stream(3, 'test/times');
  const out: number[] = [];
  let t = 1_765_000_000.125;
  for (let i = 0; i < 1000; i++) {
    if (rng() > 0.1) t += -Math.log(1 - rng()) * 0.5;
    out.push(Number(t.toFixed(3)));
  }
  return out;
}

describe('a trace of request times', () => {
  const times = requestTimes();
  const csv = `ts\n${times.map((t) => t.toFixed(3)).join('\n')}\n`;
  const rel = times.map((t) => t - times[0]);

  it('gives exactly N arrivals, at the recorded times (relative to the first)', () => {
    const s = load('{ kind: trace, file: times.csv, format: csv, columns: { time: ts } }', { 'times.csv': csv });
    const got = arrivals(s, Infinity);
    expect(got.length).toBe(times.length);
    // The times are within float precision of the recorded ones (Unix seconds to the millisecond).
    for (let i = 0; i < got.length; i++) expect(Math.abs(got[i] - rel[i])).toBeLessThan(1e-6);
    expect(got[0]).toBe(0);
  });

  it('runs through the simulator: N actions start', () => {
    const s = load('{ kind: trace, file: times.csv, format: csv, columns: { time: ts } }', { 'times.csv': csv }, 'measures: { bucket: 10s }');
    const r = simulate(s, 1);
    const started = r.series.actionsStarted.reduce((x, y) => x + y, 0);
    expect(started).toBe(times.length);
  });

  it('reads RFC 3339 timestamps and milliseconds alike', () => {
    const iso = `time\n${times.map((t) => new Date(Math.round(t * 1000)).toISOString()).join('\n')}\n`;
    const ms = `time\n${times.map((t) => Math.round(t * 1000)).join('\n')}\n`;
    const a = arrivals(load('{ kind: trace, file: iso.csv, format: csv }', { 'iso.csv': iso }), Infinity);
    const b = arrivals(load('{ kind: trace, file: ms.csv, format: csv, timeUnit: ms }', { 'ms.csv': ms }), Infinity);
    expect(a.length).toBe(times.length);
    for (let i = 0; i < a.length; i++) {
      expect(Math.abs(a[i] - rel[i])).toBeLessThan(1e-6);
      expect(Math.abs(b[i] - rel[i])).toBeLessThan(1e-6);
    }
  });

  it('shift delays every request; window takes [from, to) with from as the start; loop repeats it', () => {
    const s = load('{ kind: trace, file: times.csv, format: csv, columns: { time: ts }, shift: 30s, window: { from: 100s, to: 200s }, loop: true }', { 'times.csv': csv });
    const inWindow = rel.filter((t) => t >= 100 && t < 200).map((t) => t - 100);
    const got = arrivals(s, 30 + 3 * 100);
    expect(got.length).toBe(3 * inWindow.length);
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < inWindow.length; i++) expect(Math.abs(got[k * inWindow.length + i] - (30 + 100 * k + inWindow[i]))).toBeLessThan(1e-6);
    }
  });

  it('scale 2 replays each request twice at its time; 1.5 keeps the extra half in expectation', () => {
    const twice = arrivals(load('{ kind: trace, file: times.csv, format: csv, columns: { time: ts }, scale: 2 }', { 'times.csv': csv }), Infinity);
    expect(twice.length).toBe(2 * times.length);
    for (let i = 0; i < times.length; i++) expect(twice[2 * i]).toBe(twice[2 * i + 1]);
    const half = arrivals(load('{ kind: trace, file: times.csv, format: csv, columns: { time: ts }, scale: 1.5 }', { 'times.csv': csv }), Infinity);
    // 1000 + Binomial(1000, 0.5): within 4 standard deviations (15.8) of 1500.
    expect(Math.abs(half.length - 1500)).toBeLessThan(4 * Math.sqrt(250));
  });

  it('the sweep\'s load multiplies the scale', () => {
    writeFileSync(join(dir, 'times.csv'), csv);
    const l = loadScenario(`
name: trace
horizon: 1h
sweep: [{ parameter: load, values: [1, 2] }]
clients:
  app:
    arrivals: { kind: trace, file: times.csv, format: csv, columns: { time: ts } }
    retry: { maxAttempts: 1, timeout: 1s }
server: { slots: 1000, serviceTime: { kind: constant, value: 1ms } }
`, join(dir, 'sweep.yaml'));
    const at2 = l.variants[0].points[1].clients.app.arrivals;
    expect(at2.kind === 'trace' && at2.scale).toBe(2);
    // The data is the same object at every point: read once, held once.
    const at1 = l.variants[0].points[0].clients.app.arrivals;
    expect(at1.kind === 'trace' && at2.kind === 'trace' && at1.data === at2.data).toBe(true);
  });
});

describe('a trace of counts per step', () => {
  // 2,000 steps of 10 s with counts between 0 and 80 (one step in ten empty).
  const rng = stream(5, 'test/counts');
  const counts = Array.from({ length: 2000 }, () => (rng() < 0.1 ? 0 : 1 + Math.floor(rng() * 80)));
  const csv = `at,requests\n${counts.map((c, i) => `${1_765_000_000 + 10 * i},${c}`).join('\n')}\n`;
  const spec = '{ kind: trace, file: counts.csv, format: csv, columns: { time: at, count: requests } }';

  it('keeps each step\'s count in expectation: chi-square over 2,000 steps, fixed seed', () => {
    const s = load(spec, { 'counts.csv': csv }, '', '6h');
    const got = arrivals(s, Infinity);
    const perStep = new Array<number>(counts.length).fill(0);
    for (const t of got) perStep[Math.floor(t / 10)]++;
    let chi2 = 0, dof = 0;
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] === 0) { expect(perStep[i]).toBe(0); continue; }
      chi2 += (perStep[i] - counts[i]) ** 2 / counts[i];
      dof++;
    }
    // A Poisson count's (X - m)^2 / m has mean 1 and variance 2 + 1/m: the sum is about
    // dof +- sqrt(2 dof). Four standard deviations either side; a step read one off, a rate
    // not divided by the step, or an arrival in the wrong step is far outside.
    expect(Math.abs(chi2 - dof)).toBeLessThan(4 * Math.sqrt(2.1 * dof));
    const total = counts.reduce((x, y) => x + y, 0);
    expect(Math.abs(got.length - total)).toBeLessThan(4 * Math.sqrt(total));
    // Deterministic under the seed: the same arrivals again, others with another seed.
    expect(arrivals(s, 600)).toEqual(got.filter((t) => t < 600));
    expect(arrivals(s, 600, 8)).not.toEqual(got.filter((t) => t < 600));
  });

  it('is Poisson within a step: inter-arrival times are exponential (mean and variance 1/rate)', () => {
    const flat = `at,requests\n${Array.from({ length: 500 }, (_, i) => `${i * 10},50`).join('\n')}\n`;
    const got = arrivals(load('{ kind: trace, file: flat.csv, format: csv, columns: { time: at, count: requests } }', { 'flat.csv': flat }, '', '2h'), Infinity);
    const gaps = got.slice(1).map((t, i) => t - got[i]);
    const mean = gaps.reduce((x, y) => x + y, 0) / gaps.length;
    const variance = gaps.reduce((x, y) => x + (y - mean) ** 2, 0) / gaps.length;
    expect(mean).toBeCloseTo(0.2, 2);
    expect(Math.sqrt(variance) / mean).toBeGreaterThan(0.95); // a coefficient of variation of 1
    expect(Math.sqrt(variance) / mean).toBeLessThan(1.05);
  });

  it('is held in shared memory: the copy a worker task gets shares the numbers; its JSON is the file and digest', () => {
    const a = load(spec, { 'counts.csv': csv }, '', '6h').clients.app.arrivals;
    if (a.kind !== 'trace' || !a.data) throw new Error('not a trace');
    expect(a.data.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    // What piscina does with a task: a structured clone, which shares a SharedArrayBuffer.
    const copy = structuredClone(a);
    const before = a.data.values[3];
    copy.data!.values[3] = -1;
    expect(a.data.values[3]).toBe(-1);
    a.data.values[3] = before;
    expect(JSON.parse(JSON.stringify(a.data))).toEqual({ shape: 'rates', file: 'counts.csv', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), count: 2000, step: 10, length: 20_000 });
  });

  it('rateAt and meanRate read the same steps (what the loader sizes runs with)', () => {
    const s = load(`{ kind: trace, file: counts.csv, format: csv, columns: { time: at, count: requests }, scale: 2, shift: 1m }`, { 'counts.csv': csv }, '', '6h');
    const a = s.clients.app.arrivals;
    expect(rateAt(a, 30)).toBe(0);
    expect(rateAt(a, 60 + 10 * 7 + 5)).toBeCloseTo((2 * counts[7]) / 10, 12);
    const total = counts.reduce((x, y) => x + y, 0);
    expect(meanRate(a, 6 * 3600)).toBeCloseTo((2 * total) / (6 * 3600), 9);
  });

  it('a loop repeats the window at the same rates; without one, nothing after the end', () => {
    const looped = load(`{ kind: trace, file: counts.csv, format: csv, columns: { time: at, count: requests }, window: { from: 100s, to: 200s }, loop: true }`, { 'counts.csv': csv }, '', '6h').clients.app.arrivals;
    for (let k = 0; k < 5; k++) for (let j = 0; j < 10; j++) expect(rateAt(looped, 100 * k + 10 * j + 5)).toBe(counts[10 + j] / 10);
    const once = load(spec, { 'counts.csv': csv }, '', '12h').clients.app.arrivals;
    expect(rateAt(once, 20_000 + 1)).toBe(0);
    expect(arrivals({ clients: { app: { arrivals: once } }, faults: [] } as unknown as Scenario, Infinity).every((t) => t < 20_000)).toBe(true);
  });

  it('a surge multiplies a step\'s rate for its window', () => {
    const flat = `at,requests\n${Array.from({ length: 360 }, (_, i) => `${i * 10},100`).join('\n')}\n`;
    const s = load('{ kind: trace, file: flat.csv, format: csv, columns: { time: at, count: requests } }', { 'flat.csv': flat }, 'faults: [{ kind: surge, at: 20m, duration: 10m, factor: 3 }]');
    const got = arrivals(s, 3600);
    const inSurge = got.filter((t) => t >= 1200 && t < 1800).length;
    const outside = got.length - inSurge;
    expect(Math.abs(inSurge - 18_000)).toBeLessThan(4 * Math.sqrt(18_000));
    expect(Math.abs(outside - 30_000)).toBeLessThan(4 * Math.sqrt(30_000));
  });
});

describe('a Prometheus range query', () => {
  const start = 1_765_000_000;
  const body = (values: string) => JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [{ metric: { job: 'api', route: '/login' }, values: JSON.parse(values) }] } });
  const values = JSON.stringify(Array.from({ length: 60 }, (_, i) => [start + 60 * (i + 1), String(i % 2 ? 4 : 2)]));

  it('reads a rate per second for the step that ends at each value', () => {
    const a = load('{ kind: trace, file: rate.json, format: prometheus, values: rate }', { 'rate.json': body(values) }).clients.app.arrivals;
    expect(a.kind === 'trace' && a.data?.step).toBe(60);
    expect(rateAt(a, 30)).toBe(2); // the first value, at start + 60, stands for [0, 60)
    expect(rateAt(a, 90)).toBe(4);
    expect(meanRate(a, 3600)).toBeCloseTo(3, 12);
  });

  it('reads an increase per step as that many requests in the step', () => {
    const a = load('{ kind: trace, file: inc.json, format: prometheus, values: increase }', { 'inc.json': body(values) }).clients.app.arrivals;
    expect(rateAt(a, 30)).toBeCloseTo(2 / 60, 12);
  });
});

describe('the plain world replays a trace as the general path does', () => {
  // Both paths draw arrivals from ArrivalProcess: the same record, number for number.
  const rng = stream(9, 'test/plain');
  const times = `time\n${Array.from({ length: 3000 }, (_, i) => (i * 0.04 + (rng() < 0.2 ? 0 : rng() * 0.01)).toFixed(3)).sort((a, b) => Number(a) - Number(b)).join('\n')}\n`;
  const counts = `time,n\n${Array.from({ length: 18 }, (_, i) => `${10 * i},${i === 9 ? 900 : 200}`).join('\n')}\n`;
  const cases = {
    'request times (with repeats)': ['{ kind: trace, file: plain-times.csv, format: csv, scale: 1.5 }', { 'plain-times.csv': times }],
    'counts per step, a burst': ['{ kind: trace, file: plain-counts.csv, format: csv, columns: { count: n }, loop: true }', { 'plain-counts.csv': counts }],
  } as const;
  for (const [name, [spec, files]] of Object.entries(cases)) {
    it(name, () => {
      const s = load(spec, files, 'measures: { bucket: 10s }\nfaults: [{ kind: dependency-down, at: 1m, duration: 20s }]', '3m');
      expect(plainShape(s)).toBe(true);
      const plain = simulate(s, 2);
      const general = simulate(s, 2, { generalPath: true });
      expect(plain.totals.eventsProcessed).toBe(general.totals.eventsProcessed);
      expect(JSON.stringify(plain, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v))).toBe(
        JSON.stringify(general, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v)));
      expect(plain.series.actionsStarted.reduce((x, y) => x + y, 0)).toBeGreaterThan(1000);
    });
  }
});

describe('OpenTelemetry traces (OTLP JSON)', () => {
  // Two services; the api's server spans (kind 2) are its requests, its client spans (kind 3)
  // calls it made. Spans are not in time order in an export.
  const starts = [5_000_000_123n, 1_000_000_000n, 3_500_000_000n, 3_500_000_000n, 9_250_000_001n].map((ns) => 1_765_000_000_000_000_000n + ns);
  const span = (ns: bigint, kind: number, name = 'GET /login') => ({ traceId: 'a', spanId: 'b', name, kind, startTimeUnixNano: String(ns), endTimeUnixNano: String(ns + 1_000_000n) });
  const request = (service: string, spans: object[]) => ({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ scope: { name: 'x' }, spans }] }] });
  const body = [
    JSON.stringify(request('api', [...starts.slice(0, 3).map((t) => span(t, 2)), span(starts[0], 3)])),
    JSON.stringify(request('api', [...starts.slice(3).map((t) => span(t, 2)), span(starts[1], 2, 'GET /health')])),
    JSON.stringify(request('db', [span(starts[2], 2, 'query')])),
  ].join('\n');

  it('replays the chosen service\'s server spans (JSON Lines), sorted, exactly, to the nanosecond', () => {
    const s = load('{ kind: trace, file: spans.jsonl, format: otlp, service: api, span: "GET /login" }', { 'spans.jsonl': body });
    const got = arrivals(s, Infinity);
    const want = starts.map((t) => Number(t - starts[1]) / 1e9).sort((a, b) => a - b);
    expect(got.length).toBe(5);
    for (let i = 0; i < 5; i++) expect(Math.abs(got[i] - want[i])).toBeLessThan(1e-9);
  });

  it('every server span of the service without span (the health check too)', () => {
    expect(arrivals(load('{ kind: trace, file: spans.jsonl, format: otlp, service: api }', { 'spans.jsonl': body }), Infinity)).toHaveLength(6);
  });
});
