/** Typed arrays that grow with the records they are indexed by (an action id, a pending step), doubling so growth is amortised. */

/** A copy of `a` with room for at least n entries (doubling). */
export function growTo(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(n, a.length * 2, 64));
  b.set(a);
  return b;
}

/** A copy of `a` (or a new array) with room for `n` entries. */
export function grow<T extends Float64Array | Int32Array>(a: T | undefined, n: number, Kind: { new (n: number): T }): T {
  const out = new Kind(n);
  if (a !== undefined) out.set(a);
  return out;
}
