/**
 * Duplicate keys in a parsed YAML document, found in one pass. The yaml package can refuse
 * them itself (`uniqueKeys: true`), but it compares every new key with every earlier key of
 * its mapping: a 1 MiB file with one 90,000-key mapping took minutes to refuse. Here each
 * mapping keeps a set of the scalar keys it has seen, so the check is linear in the keys.
 */
import { isMap, isScalar, visit, type Document } from 'yaml';

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
