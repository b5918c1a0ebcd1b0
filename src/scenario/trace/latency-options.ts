/**
 * What decides how a latency file is read (a distribution `kind: empirical` with `file`,
 * docs/traces.md): taken from the raw scenario before validation, so the loader reads each
 * file once, whatever the variants and sweep points that use it. What the options cannot be
 * read as is left to the schema, which says it at the scenario's line.
 */
import { parseDuration } from '../units.js';

export interface LatencyOptions {
  /** As written, relative to the scenario file's folder. */
  file: string;
  format: 'prometheus' | 'csv';
  /** CSV: what each row is, from the columns the scenario names. */
  shape?: 'buckets' | 'samples' | 'quantiles';
  columns: { le?: string; count?: string; sample?: string; quantile?: string; value?: string };
  /** The unit of the file's durations (bucket bounds, samples, quantile values). */
  unit: 's' | 'ms';
  select?: Record<string, string>;
  /** Seconds: the upper bound of the +Inf bucket. */
  max?: number;
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Whether a raw object is a distribution read from a file (what the loader reads). */
export function isLatencyFile(d: unknown): boolean {
  return isObject(d) && d.kind === 'empirical' && d.file !== undefined;
}

/** The shape a CSV's columns say, or undefined when they say none or several. */
export function csvShape(c: Record<string, unknown>): LatencyOptions['shape'] {
  const has = (k: string) => c[k] !== undefined;
  if (has('le') && has('count') && !has('sample') && !has('quantile') && !has('value')) return 'buckets';
  if (has('sample') && !has('le') && !has('count') && !has('quantile') && !has('value')) return 'samples';
  if (has('quantile') && has('value') && !has('le') && !has('count') && !has('sample')) return 'quantiles';
  return undefined;
}

/** The reading options of a raw file distribution, or undefined when the schema will refuse them anyway. */
export function latencyOptions(d: Record<string, unknown>): LatencyOptions | undefined {
  if (d.kind !== 'empirical' || typeof d.file !== 'string' || d.file === '' || d.percentiles !== undefined) return undefined;
  if (d.format !== 'prometheus' && d.format !== 'csv') return undefined;
  const unit = d.unit ?? 's';
  if (unit !== 's' && unit !== 'ms') return undefined;
  const columns = d.columns ?? {};
  if (!isObject(columns) || !Object.values(columns).every((v) => typeof v === 'string' && v !== '')) return undefined;
  if (d.format === 'prometheus' && d.columns !== undefined) return undefined;
  const shape = d.format === 'csv' ? csvShape(columns) : undefined;
  if (d.format === 'csv' && (shape === undefined || d.select !== undefined)) return undefined;
  if (d.select !== undefined && (!isObject(d.select) || !Object.values(d.select).every((v) => typeof v === 'string'))) return undefined;
  let max: number | undefined;
  if (d.max !== undefined) {
    if (shape === 'samples' || shape === 'quantiles') return undefined;
    const m = parseDuration(d.max);
    if (!m.ok || !(m.value > 0)) return undefined;
    max = m.value;
  }
  return {
    file: d.file, format: d.format, unit, columns: columns as LatencyOptions['columns'],
    ...(shape !== undefined ? { shape } : {}),
    ...(d.select !== undefined ? { select: d.select as Record<string, string> } : {}),
    ...(max !== undefined ? { max } : {}),
  };
}
