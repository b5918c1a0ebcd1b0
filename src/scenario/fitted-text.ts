/**
 * The fitted scenario's text: the original file with each calibrated value replaced by the
 * fitted one, in place, every comment and every other line kept, and a comment beside each
 * changed value saying what it was and how sure the fit is. Written beside the original, so
 * the files it names (traces, observed series, configs) resolve alike, and a review's diff of
 * the two shows exactly the fitted lines.
 */
import { parseDocument, isCollection, isScalar } from 'yaml';
import { PARSE_OPTIONS } from './yaml-errors.js';
import type { PathSegment } from './raw-path.js';

export interface FittedValue {
  path: PathSegment[];
  written: string | number;
  /** Said beside the value, e.g. "fitted (95%: 7 to 9), was 12". */
  note: string;
}

/** A fitted duration in the unit the original was written in ("160ms" stays in ms). */
function inUnitOf(original: unknown, written: string | number): string | number {
  if (typeof original !== 'string' || typeof written !== 'string' || !/^\s*[\d.]+\s*ms\s*$/.test(original)) return written;
  const seconds = /^([\d.]+)s$/.exec(written);
  return seconds ? `${Number((Number(seconds[1]) * 1000).toPrecision(6))}ms` : written;
}

const withOld = (note: string, old: string | null | undefined) => ` ${note}${old ? `;${old}` : ''}`;

/**
 * `name` becomes NAME-fitted, so the fitted world's results go to their own folder
 * (reports/NAME-fitted) rather than over the original's.
 */
export function fittedText(source: string, values: readonly FittedValue[], header: string): string {
  const doc = parseDocument(source, PARSE_OPTIONS);
  const name = doc.get('name', true);
  if (isScalar(name) && typeof name.value === 'string' && !name.value.endsWith('-fitted')) name.value = `${name.value}-fitted`;
  for (const v of values) {
    const node = doc.getIn(v.path, true);
    if (!isScalar(node)) {
      doc.setIn(v.path, v.written);
      continue;
    }
    node.value = inUnitOf(node.value, v.written);
    // A value inside a one-line mapping ({ kind: constant, rate: 10/s }) keeps the line whole:
    // the note goes after the mapping (the value's own comment stays, after the note).
    const parent = doc.getIn(v.path.slice(0, -1), true);
    if (isCollection(parent) && parent.flow) parent.comment = withOld(`${String(v.path[v.path.length - 1])}: ${v.note}`, parent.comment);
    else node.comment = withOld(v.note, node.comment);
  }
  doc.commentBefore = [header, doc.commentBefore].filter(Boolean).join('\n');
  return doc.toString({ lineWidth: 0 });
}
