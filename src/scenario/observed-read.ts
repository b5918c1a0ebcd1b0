/**
 * Reads the files of the `observed:` block once, when the scenario is loaded, with the trace
 * readers (csv-trace.ts, prometheus-trace.ts: the same parsers, bounds and refusals, at the
 * file's line or JSON entry), places each series on the run's clock (t0), refuses one that does
 * not overlap the run, and hands the numbers forward in each entry's `data`. The values are
 * kept as the file wrote them (one per interval); converting them into the simulated column's
 * unit is the fit's business (src/results/observed-fit.ts).
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { ScenarioInputs } from './input-files.js';
import { formatPath, type Problem } from './problems.js';
import { STDIN_NAME } from './read-source.js';
import { formatCount } from './limits.js';
import { parseDuration } from './units.js';
import { readCsvTrace, readTime } from './trace/csv-trace.js';
import { readPrometheusTrace } from './trace/prometheus-trace.js';
import { TRACE_MOST_BYTES, seconds } from './trace/trace-steps.js';
import type { TraceOptions } from './trace/trace-options.js';
import type { ObservedData } from './observed-schema.js';

type Locate = (path: ReadonlyArray<PropertyKey>, key?: string) => { line: number; col: number };
const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

export interface ObservedRead {
  problems: Problem[];
  /** The raw scenario with each readable entry's `data` filled in (a copy where it changes). */
  raw: unknown;
}

export function readObserved(raw: Record<string, unknown>, scenarioFile: string, locate: Locate, inputs: ScenarioInputs): ObservedRead {
  const problems: Problem[] = [];
  if (!isObject(raw.observed)) return { problems, raw };
  const shown = (rel: string) => (scenarioFile === STDIN_NAME ? rel : join(dirname(scenarioFile), rel));
  const horizon = parseDuration(raw.horizon);
  const observed: Record<string, unknown> = { ...raw.observed };
  for (const [name, spec] of Object.entries(raw.observed)) {
    if (!isObject(spec)) continue;
    const path = ['observed', name];
    const at = (key: string, message: string) => {
      const { line, col } = locate(path, key);
      problems.push({ file: scenarioFile, line, col, path: formatPath([...path, key]), message });
    };
    if (spec.data !== undefined) { at('data', 'data is read from the file by the loader: remove it (name the file with file)'); continue; }
    const o = readingOptions(spec);
    if (!o) continue; // the schema says what is wrong with the fields, at their lines
    // Where the path points, whether it may be read, and the record of it (copied into the results folder): input-files.ts.
    const got = inputs.read(o.file, TRACE_MOST_BYTES);
    if (!got.ok) {
      const why = got.why === 'refused' ? got.detail
        : got.why === 'missing' ? 'no such file (a path is relative to the scenario file\'s folder)'
        : got.why === 'not-a-file' ? `it is ${got.detail}, not a file`
        : got.why === 'too-large' ? `it is larger than ${formatCount(TRACE_MOST_BYTES)} bytes: export a shorter range or a longer step`
        : `cannot be read (${got.detail})`;
      at('file', `cannot read the observed series ${o.file}: ${why}`);
      continue;
    }
    const parsed = o.format === 'csv' ? readCsvTrace(got.text, o) : readPrometheusTrace(got.text, o);
    if ('message' in parsed) {
      problems.push({ file: shown(o.file), line: parsed.line, col: parsed.line > 0 ? 1 : 0, path: parsed.path, message: `${parsed.message.replace('in columns.rate', 'in columns.value')} (read for ${formatPath(path)})` });
      continue;
    }
    const origin = parsed.origin ?? 0;
    let zero = origin;
    if (spec.t0 !== undefined) {
      const t0 = typeof spec.t0 === 'number' ? (o.timeUnit === 'ms' ? spec.t0 / 1000 : spec.t0) : typeof spec.t0 === 'string' ? readTime(spec.t0, o.timeUnit) : 'a t0 is an RFC 3339 timestamp or a number';
      if (typeof t0 === 'string') { at('t0', t0); continue; }
      zero = t0;
    }
    const stepS = parsed.step;
    const startS = origin - zero;
    const endS = startS + parsed.numbers.length * stepS;
    if (horizon.ok) {
      // Compared only on whole intervals inside the run: at least one must be.
      const first = Math.max(0, Math.ceil(-startS / stepS - 1e-9));
      const inside = Math.floor((Math.min(endS, horizon.value) - startS) / stepS + 1e-9) - first;
      if (inside < 1) {
        at(spec.t0 !== undefined ? 't0' : 'file', `the observed series covers ${seconds(startS)} to ${seconds(endS)} of the run (t0 maps the file's ${fileTime(zero)} onto the run's start), which holds no whole interval of ${seconds(stepS)} inside the run [0s, ${seconds(horizon.value)}): set t0 to the file's moment the run starts at (e.g. ${fileTime(origin)})`);
        continue;
      }
    }
    observed[name] = { ...spec, data: observedData(parsed.numbers, stepS, startS, o.file, createHash('sha256').update(got.text).digest('hex')) };
  }
  return { problems, raw: problems.length > 0 ? raw : { ...raw, observed } };
}

/** A moment of the file's clock as it may have been written: RFC 3339 when it is one since 1970, else seconds. */
function fileTime(t: number): string {
  return t > 1e8 && t < 1e11 ? new Date(t * 1000).toISOString().replace('.000Z', 'Z') : seconds(t);
}

/**
 * The values live in shared memory (a worker's copy of the scenario shares them) and the JSON
 * form is the file and its digest, as for a trace (trace-data.ts).
 */
function observedData(numbers: Float64Array, stepS: number, startS: number, file: string, sha256: string): ObservedData {
  const values = new Float64Array(new SharedArrayBuffer(numbers.length * Float64Array.BYTES_PER_ELEMENT));
  values.set(numbers);
  const data: ObservedData = { values, stepS, startS, file, sha256 };
  Object.defineProperty(data, 'toJSON', { enumerable: false, value: () => ({ file, sha256, count: values.length, stepS, startS }) });
  return data;
}

/**
 * How a trace reader reads an observed file: each row's value as written (a "rate", which the
 * readers keep as is), gaps refused. Undefined when the schema will refuse the fields anyway.
 */
function readingOptions(a: Record<string, unknown>): TraceOptions | undefined {
  if (typeof a.file !== 'string' || a.file === '' || (a.format !== 'csv' && a.format !== 'prometheus')) return undefined;
  const columns = a.columns ?? {};
  if (!isObject(columns) || (columns.time !== undefined && typeof columns.time !== 'string') || (columns.value !== undefined && typeof columns.value !== 'string')) return undefined;
  const timeUnit = a.timeUnit ?? 's';
  if (timeUnit !== 's' && timeUnit !== 'ms') return undefined;
  if (a.select !== undefined && (!isObject(a.select) || !Object.values(a.select).every((v) => typeof v === 'string'))) return undefined;
  let step: number | undefined;
  if (a.step !== undefined) {
    const d = parseDuration(a.step);
    if (!d.ok || !(d.value > 0)) return undefined;
    step = d.value;
  }
  return {
    file: a.file, format: a.format, timeUnit, gaps: 'refuse', blanks: true,
    ...(a.format === 'csv' ? { time: (columns.time as string | undefined) ?? 'time', rate: (columns.value as string | undefined) ?? 'value' } : { values: 'rate' as const }),
    ...(a.select !== undefined ? { select: a.select as Record<string, string> } : {}),
    ...(step !== undefined ? { step } : {}),
  };
}
