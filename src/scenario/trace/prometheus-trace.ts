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

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A series' labels as PromQL writes them: {route="/login", code="200"}. */
function labelSet(metric: unknown): string {
  if (!isObject(metric)) return '{}';
  const name = typeof metric.__name__ === 'string' ? metric.__name__ : '';
  const rest = Object.entries(metric).filter(([k]) => k !== '__name__').map(([k, v]) => `${k}="${String(v)}"`);
  return `${name}{${rest.join(', ')}}`;
}

/** Line and column of a character offset, for a JSON syntax error. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export function readPrometheusTrace(text: string, o: TraceOptions): TraceParsed | TraceFailure {
  const fail = (path: string, message: string, line = 0): TraceFailure => ({ line, path, message });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    return fail('', `not JSON: ${(e as Error).message.split('\n')[0]}`, m ? lineAt(text, Number(m[1])) : 1);
  }
  if (!isObject(doc) || (doc.status !== 'success' && doc.status !== 'error')) {
    return fail('', 'not a Prometheus API response: expected { "status": "success", "data": { "resultType": "matrix", … } } (the body of /api/v1/query_range)');
  }
  if (doc.status === 'error') {
    return fail('status', `Prometheus answered with an error${typeof doc.errorType === 'string' ? ` (${doc.errorType})` : ''}${typeof doc.error === 'string' ? `: "${doc.error}"` : ''}; export the response of a query that succeeded`);
  }
  const data = doc.data;
  if (!isObject(data)) return fail('data', 'missing: a successful response holds its result in data');
  if (data.resultType !== 'matrix') {
    return fail('data.resultType', `the result is ${typeof data.resultType === 'string' ? `a ${data.resultType}` : 'not a matrix'}: export a range query (/api/v1/query_range with start, end and step), whose result is a matrix of values over time`);
  }
  if (!Array.isArray(data.result)) return fail('data.result', 'expected a list of series');
  if (data.result.length === 0) return fail('data.result', 'the query returned no series (the result is empty): check the query and its time range in Prometheus before exporting');
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
  for (let j = 0; j < s.values.length; j++) {
    const pair: unknown = s.values[j];
    const path = `${at}.values[${j}]`;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || typeof pair[1] !== 'string') {
      return fail(path, `expected [unixSeconds, "value"] (a number and a string), got ${JSON.stringify(pair)?.slice(0, 60)}`);
    }
    const v = Number(pair[1]);
    const blank = o.blanks === true && pair[1] === 'NaN'; // an observed ratio of 0/0: no value in that step
    if (!blank && (!Number.isFinite(v) || pair[1].trim() === '')) return fail(path, `the value "${pair[1]}" is not a finite number (a counter reset or a division by 0 in the query?)`);
    if (v < 0) return fail(path, `the value ${pair[1]} is negative: a ${o.values} of requests is 0 or more (a counter reset read without rate() or increase()?)`);
    times.push(pair[0]);
    values.push(v);
  }
  if (times.length === 0) return fail(`${at}.values`, 'the series has no values: check the query\'s time range');
  const steps = toSteps({
    times, values, per: o.values === 'rate' ? 'second' : 'step', step: o.step, gaps: o.gaps,
    where: (j) => ({ line: 0, path: `${at}.values[${j}]` }),
    timeText: (j) => `the value at ${new Date(times.at(j) * 1000).toISOString().replace('.000Z', 'Z')}`,
  });
  if (!steps.ok) return fail(steps.path, steps.message);
  // A value stands for the step that ends at its time: the trace starts one step before the first.
  return { shape: 'rates', numbers: steps.rates, step: steps.step, length: steps.rates.length * steps.step, origin: times.at(0) - steps.step };
}
