/**
 * summary.json: the Results value, written as it is and read back strictly. It holds no
 * wall-clock time, date or host name, so the same scenario and seed give the same bytes. The
 * fields are documented in docs/measures.md.
 */
import type { z } from 'zod';
import { SUMMARY_FORMAT, resultsSchema, type Results } from './results.js';
import { ResultsError } from './results-error.js';

/** Its error is defined in a module that imports nothing (for the command line) and re-exported here, beside what throws it. */
export { ResultsError };

export function summaryJson(r: Results): string {
  return JSON.stringify(r, null, 2) + '\n';
}

function where(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(the top level)';
}

/** Parses summary.json, refusing anything but this retrystorm's format, with the field that is wrong. */
export function parseSummary(text: string, file: string): Results {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ResultsError(`${file} is not valid JSON (${(e as Error).message})`);
  }
  const format = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).format : undefined;
  if (format !== SUMMARY_FORMAT) {
    const found = typeof format === 'string' ? `format ${format}` : 'no format field (written by retrystorm before 0.2, or not by retrystorm)';
    throw new ResultsError(`${file} has ${found}; this retrystorm reads ${SUMMARY_FORMAT}: run the scenario again to write it`);
  }
  const parsed = resultsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue: z.core.$ZodIssue = parsed.error.issues[0];
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
    throw new ResultsError(`${file}: ${where(issue.path)}: ${issue.message}${more}; it is not a summary.json that retrystorm wrote`);
  }
  return parsed.data;
}
