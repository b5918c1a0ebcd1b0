/**
 * Number formatting shared by every writer. Outputs keep 6 significant digits: more would
 * only expose floating-point noise (and make files differ across platforms for nothing),
 * fewer would blur the differences between policies that people come to see.
 */
export function round6(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(6));
}

/** Deeply rounds every number in a JSON-able value; NaN and infinities become null. */
export function roundDeep<T>(v: T): T {
  if (typeof v === 'number') return (Number.isFinite(v) ? round6(v) : null) as T;
  if (Array.isArray(v)) return v.map(roundDeep) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x)])) as T;
  }
  return v;
}
