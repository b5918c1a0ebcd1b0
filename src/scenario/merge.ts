/**
 * How a policy variant's overlay applies to the base scenario: mappings merge key by key,
 * everything else (values, lists) replaces. Lists replace rather than merge by index
 * because "the second fault, but different" is never what anyone means.
 */
export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    // defineProperty, not assignment: a key named "__proto__" must stay a key (and then be
    // reported as unknown), not replace the object's prototype.
    Object.defineProperty(out, k, { value: isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
