/**
 * How a policy variant's overlay applies to the base scenario: mappings merge key by key,
 * everything else (values, lists) replaces. Lists replace rather than merge by index
 * because "the second fault, but different" is never what anyone means. A mapping whose
 * `kind` changes replaces too: a spread Retry-After over a fixed one is a different thing,
 * and keeping the fixed one's `after` would only make the variant invalid.
 *
 * A key the overlay sets to null is left out of the result: it removes what the base set,
 * so a default or a preset applies again (`{ preset: got, maxAttempts: null }` takes got's
 * tries instead of the base's). Null means "no value" wherever the overlay writes it, also
 * inside a mapping that replaces the base's.
 */
import { defineKey } from './raw-path.js';

export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    const merge = isPlainObject(b) && isPlainObject(v) && !changesKind(b, v);
    // defineKey, not assignment: a key named "__proto__" must stay a key (and then be
    // reported as unknown), not replace the object's prototype.
    defineKey(out, k, merge ? deepMerge(b, v) : withoutNulls(v));
  }
  return out;
}

/** The overlay's value with its null-valued keys left out, at every depth. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) defineKey(out, k, withoutNulls(x));
  return out;
}

/** Whether both sides write a `kind` and they differ: then the overlay's mapping replaces the base's. */
export function changesKind(base: Record<string, unknown>, overlay: Record<string, unknown>): boolean {
  return Object.hasOwn(base, 'kind') && Object.hasOwn(overlay, 'kind') && base.kind !== overlay.kind;
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
