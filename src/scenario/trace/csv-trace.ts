/**
 * A CSV of recorded traffic, read with csv-parse (its sync API, one record at a time, none
 * kept): a header row names the columns and the scenario says which hold the time and the
 * count or rate. Without a count or rate column each row is one request at its time. Times
 * are seconds or milliseconds (timeUnit), since 1970 or any origin, or RFC 3339 timestamps
 * with a zone. The first thing wrong is refused at its line.
 */
import { parse } from 'csv-parse/sync';
import { closest } from '../problems.js';
import { formatCount } from '../limits.js';
import { NumberList, TRACE_MOST_VALUES, seconds, toSteps } from './trace-steps.js';
import type { TraceFailure, TraceOptions, TraceParsed } from './trace-options.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** Numeric seconds past this (the year 5138) are milliseconds written as seconds. */
const SECONDS_AT_MOST = 1e11;

/** A time cell in seconds, or why it is not one. */
export function readTime(cell: string, unit: 's' | 'ms'): number | string {
  if (NUMBER.test(cell)) {
    const v = Number(cell) * (unit === 'ms' ? 1e-3 : 1);
    if (unit === 's' && Math.abs(v) > SECONDS_AT_MOST) return `the time ${cell} is not in seconds: it would be after the year 5000 (milliseconds since 1970?); write timeUnit: ms`;
    return v;
  }
  const m = RFC3339.exec(cell);
  if (m) {
    const ms = Date.parse(`${m[1]}T${m[2]}${m[4].toUpperCase()}`);
    if (Number.isFinite(ms)) return ms / 1000 + (m[3] ? Number(`0${m[3]}`) : 0);
  }
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(cell)) return `the time "${cell}" has no zone (or is not a valid date): write it as RFC 3339 with Z or an offset, e.g. 2026-12-07T10:00:00Z`;
  return `the time "${cell}" is neither a number of ${unit === 'ms' ? 'milliseconds' : 'seconds'} nor an RFC 3339 timestamp (2026-12-07T10:00:00Z)`;
}

export function readCsvTrace(text: string, o: TraceOptions): TraceParsed | TraceFailure {
  const timeCol = o.time ?? 'time';
  const valueCol = o.count ?? o.rate;
  let failure: TraceFailure | undefined;
  const fail = (line: number, message: string) => { failure ??= { line, path: '', message }; };
  const times = new NumberList();
  const values = new NumberList();
  /** Count or rate data: each row's line (one number per step, for the step checks' messages). */
  const lines = new NumberList();
  /** The time cell of each row as written, for messages, only while it is needed (the last two). */
  const written: string[] = [];
  try {
    parse(text, {
      comment: '#',
      bom: true, // a spreadsheet's UTF-8 export starts with one, which would rename the first column
      skip_empty_lines: true,
      trim: true,
      columns: (header: string[]) => {
        const headerLine = headerLineOf(text);
        for (const want of [timeCol, ...(valueCol !== undefined ? [valueCol] : [])]) {
          if (header.includes(want)) continue;
          const guess = closest(want, header);
          fail(headerLine, `no column "${want}" in the header (${header.map((h) => `"${h}"`).join(', ')})${guess ? `: did you mean "${guess}"?` : ''}; the scenario names it in columns.${want === timeCol ? 'time' : o.count !== undefined ? 'count' : 'rate'}`);
        }
        return header;
      },
      on_record: (record: Record<string, string>, context: { lines: number }) => {
        if (failure) return null;
        const line = context.lines;
        const t = readTime(record[timeCol] ?? '', o.timeUnit);
        if (typeof t === 'string') return void fail(line, t), null;
        if (valueCol === undefined) {
          const prev = times.length > 0 ? times.at(times.length - 1) : -Infinity;
          if (t < prev) return void fail(line, `the request at ${record[timeCol]} comes before the one above it (${written[0]}): request times must be in time order (sort the file by time)`), null;
          if (times.length >= TRACE_MOST_VALUES) return void fail(line, `more than ${formatCount(TRACE_MOST_VALUES)} requests: give counts per step instead (a count column, e.g. requests per second), or take a shorter range`), null;
        } else {
          const cell = record[valueCol] ?? '';
          // An observed series may have no value in an interval (a ratio with nothing ended): kept as NaN.
          const v = NUMBER.test(cell) ? Number(cell) : o.blanks && (cell === '' || cell === 'NaN') ? NaN : Infinity;
          const what = o.count !== undefined ? 'count' : 'rate';
          if (v === Infinity) return void fail(line, `the ${what} "${cell}" is not a number: write ${what === 'rate' ? 'requests per second' : 'the requests in the step'} as a plain number`), null;
          if (v < 0) return void fail(line, `the ${what} ${cell} is negative: a ${what} of requests is 0 or more`), null;
          values.push(v);
          lines.push(line);
        }
        written[0] = record[timeCol];
        times.push(t);
        return null;
      },
    });
  } catch (e) {
    const err = e as { code?: string; message: string; lines?: number };
    if (!failure) fail(typeof err.lines === 'number' ? err.lines : 1, `CSV: ${err.message.replace(/^Invalid Record Length: /, '')}`);
  }
  if (failure) return failure;
  if (valueCol === undefined) {
    if (times.length < 2) return { line: 1, path: '', message: `${times.length === 0 ? 'no requests' : 'one request'}: a trace of request times needs at least two (the gap between them sets how long it lasts)` };
    const origin = times.at(0);
    const rel = times.view().map((t) => t - origin);
    const last = rel[rel.length - 1];
    return { shape: 'times', numbers: rel, step: 0, length: last + last / (rel.length - 1) };
  }
  if (times.length === 0) return { line: 1, path: '', message: 'no rows: the trace is empty' };
  const steps = toSteps({
    times, values, per: o.count !== undefined ? 'step' : 'second', step: o.step, gaps: o.gaps,
    where: (i) => ({ line: lines.at(i), path: '' }),
    timeText: (i) => `the row at ${timeText(times.at(i))}`,
  });
  if (!steps.ok) return { line: steps.line, path: '', message: steps.message };
  return { shape: 'rates', numbers: steps.rates, step: steps.step, length: steps.rates.length * steps.step, origin: times.at(0) };
}

/** A time as the file may have written it: an RFC 3339 instant when it is one since 1970, else seconds. */
function timeText(t: number): string {
  return t > 1e8 && t < 1e11 ? new Date(t * 1000).toISOString().replace('.000Z', 'Z') : seconds(t);
}

/** The header's line: the first that is neither empty nor a comment (csv-parse does not say it). */
export function headerLineOf(text: string): number {
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    const end = text.indexOf('\n', at);
    const row = text.slice(at, end < 0 ? text.length : end).trim();
    if (row !== '' && !row.startsWith('#')) return line;
    if (end < 0) break;
    at = end + 1;
  }
  return 1;
}
