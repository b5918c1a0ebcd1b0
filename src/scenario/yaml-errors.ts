/**
 * A parsed YAML document's errors, for scenarios and deployed config files alike: the
 * parser's own, and duplicate keys found in one pass. The yaml package can refuse duplicates
 * itself (`uniqueKeys: true`), but it compares every new key with every earlier key of its
 * mapping: a 1 MiB file with one 90,000-key mapping took minutes to refuse. Here each
 * mapping keeps a set of the scalar keys it has seen, so the check is linear in the keys.
 */
import { isMap, isScalar, visit, type Document } from 'yaml';

/** Parse with `uniqueKeys: false` and read errors here: duplicates are among them. */
export const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: false, logLevel: 'error' } as const;

export interface DocumentError {
  message: string;
  /** Offset into the source. */
  pos: number;
  /** Line and column when the parser gave them. */
  linePos?: { line: number; col: number };
}

/** The parser's errors and the duplicate keys, in the order of their positions. */
export function documentErrors(doc: Document): DocumentError[] {
  return [
    ...doc.errors.map((e) => ({ message: e.message, pos: e.pos[0], linePos: e.linePos?.[0] })),
    ...duplicateKeys(doc).map((d) => ({ message: d.message, pos: d.offset })),
  ].sort((a, b) => a.pos - b.pos);
}

export interface DuplicateKey {
  /** Where the repeated key starts, as an offset into the source. */
  offset: number;
  message: string;
}

/** Every key that repeats an earlier key of the same mapping, in document order. */
export function duplicateKeys(doc: Document): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map) || map.items.length < 2) return;
      // Keyed by type as well as value, as yaml compares them (=== on the scalar's value):
      // `1:` and `"1":` are two keys.
      const seen = new Set<string>();
      for (const pair of map.items) {
        const k = pair.key;
        if (!isScalar(k) || !k.range) continue;
        const id = `${typeof k.value}:${String(k.value)}`;
        if (seen.has(id)) found.push({ offset: k.range[0], message: 'Map keys must be unique' });
        else seen.add(id);
      }
    },
  });
  return found;
}
