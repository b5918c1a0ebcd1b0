/**
 * Observed latency from a CSV, read with csv-parse like a trace's CSV (a header row names the
 * columns; `#` starts a comment; fields may be quoted). The columns the scenario names say what
 * each row is:
 * - `le` and `count`: a histogram bucket, its upper bound and cumulative count, in increasing
 *   le (+Inf may end it);
 * - `sample`: one observed duration;
 * - `quantile` and `value`: the duration at a quantile (0 to 1), from 0 to 1 in increasing order.
 * All become the knots of a piecewise-linear inverse CDF. The first thing wrong is refused at
 * its line.
 */
import { parse } from 'csv-parse/sync';
import { closest } from '../problems.js';
import { formatCount } from '../limits.js';
import { NumberList, TRACE_MOST_VALUES } from './trace-steps.js';
import { knotsFromBuckets, parseLe, type Bucket } from './latency-buckets.js';
import type { Knots } from './latency-data.js';
import type { LatencyOptions } from './latency-options.js';
import type { TraceFailure } from './trace-options.js';
import { headerLineOf } from './csv-trace.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function readLatencyCsv(text: string, o: LatencyOptions): Knots | TraceFailure {
  const c = o.columns;
  const wanted = o.shape === 'buckets' ? [c.le!, c.count!] : o.shape === 'samples' ? [c.sample!] : [c.quantile!, c.value!];
  const scale = o.unit === 'ms' ? 1e-3 : 1;
  const unitWord = o.unit === 'ms' ? 'milliseconds' : 'seconds';
  let failure: TraceFailure | undefined;
  const fail = (line: number, message: string) => { failure ??= { line, path: '', message }; };
  const buckets: Array<Bucket & { line: number }> = [];
  const samples = new NumberList();
  const qs: number[] = [];
  const vs: number[] = [];
  let prevLine = 0;
  /** A duration cell in seconds, or undefined after refusing it. */
  const duration = (cell: string, col: string, line: number): number | undefined => {
    if (!NUMBER.test(cell)) return void fail(line, `the ${col} "${cell}" is not a number: write plain ${unitWord} (unit: ${o.unit} says the unit; unit: ms for milliseconds)`);
    const v = Number(cell);
    if (v < 0) return void fail(line, `the ${col} ${cell} is negative: a duration is 0 or more`);
    return v * scale;
  };
  try {
    parse(text, {
      comment: '#',
      bom: true,
      skip_empty_lines: true,
      trim: true,
      columns: (header: string[]) => {
        const headerLine = headerLineOf(text);
        for (const want of wanted) {
          if (header.includes(want)) continue;
          const guess = closest(want, header);
          const key = Object.entries(c).find(([, v]) => v === want)?.[0];
          fail(headerLine, `no column "${want}" in the header (${header.map((h) => `"${h}"`).join(', ')})${guess ? `: did you mean "${guess}"?` : ''}; the scenario names it in columns.${key}`);
        }
        return header;
      },
      on_record: (record: Record<string, string>, context: { lines: number }) => {
        if (failure) return null;
        const line = context.lines;
        if (o.shape === 'samples') {
          const v = duration(record[c.sample!] ?? '', 'sample', line);
          if (v === undefined) return null;
          if (samples.length >= TRACE_MOST_VALUES) return void fail(line, `more than ${formatCount(TRACE_MOST_VALUES)} samples: give a histogram (le and count) or quantiles instead`), null;
          samples.push(v);
        } else if (o.shape === 'buckets') {
          const leCell = record[c.le!] ?? '';
          const le = parseLe(leCell);
          if (Number.isNaN(le)) return void fail(line, `the bound "${leCell}" is not a number (nor +Inf): write plain ${unitWord}`), null;
          const cell = record[c.count!] ?? '';
          if (!NUMBER.test(cell)) return void fail(line, `the count "${cell}" is not a number`), null;
          const count = Number(cell);
          if (count < 0) return void fail(line, `the count ${cell} is negative: a bucket counts observations, 0 or more`), null;
          const prev = buckets[buckets.length - 1];
          const bound = le === Infinity ? Infinity : le * scale;
          if (prev && !(bound > prev.le)) return void fail(line, `the bound ${leCell} is not above the one before it (line ${prev.line}): the buckets must be in increasing le, each once (sort them by le)`), null;
          buckets.push({ le: bound, count, line, text: leCell });
        } else {
          const qCell = record[c.quantile!] ?? '';
          const q = NUMBER.test(qCell) ? Number(qCell) : NaN;
          if (!(q >= 0 && q <= 1)) return void fail(line, `the quantile "${qCell}" is not a number from 0 to 1 (0.99, not 99)`), null;
          const v = duration(record[c.value!] ?? '', 'value', line);
          if (v === undefined) return null;
          if (qs.length > 0 && !(q > qs[qs.length - 1])) return void fail(line, `the quantile ${qCell} is not above the one before it (line ${prevLine}, ${qs[qs.length - 1]}): the quantiles must increase down the file`), null;
          if (vs.length > 0 && v < vs[vs.length - 1]) return void fail(line, `the value at quantile ${qCell} is below the value at ${qs[qs.length - 1]} (line ${prevLine}): a higher quantile is never a shorter duration`), null;
          qs.push(q);
          vs.push(v);
          prevLine = line;
        }
        return null;
      },
    });
  } catch (e) {
    const err = e as { message: string; lines?: number };
    if (!failure) fail(typeof err.lines === 'number' ? err.lines : 1, `CSV: ${err.message.replace(/^Invalid Record Length: /, '')}`);
  }
  if (failure) return failure;
  if (o.shape === 'samples') {
    if (samples.length < 2) return { line: 1, path: '', message: `${samples.length === 0 ? 'no samples' : 'one sample'}: a distribution needs at least two` };
    // The inverse CDF through the sorted samples at probabilities i / (n - 1): each sample a
    // knot, straight lines between neighbours (R's and numpy's default quantiles).
    const values = samples.view().slice().sort();
    const n = values.length;
    const probs = new Float64Array(n);
    for (let i = 0; i < n; i++) probs[i] = i / (n - 1);
    return { probs, values, observations: n };
  }
  if (o.shape === 'buckets') {
    const knots = knotsFromBuckets(buckets, o.max);
    if ('message' in knots) return { line: knots.at >= 0 ? buckets[knots.at].line : headerLineOf(text), path: '', message: knots.message };
    return knots;
  }
  if (qs.length === 0) return { line: 1, path: '', message: 'no quantiles' };
  if (qs[0] !== 0 || qs[qs.length - 1] !== 1) {
    const missing = [qs[0] !== 0 ? 'quantile 0 (the shortest duration)' : '', qs[qs.length - 1] !== 1 ? 'quantile 1 (the longest)' : ''].filter(Boolean).join(' and ');
    return { line: qs[0] !== 0 ? headerLineOf(text) : prevLine, path: '', message: `the quantiles must run from 0 to 1, to bound the distribution: add ${missing}` };
  }
  return { probs: qs, values: vs, observations: 0 };
}
