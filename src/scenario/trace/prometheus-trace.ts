/**
 * The JSON that Prometheus' HTTP API returns for a range query (/api/v1/query_range):
 * { status: "success", data: { resultType: "matrix", result: [{ metric: {labels}, values:
 * [[unixSeconds, "value"], …] }] } }. Each value is a rate per second or the increase over the
 * step that ends at its time (the scenario says which: a range vector looks back). One series
 * is replayed: the only one, or the one `select` names. JSON has no lines here (JSON.parse
 * gives none): a problem names its entry's path instead.
 */
import { NumberList, toSteps } from './trace-steps.js';
import type { TraceFailure, TraceOptions, TraceParsed } from './trace-options.js';
import { fail, isObject, labelSet, readResponse } from './prometheus-response.js';
import { liftValues } from './prometheus-values.js';

export function readPrometheusTrace(text: string, o: TraceOptions): TraceParsed | TraceFailure {
  // A day of per-second values is not made into 86,400 objects at once: prometheus-values.ts.
  const lifted = liftValues(text);
  const response = readResponse(text, {
    resultTypes: ['matrix'],
    shape: '{ "status": "success", "data": { "resultType": "matrix", … } } (the body of /api/v1/query_range)',
    wrongType: (got) => `the result is ${got !== undefined ? `a ${got}` : 'not a matrix'}: export a range query (/api/v1/query_range with start, end and step), whose result is a matrix of values over time`,
  }, lifted?.skeleton);
  if ('message' in response) return response;
  const data = { result: response.result };
  const select = o.select ?? {};
  const chosen = data.result
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => isObject(s) && Object.entries(select).every(([k, v]) => isObject(s.metric) && s.metric[k] === v));
  const listed = (xs: unknown[]) => xs.slice(0, 5).map((s) => labelSet(isObject(s) ? s.metric : undefined)).join(', ') + (xs.length > 5 ? ` and ${xs.length - 5} more` : '');
  if (chosen.length === 0) {
    return fail('data.result', `no series has the labels select names (${labelSet(select)}); the series are ${listed(data.result)}`);
  }
  if (chosen.length > 1) {
    return fail('data.result', `${chosen.length} series${o.select ? ' have the labels select names' : ''}: ${listed(chosen.map((c) => c.s))}; choose one with select (e.g. select: { route: "/login" }), or sum them in the query (sum(rate(…)))`);
  }
  const { s, i: index } = chosen[0] as { s: Record<string, unknown>; i: number };
  const at = `data.result[${index}]`;
  if (!Array.isArray(s.values)) return fail(`${at}.values`, 'expected the series\' values: a list of [unixSeconds, "value"] pairs');
  const times = new NumberList();
  const values = new NumberList();
  // When lifted, the only series' values are in the text, not in s.values (written as []).
  const pairs: Iterable<unknown> = lifted ? lifted.pairs() : s.values;
  // The entry's path is written only for a refusal: a string per value would be most of what reading allocates.
  const path = (j: number) => `${at}.values[${j}]`;
  let j = -1;
  for (const pair of pairs) {
    j++;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'string') {
      return fail(path(j), `expected [unixSeconds, "value"] (a number and a string), got ${JSON.stringify(pair)?.slice(0, 60)}`);
    }
    const v = Number(pair[1]);
    const blank = o.blanks === true && pair[1] === 'NaN'; // an observed ratio of 0/0: no value in that step
    if (!blank && (!Number.isFinite(v) || pair[1].trim() === '')) return fail(path(j), `the value "${pair[1]}" is not a finite number (a counter reset or a division by 0 in the query?)`);
    if (v < 0) return fail(path(j), `the value ${pair[1]} is negative: a ${o.values} of requests is 0 or more (a counter reset read without rate() or increase()?)`);
    times.push(pair[0]);
    values.push(v);
  }
  if (times.length === 0) return fail(`${at}.values`, 'the series has no values: check the query\'s time range');
  const steps = toSteps({
    times, values, per: o.values === 'rate' ? 'second' : 'step', step: o.step, gaps: o.gaps,
    where: (j) => ({ line: 0, path: path(j) }),
    timeText: (j) => `the value at ${new Date(times.at(j) * 1000).toISOString().replace('.000Z', 'Z')}`,
  });
  if (!steps.ok) return fail(steps.path, steps.message);
  // A value stands for the step that ends at its time: the trace starts one step before the first.
  return { shape: 'rates', numbers: steps.rates, step: steps.step, length: steps.rates.length * steps.step, origin: times.at(0) - steps.step };
}
