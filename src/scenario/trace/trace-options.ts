/**
 * What decides how a trace file is read (the rest of a trace's fields say how it is played):
 * taken from the raw scenario before validation, so the loader reads each file once, whatever
 * the variants and sweep points that play it. What the options cannot be read as is left to
 * the schema, which says it at the scenario's line.
 */
import { parseDuration } from '../units.js';

export interface TraceOptions {
  /** As written, relative to the scenario file's folder. */
  file: string;
  format: 'csv' | 'prometheus' | 'otlp';
  time?: string;
  count?: string;
  rate?: string;
  timeUnit: 's' | 'ms';
  values?: 'rate' | 'increase';
  select?: Record<string, string>;
  service?: string;
  span?: string;
  /** Seconds. */
  step?: number;
  gaps: 'refuse' | 'zero';
  /** An empty (CSV) or NaN value is kept as NaN, "no value in this step": for observed series only (observed-read.ts), never for arrivals. */
  blanks?: boolean;
}

/** A file read into numbers: rates per step, or request times (seconds after the first). */
export interface TraceParsed {
  shape: 'rates' | 'times';
  numbers: Float64Array;
  step: number;
  length: number;
  /** When the first step starts, in the file's own clock (for messages and docs only). */
  origin?: number;
}

/** The first thing wrong with a file: its line (0 when it has none, as in JSON) and its path inside (JSON). */
export interface TraceFailure {
  line: number;
  path: string;
  message: string;
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const optionalString = (x: unknown) => x === undefined || typeof x === 'string';

/** The reading options of a raw trace arrivals, or undefined when the schema will refuse them anyway. */
export function traceOptions(a: Record<string, unknown>): TraceOptions | undefined {
  if (a.kind !== 'trace' || typeof a.file !== 'string' || a.file === '' || (a.format !== 'csv' && a.format !== 'prometheus' && a.format !== 'otlp')) return undefined;
  const columns = a.columns === undefined ? {} : a.columns;
  if (!optionalString(a.service) || !optionalString(a.span)) return undefined;
  if (!isObject(columns) || !optionalString(columns.time) || !optionalString(columns.count) || !optionalString(columns.rate)) return undefined;
  const timeUnit = a.timeUnit ?? 's';
  const gaps = a.gaps ?? 'refuse';
  if ((timeUnit !== 's' && timeUnit !== 'ms') || (gaps !== 'refuse' && gaps !== 'zero')) return undefined;
  if (a.values !== undefined && a.values !== 'rate' && a.values !== 'increase') return undefined;
  if (a.format === 'prometheus' && a.values === undefined) return undefined;
  if (a.select !== undefined && (!isObject(a.select) || !Object.values(a.select).every((v) => typeof v === 'string'))) return undefined;
  let step: number | undefined;
  if (a.step !== undefined) {
    const d = parseDuration(a.step);
    if (!d.ok || !(d.value > 0)) return undefined;
    step = d.value;
  }
  return {
    file: a.file, format: a.format, timeUnit, gaps,
    ...(columns.time !== undefined ? { time: columns.time as string } : {}),
    ...(columns.count !== undefined ? { count: columns.count as string } : {}),
    ...(columns.rate !== undefined ? { rate: columns.rate as string } : {}),
    ...(a.values !== undefined ? { values: a.values } : {}),
    ...(a.select !== undefined ? { select: a.select as Record<string, string> } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(a.service !== undefined ? { service: a.service as string } : {}),
    ...(a.span !== undefined ? { span: a.span as string } : {}),
  };
}
