/**
 * How a policy variant's overlay applies to the base scenario: mappings merge key by key,
 * everything else (values, lists) replaces. Lists replace rather than merge by index
 * because "the second fault, but different" is never what anyone means. A mapping whose
 * `kind` changes replaces too: a spread Retry-After over a fixed one is a different thing,
 * and keeping the fixed one's `after` would only make the variant invalid.
 */
export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined;
    // defineProperty, not assignment: a key named "__proto__" must stay a key (and then be
    // reported as unknown), not replace the object's prototype.
    const merge = isPlainObject(b) && isPlainObject(v) && !changesKind(b, v);
    Object.defineProperty(out, k, { value: merge ? deepMerge(b, v) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function changesKind(base: Record<string, unknown>, overlay: Record<string, unknown>): boolean {
  return Object.hasOwn(base, 'kind') && Object.hasOwn(overlay, 'kind') && base.kind !== overlay.kind;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}
