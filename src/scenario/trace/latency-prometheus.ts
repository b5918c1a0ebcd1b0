/**
 * A latency histogram from the JSON of Prometheus' HTTP API: the `<name>_bucket` series, one
 * per bucket bound (label `le`), of
 * - an instant query (/api/v1/query, resultType vector), each value the bucket's count as the
 *   query computed it: `sum by (le) (increase(http_request_duration_seconds_bucket[1h]))`;
 * - a range query (/api/v1/query_range, resultType matrix) of the raw counters
 *   (`http_request_duration_seconds_bucket`): each bucket's count is its last value minus its
 *   first, the observations made between the two. A counter that goes down (a restart) is
 *   refused: the increase() of an instant query handles resets.
 * Series with the same labels but `le` are one histogram; `select` picks one when there are
 * several. Prometheus orders series by their labels as strings ("10" before "2.5"), so the
 * buckets are sorted by their bound here. A problem names its JSON entry's path.
 */
import { knotsFromBuckets, parseLe, type Bucket } from './latency-buckets.js';
import type { Knots } from './latency-data.js';
import type { LatencyOptions } from './latency-options.js';
import type { TraceFailure } from './trace-options.js';
import { fail, isObject, labelSet, readResponse } from './prometheus-response.js';

export function readPrometheusHistogram(text: string, o: LatencyOptions): Knots | TraceFailure {
  const response = readResponse(text, {
    resultTypes: ['vector', 'matrix'],
    shape: '{ "status": "success", "data": { "resultType": "vector" or "matrix", … } } (the body of /api/v1/query or /api/v1/query_range)',
    wrongType: (got) => `the result is ${got !== undefined ? `a ${got}` : 'neither a vector nor a matrix'}: export the buckets of a histogram (an instant query such as sum by (le) (increase(x_bucket[1h])), or a range query of x_bucket)`,
  });
  if ('message' in response) return response;
  const data = response;
  for (let i = 0; i < data.result.length; i++) {
    const s: unknown = data.result[i];
    if (!isObject(s) || !isObject(s.metric)) return fail(`data.result[${i}]`, 'expected a series: { "metric": { labels }, … }');
    if (typeof s.metric.le !== 'string') {
      return fail(`data.result[${i}].metric`, `the series ${labelSet(s.metric)} has no le label: a histogram's buckets are its <name>_bucket series, one per le (query http_request_duration_seconds_bucket, or keep le in sum by (le))`);
    }
  }
  const series = data.result as Array<Record<string, unknown> & { metric: Record<string, unknown> }>;
  const select = o.select ?? {};
  const chosen = series.map((s, i) => ({ s, i })).filter(({ s }) => Object.entries(select).every(([k, v]) => s.metric[k] === v));
  const groups = [...new Set(chosen.map(({ s }) => labelSet(s.metric, true)))];
  const listed = (xs: string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? ` and ${xs.length - 5} more` : '');
  if (chosen.length === 0) return fail('data.result', `no series has the labels select names (${labelSet(select, true)}); the histograms are ${listed([...new Set(series.map((s) => labelSet(s.metric, true)))])}`);
  if (groups.length > 1) {
    return fail('data.result', `${groups.length} histograms${o.select ? ' have the labels select names' : ''}: ${listed(groups)}; choose one with select (e.g. select: { route: "/login" }), or sum them in the query (sum by (le) (…))`);
  }
  const scale = o.unit === 'ms' ? 1e-3 : 1;
  const buckets: Array<Bucket & { i: number }> = [];
  let span: { from: number; to: number; at: number } | undefined;
  for (const { s, i } of chosen) {
    const at = `data.result[${i}]`;
    const le = parseLe(s.metric.le as string);
    if (Number.isNaN(le)) return fail(`${at}.metric.le`, `the bound le="${String(s.metric.le)}" is not a number (nor +Inf)`);
    const value = (pair: unknown, path: string): number | TraceFailure => {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'string') {
        return fail(path, `expected [unixSeconds, "value"] (a number and a string), got ${JSON.stringify(pair)?.slice(0, 60)}`);
      }
      const v = pair[1].trim() === '' ? NaN : Number(pair[1]);
      if (!Number.isFinite(v)) return fail(path, `the count "${pair[1]}" is not a finite number`);
      if (v < 0) return fail(path, `the count ${pair[1]} is negative: a bucket counts observations, 0 or more`);
      return v;
    };
    let count: number;
    if (data.resultType === 'vector') {
      const v = value(s.value, `${at}.value`);
      if (typeof v !== 'number') return v;
      count = v;
    } else {
      if (!Array.isArray(s.values) || s.values.length < 2) {
        return fail(`${at}.values`, 'a range query\'s bucket needs at least two values: its count is the last minus the first (or export an instant query of increase(…[range]))');
      }
      let prev = -Infinity;
      for (let j = 0; j < s.values.length; j++) {
        const v = value(s.values[j], `${at}.values[${j}]`);
        if (typeof v !== 'number') return v;
        if (v < prev) return fail(`${at}.values[${j}]`, `the counter goes down (${prev} to ${v}): a restart reset it, and last minus first would be wrong; export an instant query of increase(…[range]) instead, which handles resets`);
        prev = v;
      }
      const first = s.values[0] as [number, string];
      const last = s.values[s.values.length - 1] as [number, string];
      span ??= { from: first[0], to: last[0], at: i };
      if (first[0] !== span.from || last[0] !== span.to) {
        return fail(`${at}.values`, `this bucket's values run from ${first[0]} to ${last[0]}, the bucket's of data.result[${span.at}] from ${span.from} to ${span.to}: every bucket must cover the same range`);
      }
      count = Number(last[1]) - Number(first[1]);
    }
    buckets.push({ le: le * scale, count, i, text: s.metric.le as string });
  }
  buckets.sort((a, b) => a.le - b.le);
  for (let k = 1; k < buckets.length; k++) {
    if (buckets[k].le === buckets[k - 1].le) return fail(`data.result[${buckets[k].i}].metric.le`, `two series have the bound le="${String(series[buckets[k].i].metric.le)}" (data.result[${buckets[k - 1].i}] too): each bucket once`);
  }
  const knots = knotsFromBuckets(buckets, o.max);
  if ('message' in knots) {
    const b = knots.at >= 0 ? buckets[knots.at] : undefined;
    const path = b ? `data.result[${b.i}]${data.resultType === 'vector' ? '.value' : '.values'}` : 'data.result';
    return fail(path, knots.message);
  }
  return knots;
}
