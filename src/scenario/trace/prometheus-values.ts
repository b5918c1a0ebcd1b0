/**
 * Why this module exists: JSON.parse of a day of per-second Prometheus data makes 86,400
 * [unixSeconds, "value"] arrays (each with a string and a boxed number) that all live until
 * the whole document is parsed, so they outlast the young generation and the heap grows by
 * tens of MiB on the main thread for a file of 2 MB (docs/benchmarks.md, "Replaying a day of
 * traffic"). Here the one series' `values` array is lifted out of the text before parsing:
 * the rest of the document (the envelope, the labels) is parsed by JSON.parse as before, and
 * the pairs are read one at a time from the text, each dying young.
 *
 * Only the plain shape is lifted: a document without a backslash anywhere (so a string ends
 * at the next quote and no key is spelled with escapes), exactly one key "values" where a
 * series' keys sit (depth 4: document, data, result, series), its array made only of
 * [number, "string"] pairs. Anything else returns undefined and the reader parses the whole
 * text as before, so every refusal is said in the same words; a lifted pair is handed over
 * as the same [number, string] JSON.parse would have made.
 */

/** A JSON number, as the grammar writes it (so Number() reads it as JSON.parse would). */
const NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
/** One pair: [number, "string without escapes or control characters"], then a comma or the end. */
const PAIR = new RegExp(`[ \\t\\n\\r]*\\[[ \\t\\n\\r]*(${NUMBER})[ \\t\\n\\r]*,[ \\t\\n\\r]*"([^"\\\\\\u0000-\\u001f]*)"[ \\t\\n\\r]*\\][ \\t\\n\\r]*(,|\\])`, 'y');
const SPACE = /[ \t\n\r]*/y;

export interface LiftedValues {
  /** The document with the values array written as [] (what JSON.parse reads instead). */
  skeleton: string;
  /** The pairs in order, each made as it is read. */
  pairs(): Generator<[number, string]>;
}

/** The series' values lifted out of a range query's text, or undefined when the text is not of the plain shape. */
export function liftValues(text: string): LiftedValues | undefined {
  if (text.includes('\\')) return undefined;
  const found = valuesArrayAt(text);
  if (found === undefined) return undefined;
  const { open, close, empty } = found;
  return {
    skeleton: `${text.slice(0, open)}[]${text.slice(close + 1)}`,
    *pairs() {
      if (empty) return;
      // Its own copy of the expression: a reader paused between pairs shares no lastIndex with another.
      const pair = new RegExp(PAIR);
      pair.lastIndex = open + 1;
      for (let m = pair.exec(text); m; m = m[3] === ',' ? pair.exec(text) : null) yield [Number(m[1]), m[2]];
    },
  };
}

/**
 * Where the only depth-4 key "values" has its array ([ at `open`, ] at `close`), when every
 * element is a plain pair and the brackets outside strings balance; undefined otherwise.
 */
function valuesArrayAt(text: string): { open: number; close: number; empty: boolean } | undefined {
  let depth = 0;
  let at: { open: number; close: number; empty: boolean } | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return undefined;
      if (depth === 4 && end - i === 7 && text.startsWith('values', i + 1)) {
        SPACE.lastIndex = end + 1;
        SPACE.exec(text);
        if (text.charCodeAt(SPACE.lastIndex) === 0x3a /* : */) {
          if (at !== undefined) return undefined; // a second "values" key (another series, or the same key twice)
          SPACE.lastIndex += 1;
          SPACE.exec(text);
          if (text.charCodeAt(SPACE.lastIndex) !== 0x5b /* [ */) return undefined;
          const open = SPACE.lastIndex;
          const end = endOfPairs(text, open);
          if (end === undefined) return undefined;
          at = { open, ...end };
          i = end.close; // the array is skipped: depth is as before it
          continue;
        }
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return depth === 0 ? at : undefined;
}

/** The index of the ] that closes a list of plain pairs opened at `open` (and whether it is empty), or undefined when an element is anything else. */
function endOfPairs(text: string, open: number): { close: number; empty: boolean } | undefined {
  SPACE.lastIndex = open + 1;
  SPACE.exec(text);
  if (text.charCodeAt(SPACE.lastIndex) === 0x5d) return { close: SPACE.lastIndex, empty: true };
  PAIR.lastIndex = open + 1;
  for (;;) {
    const m = PAIR.exec(text);
    if (!m) return undefined;
    if (m[3] === ']') return { close: PAIR.lastIndex - 1, empty: false };
  }
}
