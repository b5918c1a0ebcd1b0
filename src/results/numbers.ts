/**
 * The precision results are kept at. Measured values keep 6 significant digits: more would
 * only expose floating-point noise (and make files differ across platforms for nothing),
 * fewer would blur the differences between policies that people come to see. Whole numbers
 * (counts, seeds, indices) are kept exactly, and so is anything the user wrote (sweep values).
 */
export function round6(x: number): number {
  if (!Number.isFinite(x) || x === 0 || Number.isInteger(x)) return x;
  return Number(x.toPrecision(6));
}

/**
 * Rounds every measured number in a JSON-able value to 6 significant digits; the fields
 * named in `exact` (and everything under them) are kept as they are. NaN and infinities
 * become null: JSON has neither.
 */
export function roundMeasured<T>(v: T, exact: readonly string[] = []): T {
  const walk = (x: unknown): unknown => {
    if (typeof x === 'number') return Number.isFinite(x) ? round6(x) : null;
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x)) out[k] = exact.includes(k) ? y : walk(y);
      return out;
    }
    return x;
  };
  return walk(v) as T;
}
