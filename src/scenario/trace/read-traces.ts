/**
 * Reads the recorded traffic a scenario names (arrivals kind trace), once, when the scenario
 * is loaded: every trace of the base and of each variant's overlay, before validation, so a
 * file that cannot be read is refused at its own line (or JSON entry) before anything else;
 * then hands the parsed numbers forward by attaching them to each validated world's trace
 * arrivals (`data`), where the format's arithmetic, the model and the workers read them. A
 * file read for several variants or sweep points is read and held once.
 *
 * Bounded like every file the loader reads (bounded-read.ts): regular files only, at most
 * TRACE_MOST_BYTES counted as read.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { InputRead, ScenarioInputs } from '../input-files.js';
import { deepMerge } from '../merge.js';
import { formatPath, type Problem } from '../problems.js';
import { STDIN_NAME } from '../read-source.js';
import { formatCount } from '../limits.js';
import { makeTraceData, type TraceData } from './trace-data.js';
import { traceOptions, type TraceOptions } from './trace-options.js';
import { readCsvTrace } from './csv-trace.js';
import { readPrometheusTrace } from './prometheus-trace.js';
import { readOtlpTrace } from './otlp-trace.js';
import { TRACE_MOST_BYTES } from './trace-steps.js';

type Path = Array<string | number>;
type Locate = (path: ReadonlyArray<PropertyKey>, key?: string) => { line: number; col: number };

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

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
  const cache = new Map<string, Read>();
  const read = (o: TraceOptions): Read => {
    // Where the path points, whether it may be read, and the record of it: input-files.ts.
    const key = JSON.stringify([inputs.key(o.file), o]);
    const known = cache.get(key);
    if (known) return known;
    const got = readOne(o, inputs.read(o.file, TRACE_MOST_BYTES), shown(o.file));
    cache.set(key, got);
    return got;
  };

  const problems: Problem[] = [];
  const reported = new Set<Problem>();
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
      if ('unreadable' in got) {
        // An overlay that only changes how the base's trace plays is not told again.
        if (baseClients !== undefined && pop.arrivals.file === undefined) continue;
        // A file that cannot be opened is the scenario's slip: said at its `file`, as a missing config is.
        const { line, col } = locate(path, 'file');
        problems.push({ file: scenarioFile, line, col, path: formatPath([...path, 'file']), message: got.unreadable });
      } else if ('problem' in got && !reported.has(got.problem)) {
        reported.add(got.problem);
        problems.push({ ...got.problem, message: `${got.problem.message} (read for ${formatPath(path)})` });
      }
    }
  };
  traces(raw.clients, ['clients']);
  if (isObject(raw.variants)) {
    for (const [v, decl] of Object.entries(raw.variants)) {
      if (isObject(decl) && isObject(decl.overlay)) traces(decl.overlay.clients, ['variants', v, 'overlay', 'clients'], raw.clients);
    }
  }

  const attach = (world: unknown): unknown => {
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

/** A trace read: its data, what is wrong inside the file, or why the file cannot be read at all. */
type Read = TraceData | { problem: Problem } | { unreadable: string };

function readOne(o: TraceOptions, got: InputRead, shown: string): Read {
  const problem = (line: number, path: string, message: string) => ({ problem: { file: shown, line, col: line > 0 ? 1 : 0, path, message } });
  if (!got.ok) {
    const why = got.why === 'refused' ? got.detail
      : got.why === 'missing' ? 'no such file (a path is relative to the scenario file\'s folder)'
      : got.why === 'not-a-file' ? `it is ${got.detail}, not a file`
      : got.why === 'too-large' ? `it is larger than ${formatCount(TRACE_MOST_BYTES)} bytes: export a shorter range, or counts per step instead of request times`
      : `cannot be read (${got.detail})`;
    return { unreadable: `cannot read the trace ${o.file}: ${why}` };
  }
  const parsed = o.format === 'csv' ? readCsvTrace(got.text, o) : o.format === 'prometheus' ? readPrometheusTrace(got.text, o) : readOtlpTrace(got.text, o);
  if ('message' in parsed) return problem(parsed.line, parsed.path, parsed.message);
  const sha256 = createHash('sha256').update(got.text).digest('hex');
  return makeTraceData(parsed.shape, parsed.numbers, parsed.step, parsed.length, o.file, sha256);
}
