/**
 * Reads the recorded files a scenario names, once, when the scenario is loaded: traffic
 * (arrivals kind trace) and observed latency (a distribution kind empirical with file,
 * wherever a distribution is written). Every such file of the base and of each variant's
 * overlay is read before validation, so a file that cannot be read is refused at its own line
 * (or JSON entry) before anything else; then the parsed numbers are handed forward by
 * attaching them (`data`) to each validated world's trace arrivals and file distributions,
 * where the format's arithmetic, the model and the workers read them. A file read for several
 * variants or sweep points is read and held once.
 *
 * Bounded like every file the loader reads (bounded-read.ts): regular files only, at most
 * TRACE_MOST_BYTES counted as read.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { InputRead, ScenarioInputs } from '../input-files.js';
import { changesKind, deepMerge } from '../merge.js';
import { formatPath, type Problem } from '../problems.js';
import { STDIN_NAME } from '../read-source.js';
import { formatCount } from '../limits.js';
import { makeTraceData, type TraceData } from './trace-data.js';
import { traceOptions, type TraceOptions } from './trace-options.js';
import { readCsvTrace } from './csv-trace.js';
import { readPrometheusTrace } from './prometheus-trace.js';
import { readOtlpTrace } from './otlp-trace.js';
import { TRACE_MOST_BYTES } from './trace-steps.js';
import { isLatencyFile, latencyOptions, type LatencyOptions } from './latency-options.js';
import { makeLatencyData, type Knots, type LatencyData } from './latency-data.js';
import { readPrometheusHistogram } from './latency-prometheus.js';
import { readLatencyCsv } from './latency-csv.js';
import type { TraceFailure } from './trace-options.js';

type Path = Array<string | number>;
type Locate = (path: ReadonlyArray<PropertyKey>, key?: string) => { line: number; col: number };

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
/** A mapping as YAML gives it (not a trace's data, whose typed arrays are not walked). */
const isPlain = (x: unknown): x is Record<string, unknown> => isObject(x) && (Object.getPrototypeOf(x) === Object.prototype || Object.getPrototypeOf(x) === null);

/** What a trace that could not be read leaves in `data`: the schema says its message there. */
export interface UnreadTrace {
  unread: string;
}

export interface Traces {
  problems: Problem[];
  /**
   * A raw world (the base, or a variant at a sweep point, merged) with each trace's data in its
   * arrivals, copied where it changes (the raw objects are shared between variants).
   */
  attach(raw: unknown): unknown;
}

export function readTraces(raw: Record<string, unknown>, scenarioFile: string, locate: Locate, inputs: ScenarioInputs): Traces {
  const shown = (rel: string) => (scenarioFile === STDIN_NAME ? rel : join(dirname(scenarioFile), rel));
  const cache = new Map<string, Read<TraceData>>();
  const read = (o: TraceOptions): Read<TraceData> => {
    // Where the path points, whether it may be read, and the record of it: input-files.ts.
    const key = JSON.stringify([inputs.key(o.file), o]);
    const known = cache.get(key);
    if (known) return known;
    const got = readOne(o, inputs.read(o.file, TRACE_MOST_BYTES), shown(o.file));
    cache.set(key, got);
    return got;
  };

  const latencyCache = new Map<string, Read<LatencyData>>();
  const readLatency = (o: LatencyOptions): Read<LatencyData> => {
    const key = JSON.stringify([inputs.key(o.file), o]);
    const known = latencyCache.get(key);
    if (known) return known;
    const got = readRecorded(o.file, inputs.read(o.file, TRACE_MOST_BYTES), shown(o.file), 'latency file', 'export a histogram or quantiles instead of samples', (text) => (o.format === 'prometheus' ? readPrometheusHistogram(text, o) : readLatencyCsv(text, o)), (k: Knots, sha256) => makeLatencyData(k, o.file, sha256));
    latencyCache.set(key, got);
    return got;
  };

  const problems: Problem[] = [];
  const reported = new Set<Problem>();
  /** A file that could not be read or parsed, said once (at the scenario's `file`, or in the file). */
  const refuse = (got: { problem: Problem } | { unreadable: string }, path: Path, overlayWithoutFile: boolean) => {
    if ('unreadable' in got) {
      // An overlay that only changes how the base's file is used is not told again.
      if (overlayWithoutFile) return;
      // A file that cannot be opened is the scenario's slip: said at its `file`, as a missing config is.
      const { line, col } = locate(path, 'file');
      problems.push({ file: scenarioFile, line, col, path: formatPath([...path, 'file']), message: got.unreadable });
    } else if (!reported.has(got.problem)) {
      reported.add(got.problem);
      problems.push({ ...got.problem, message: `${got.problem.message} (read for ${formatPath(path)})` });
    }
  };
  const traces = (clients: unknown, at: Path, baseClients?: unknown) => {
    if (!isObject(clients)) return;
    for (const [name, pop] of Object.entries(clients)) {
      if (!isObject(pop) || !isObject(pop.arrivals)) continue;
      const path = [...at, name, 'arrivals'];
      if (pop.arrivals.data !== undefined) {
        const { line, col } = locate(path, 'data');
        problems.push({ file: scenarioFile, line, col, path: formatPath([...path, 'data']), message: 'data is read from the trace file by the loader: remove it (name the file with file)' });
        continue;
      }
      // An overlay's trace is read as the variant will have it: merged over the base's.
      const under = isObject(baseClients) && isObject(baseClients[name]) ? (baseClients[name] as Record<string, unknown>).arrivals : undefined;
      const spec = isObject(under) ? deepMerge(under, pop.arrivals) : pop.arrivals;
      const o = traceOptions(spec);
      if (!o) continue;
      const got = read(o);
      if ('unreadable' in got || 'problem' in got) refuse(got, path, baseClients !== undefined && pop.arrivals.file === undefined);
    }
  };
  /**
   * Every distribution read from a file, at any depth (a server's, a route's, a dependency's, a
   * think time, a fault's added latency…); an overlay's as the variant will have it, merged
   * over the base's (`under`). Lists replace in a merge, so under a list nothing is merged.
   */
  const latencies = (node: unknown, at: Path, under: unknown, inOverlay: boolean): void => {
    if (Array.isArray(node)) return node.forEach((x, i) => latencies(x, [...at, i], undefined, inOverlay));
    if (!isPlain(node)) return;
    const merges = isPlain(under) && !changesKind(under, node);
    const spec = merges ? deepMerge(under, node) : node;
    if (isLatencyFile(spec)) {
      if (node.data !== undefined) {
        const { line, col } = locate(at, 'data');
        problems.push({ file: scenarioFile, line, col, path: formatPath([...at, 'data']), message: 'data is read from the latency file by the loader: remove it (name the file with file)' });
        return;
      }
      const o = latencyOptions(spec);
      if (!o) return;
      const got = readLatency(o);
      if ('unreadable' in got || 'problem' in got) refuse(got, at, inOverlay && node.file === undefined);
      return;
    }
    for (const [k, v] of Object.entries(node)) latencies(v, [...at, k], merges ? under[k] : undefined, inOverlay);
  };
  traces(raw.clients, ['clients']);
  const { variants: declared, ...rawBase } = raw;
  latencies(rawBase, [], undefined, false);
  if (isObject(declared)) {
    for (const [v, decl] of Object.entries(declared)) {
      if (isObject(decl) && isObject(decl.overlay)) {
        traces(decl.overlay.clients, ['variants', v, 'overlay', 'clients'], raw.clients);
        latencies(decl.overlay, ['variants', v, 'overlay'], rawBase, true);
      }
    }
  }

  /** The world with each file distribution's knots in its `data`, copied along the way where it changes. */
  const attachLatencies = (x: unknown): unknown => {
    if (Array.isArray(x)) {
      const out = x.map(attachLatencies);
      return out.some((y, i) => y !== x[i]) ? out : x;
    }
    if (!isPlain(x)) return x;
    if (isLatencyFile(x)) {
      const o = latencyOptions(x);
      if (!o) return x;
      const got = readLatency(o);
      const data: LatencyData | UnreadTrace = 'unreadable' in got ? { unread: got.unreadable } : 'problem' in got ? { unread: problemText(got.problem) } : got;
      return { ...x, data };
    }
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(x)) {
      const y = attachLatencies(v);
      if (y !== v) (out ??= { ...x })[k] = y;
    }
    return out ?? x;
  };

  const attach = (input: unknown): unknown => {
    const world = attachLatencies(input);
    if (!isObject(world) || !isObject(world.clients)) return world;
    let clients: Record<string, unknown> | undefined;
    for (const [name, pop] of Object.entries(world.clients)) {
      if (!isObject(pop) || !isObject(pop.arrivals)) continue;
      const o = traceOptions(pop.arrivals);
      if (!o) continue;
      const got = read(o);
      const data: TraceData | UnreadTrace = 'unreadable' in got ? { unread: got.unreadable } : 'problem' in got ? { unread: problemText(got.problem) } : got;
      clients ??= { ...world.clients };
      clients[name] = { ...pop, arrivals: { ...pop.arrivals, data } };
    }
    return clients ? { ...world, clients } : world;
  };
  return { problems, attach };
}

/** A problem in a trace file as one line, for the rare trace first read at a sweep point. */
function problemText(p: Problem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}` : p.file;
  return `${where}${p.path ? ` ${p.path}` : ''}: ${p.message}`;
}

/** A file read: its data, what is wrong inside the file, or why the file cannot be read at all. */
type Read<D> = D | { problem: Problem } | { unreadable: string };

function readOne(o: TraceOptions, got: InputRead, shown: string): Read<TraceData> {
  const parse = (text: string) => (o.format === 'csv' ? readCsvTrace(text, o) : o.format === 'prometheus' ? readPrometheusTrace(text, o) : readOtlpTrace(text, o));
  return readRecorded(o.file, got, shown, 'trace', 'export a shorter range, or counts per step instead of request times', parse, (p, sha256) => makeTraceData(p.shape, p.numbers, p.step, p.length, o.file, sha256));
}

/**
 * One recorded file, read (bounded, confined and recorded) by the scenario's inputs, parsed,
 * and made into what the scenario holds (with a digest of its bytes), or the first thing wrong
 * with it.
 */
function readRecorded<P extends object, D>(written: string, got: InputRead, shown: string, what: string, smaller: string, parse: (text: string) => P | TraceFailure, make: (parsed: P, sha256: string) => D): Read<D> {
  const problem = (line: number, path: string, message: string) => ({ problem: { file: shown, line, col: line > 0 ? 1 : 0, path, message } });
  if (!got.ok) {
    const why = got.why === 'refused' ? got.detail
      : got.why === 'missing' ? 'no such file (a path is relative to the scenario file\'s folder)'
      : got.why === 'not-a-file' ? `it is ${got.detail}, not a file`
      : got.why === 'too-large' ? `it is larger than ${formatCount(TRACE_MOST_BYTES)} bytes: ${smaller}`
      : `cannot be read (${got.detail})`;
    return { unreadable: `cannot read the ${what} ${written}: ${why}` };
  }
  const parsed = parse(got.text);
  if ('message' in parsed && 'line' in parsed && 'path' in parsed) return problem(parsed.line, parsed.path, parsed.message);
  const sha256 = createHash('sha256').update(got.text).digest('hex');
  return make(parsed as P, sha256);
}
