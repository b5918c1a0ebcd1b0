/**
 * A digest of everything a run records, for tests that pin a run byte for byte (the golden
 * records, and tests of a model path that must not change what it does).
 */
import { createHash } from 'node:crypto';

/** A digest of everything a run records, typed arrays as their numbers (NaN and -0 kept apart by their bits). */
export function recordDigest(record: unknown): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify(record, (_, v) => {
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return { [v.constructor.name]: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
      if (v instanceof Map) return [...v.entries()];
      return v;
    }),
  );
  return hash.digest('hex').slice(0, 32);
}
