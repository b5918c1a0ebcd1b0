/**
 * The envelope of a Prometheus HTTP API response, as both Prometheus readers meet it (a range
 * query replayed as traffic, prometheus-trace.ts; a histogram's buckets read as a latency
 * distribution, latency-prometheus.ts): JSON with a line for a syntax error, `status`
 * success or error, `data.resultType` one the reader takes, a non-empty `data.result`. One
 * reader of the envelope, so both refuse an error response or an empty result in the same words.
 */
import type { TraceFailure } from './trace-options.js';

export const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A series' labels as PromQL writes them, `le` left out when asked: {route="/login", code="200"}. */
export function labelSet(metric: unknown, withoutLe = false): string {
  if (!isObject(metric)) return '{}';
  const name = typeof metric.__name__ === 'string' ? metric.__name__ : '';
  const rest = Object.entries(metric).filter(([k]) => k !== '__name__' && (!withoutLe || k !== 'le')).map(([k, v]) => `${k}="${String(v)}"`);
  return `${name}{${rest.join(', ')}}`;
}

/** The line of a character offset, for a JSON syntax error. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export const fail = (path: string, message: string, line = 0): TraceFailure => ({ line, path, message });

/** The skeleton parsed, or when it is not JSON the whole text, so that the error is the whole text's. */
function parseOr(skeleton: string, text: string): unknown {
  try {
    return JSON.parse(skeleton);
  } catch {
    return JSON.parse(text);
  }
}

/** What a reader takes: its result types, how the expected body is shown, and what to say of another result type. */
export interface Expected {
  resultTypes: readonly string[];
  /** The expected body, as the refusal of a non-API document shows it. */
  shape: string;
  /** The refusal of a result of another type (`got` as the response names it, or undefined). */
  wrongType: (got: string | undefined) => string;
}

/**
 * The series of a successful response, with its result type, or the first thing wrong with the
 * envelope. `skeleton` is the text with its values lifted out (prometheus-values.ts), parsed
 * instead when given; a syntax error is still found and placed in the whole text.
 */
export function readResponse(text: string, expected: Expected, skeleton?: string): { resultType: string; result: unknown[] } | TraceFailure {
  let doc: unknown;
  try {
    doc = skeleton !== undefined ? parseOr(skeleton, text) : JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    return fail('', `not JSON: ${(e as Error).message.split('\n')[0]}`, m ? lineAt(text, Number(m[1])) : 1);
  }
  if (!isObject(doc) || (doc.status !== 'success' && doc.status !== 'error')) {
    return fail('', `not a Prometheus API response: expected ${expected.shape}`);
  }
  if (doc.status === 'error') {
    return fail('status', `Prometheus answered with an error${typeof doc.errorType === 'string' ? ` (${doc.errorType})` : ''}${typeof doc.error === 'string' ? `: "${doc.error}"` : ''}; export the response of a query that succeeded`);
  }
  const data = doc.data;
  if (!isObject(data)) return fail('data', 'missing: a successful response holds its result in data');
  if (typeof data.resultType !== 'string' || !expected.resultTypes.includes(data.resultType)) {
    return fail('data.resultType', expected.wrongType(typeof data.resultType === 'string' ? data.resultType : undefined));
  }
  if (!Array.isArray(data.result)) return fail('data.result', 'expected a list of series');
  if (data.result.length === 0) return fail('data.result', 'the query returned no series (the result is empty): check the query and its time range in Prometheus before exporting');
  return { resultType: data.resultType, result: data.result };
}
