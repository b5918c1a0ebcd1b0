/**
 * A parsed YAML document's errors, for scenarios and deployed config files alike: the
 * parser's own, and duplicate keys found in one pass. The yaml package can refuse duplicates
 * itself (`uniqueKeys: true`), but it compares every new key with every earlier key of its
 * mapping: a 1 MiB file with one 90,000-key mapping took minutes to refuse. Here each
 * mapping keeps a set of the scalar keys it has seen, so the check is linear in the keys.
 */
import { isMap, isScalar, visit, type Document, type LineCounter } from 'yaml';

/** Parse with `uniqueKeys: false` and read errors here: duplicates are among them. */
export const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: false, logLevel: 'error' } as const;

export interface DocumentError {
  message: string;
  /** Offset into the source. */
  pos: number;
  /** Line and column when the parser gave them. */
  linePos?: { line: number; col: number };
  /** A repeated key (each is a mistake of its own), not a syntax error. */
  duplicate?: boolean;
}

/**
 * The parser's errors and the duplicate keys, in the order of their positions; `lines` (the
 * parse's LineCounter) places a repeated key's first occurrence. Two of the parser's messages
 * are reworded: they speak of its API, not of the file.
 */
export function documentErrors(doc: Document, lines: LineCounter): DocumentError[] {
  return [
    ...doc.errors.map((e) => ({ message: inFileTerms(e.message), pos: e.pos[0], linePos: e.linePos?.[0] })),
    ...duplicateKeys(doc).map((d) => ({
      message: `duplicate key ${JSON.stringify(d.key)} (first given at ${place(lines.linePos(d.firstOffset))}): a mapping holds each key once, so keep one`,
      pos: d.offset,
      duplicate: true,
    })),
  ].sort((a, b) => a.pos - b.pos);
}

/** line:col, as every problem is placed. */
const place = (p: { line: number; col: number }) => `${p.line}:${p.col}`;

/** The parser's message, said of the file rather than of the yaml package's API (for a scenario and a deployed config alike). */
function inFileTerms(message: string): string {
  if (/^Source contains multiple documents/.test(message)) {
    return 'this "---" starts a second YAML document, and the file is read as one: give each document a file of its own (or remove the "---")';
  }
  return message;
}

/** The most syntax errors reported for one file: past the first, the parser has lost its place and mostly sees the same mistake again. */
export const MAX_SYNTAX_ERRORS = 3;

/** An error placed where it will be reported. */
export interface PlacedError {
  line: number;
  /** The top-level entry it is in (the line of its key): after an error, the parser's view of the rest of that entry is unreliable. */
  entry: number;
  message: string;
  /** Where the parser found it, as an offset into the source. */
  offset: number;
  /** The text an unclosed { or [ took in (from the bracket to where the parser noticed): errors inside it are its follow-ons. */
  covers?: [number, number];
  duplicate?: boolean;
}

/**
 * The errors worth reading, from errors already placed and sorted by position: the first syntax
 * error, then only those that are not follow-ons of one kept (in the same top-level entry as
 * one, inside the text an unclosed bracket took in, or an "unexpected token" of the stream the
 * parser lost after it), at most MAX_SYNTAX_ERRORS in all; every duplicate key is kept. `left`
 * counts the syntax errors left out.
 */
export function errorsToReport<T extends PlacedError>(errors: T[]): { kept: T[]; left: number } {
  const kept: T[] = [];
  const entries = new Set<number>();
  const covered: Array<[number, number]> = [];
  let syntax = 0;
  let left = 0;
  for (const e of errors) {
    if (e.duplicate) {
      kept.push(e);
      continue;
    }
    const followOn = syntax > 0 && (entries.has(e.entry) || covered.some(([a, b]) => e.offset >= a && e.offset <= b) || / token in YAML stream/.test(e.message));
    if (followOn || syntax >= MAX_SYNTAX_ERRORS) {
      left++;
      continue;
    }
    kept.push(e);
    entries.add(e.entry);
    if (e.covers) covered.push(e.covers);
    syntax++;
  }
  return { kept, left };
}

/** For each line (1-based), the line of the top-level entry it belongs to: the last line at or above it that starts a key in column 1. */
export function topLevelEntries(lines: readonly string[]): number[] {
  const out = [0];
  let entry = 1;
  lines.forEach((text, i) => {
    if (/^[^\s#\-\]}]/.test(text)) entry = i + 1;
    out.push(entry);
  });
  return out;
}

/**
 * A parameter path with brackets written unquoted inside a flow collection on this line
 * (`{ parameter: faults[0].duration }`): there its [ starts a list, and the parser's errors say
 * nothing of the path. The path and its column (1-based), or undefined.
 */
export function unquotedBracketPath(line: string): { path: string; col: number } | undefined {
  // Quoted text and comments are not paths: blank them, keeping the columns.
  const plain = line
    .replace(/"(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?/g, (q) => ' '.repeat(q.length))
    .replace(/(^|\s)#.*$/, (c) => ' '.repeat(c.length));
  const m = /(?<![\w.\]-])[A-Za-z_][\w-]*(?:\.[\w-]+)*\[\d+\](?:\[\d+\]|\.[\w-]+)*/.exec(plain);
  if (!m || !/[{[]/.test(plain.slice(0, m.index))) return undefined;
  return { path: m[0], col: m.index + 1 };
}

export interface DuplicateKey {
  /** The key as written. */
  key: string;
  /** Where the repeated key starts, and where its first occurrence does, as offsets into the source. */
  offset: number;
  firstOffset: number;
}

/** Every key that repeats an earlier key of the same mapping, in document order. */
export function duplicateKeys(doc: Document): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map) || map.items.length < 2) return;
      // Keyed by type as well as value, as yaml compares them (=== on the scalar's value):
      // `1:` and `"1":` are two keys.
      const seen = new Map<string, number>();
      for (const pair of map.items) {
        const k = pair.key;
        if (!isScalar(k) || !k.range) continue;
        const id = `${typeof k.value}:${String(k.value)}`;
        const first = seen.get(id);
        if (first !== undefined) found.push({ key: String(k.value), offset: k.range[0], firstOffset: first });
        else seen.set(id, k.range[0]);
      }
    },
  });
  return found;
}

/** An alias the document cannot resolve, placed at the alias. */
export interface AliasProblem {
  line: number;
  col: number;
  message: string;
}

/**
 * Aliases that cannot stand for a value: one whose anchor is not set before it (the parser
 * lets it through and `toJS` refuses it without a place, or reads it as nothing), and one
 * inside its own anchor (&a { b: *a }), which would make an endless structure.
 */
export function aliasProblems(doc: Document, lines: LineCounter): AliasProblem[] {
  const out: AliasProblem[] = [];
  visit(doc, {
    Alias(_key, node, path) {
      if (!node.range) return;
      const target = node.resolve(doc);
      const at = lines.linePos(node.range[0]);
      if (target === undefined) {
        out.push({ ...at, message: `the alias *${node.source} has no anchor &${node.source} before it: set the anchor on a value earlier in the file, or write the value here` });
      } else if (path.includes(target as never)) {
        out.push({ ...at, message: `the alias *${node.source} is inside its own anchor &${node.source}, so the value would contain itself forever; copy the values instead` });
      }
    },
  });
  return out;
}
