/**
 * A search's parameter and range, read into numbers the search can bisect and written back as
 * scenario values at each value it tries. The parameter is checked as a sweep's is (a value of
 * the world that the base scenario sets, or "load"); the range and precision must be in one
 * kind of unit, and each value tried is written in that kind ("372.5s", "12.5/s", 0.75), so a
 * variant at a searched value is validated like any scenario.
 */
import type { SearchSpec } from './schema-search.js';
import { LOAD_PARAMETER, parsePath } from './sweep.js';
import { formatDuration, parseDuration, parseRate } from './units.js';
import type { PathSegment } from './raw-path.js';

export type ValueKind = 'duration' | 'rate' | 'number';

export interface ResolvedSearch {
  parameter: string;
  path: PathSegment[] | typeof LOAD_PARAMETER;
  kind: ValueKind;
  /** In seconds (duration), per second (rate), or as written (number). */
  from: number;
  to: number;
  precision: number;
  level: number;
  budget: number;
  /** As the scenario gives it; undefined: read from the runs (run-search.ts). */
  direction?: 'falling' | 'rising';
}

/** Where in the `search` block (or which flag) a problem is. */
export type SearchKey = 'parameter' | 'range.from' | 'range.to' | 'precision' | 'level' | 'budget';

export interface SearchProblem {
  key: SearchKey;
  message: string;
}

/** The kind of a written value and its number, or a message. */
export function readValue(v: string | number): { kind: ValueKind; n: number } | string {
  if (typeof v === 'number') return Number.isFinite(v) ? { kind: 'number', n: v } : `expected a finite number (got ${v})`;
  const d = parseDuration(v);
  if (d.ok) return { kind: 'duration', n: d.value };
  const r = parseRate(v);
  if (r.ok) return { kind: 'rate', n: r.value };
  const bare = Number(v.trim());
  if (v.trim() !== '' && Number.isFinite(bare)) return { kind: 'number', n: bare };
  return `"${v}" is neither a duration ("5m"), a rate ("800/s") nor a number`;
}

/** A searched value as the scenario writes it: seconds to the millisecond, rates per second, numbers to 6 significant digits. */
export function writeValue(kind: ValueKind, n: number): string | number {
  const x = roundAsWritten(kind, n);
  return kind === 'duration' ? `${x}s` : kind === 'rate' ? `${x}/s` : x;
}

/** The number a written value stands for: seconds to the millisecond, the rest to 6 significant digits. */
export function roundAsWritten(kind: ValueKind, n: number): number {
  return kind === 'duration' ? Math.round(n * 1000) / 1000 : Number(n.toPrecision(6));
}

/**
 * Reads a search spec; `setsValue` says whether the base scenario sets a value at a path (a
 * search, like a sweep, varies a value the scenario already has).
 */
export function resolveSearch(spec: SearchSpec, setsValue: (path: PathSegment[]) => boolean): ResolvedSearch | SearchProblem[] {
  const problems: SearchProblem[] = [];
  let path: ResolvedSearch['path'] | undefined = spec.parameter === LOAD_PARAMETER ? LOAD_PARAMETER : undefined;
  if (spec.parameter !== LOAD_PARAMETER) {
    const parsed = parsePath(spec.parameter);
    if (typeof parsed === 'string') problems.push({ key: 'parameter', message: parsed });
    else if (['sweep', 'variants', 'expectations', 'search', 'compare', 'seed', 'seeds', 'name'].includes(String(parsed[0]))) {
      problems.push({ key: 'parameter', message: `"${spec.parameter}" cannot be searched: search a value of the world (clients, server, faults, horizon…)` });
    } else if (!setsValue(parsed)) {
      problems.push({ key: 'parameter', message: `the scenario sets no value at "${spec.parameter}": a search varies a value the base scenario already has` });
    } else path = parsed;
  }
  const from = readValue(spec.range.from), to = readValue(spec.range.to);
  if (typeof from === 'string') problems.push({ key: 'range.from', message: from });
  if (typeof to === 'string') problems.push({ key: 'range.to', message: to });
  if (typeof from === 'string' || typeof to === 'string') return problems;
  if (from.kind !== to.kind) return [...problems, { key: 'range.to', message: `the range's ends must be the same kind of value (got a ${from.kind} and a ${to.kind}): e.g. from: 1m, to: 30m` }];
  if (!(to.n > from.n)) return [...problems, { key: 'range.to', message: `the range is empty: "to" (${spec.range.to}) must be larger than "from" (${spec.range.from})` }];
  if (path === LOAD_PARAMETER && (from.kind !== 'number' || from.n <= 0)) {
    return [...problems, { key: 'range.from', message: 'load multiplies every arrival rate: search numbers above 0, e.g. from: 0.5, to: 3' }];
  }
  let precision = (to.n - from.n) / 20;
  if (spec.precision !== undefined) {
    const p = readValue(spec.precision);
    if (typeof p === 'string') problems.push({ key: 'precision', message: p });
    else if (p.kind !== from.kind) problems.push({ key: 'precision', message: `the precision must be in the range's kind of value (a ${from.kind}; got a ${p.kind}), e.g. ${from.kind === 'duration' ? '30s' : from.kind === 'rate' ? '10/s' : '0.05'}` });
    else if (!(p.n > 0)) problems.push({ key: 'precision', message: `the precision must be above 0 (got ${spec.precision})` });
    else precision = p.n;
  }
  if (problems.length || path === undefined) return problems;
  return { parameter: spec.parameter, path, kind: from.kind, from: from.n, to: to.n, precision, level: spec.level, budget: spec.budget, ...(spec.direction ? { direction: spec.direction } : {}) };
}

/** How a value of this kind is said to people: "6m10s", "12.5/s", 0.75. */
export function valueText(kind: ValueKind, n: number): string {
  // An estimate between tried values is not known to the millisecond: whole seconds from 10 s up.
  if (kind === 'duration') return formatDuration(n >= 10 ? Math.round(n) : n);
  // Likewise a rate or a number: four significant digits (an estimate read "63.8333/s").
  return String(writeValue(kind, Number.isInteger(n) ? n : Number(n.toPrecision(4))));
}
