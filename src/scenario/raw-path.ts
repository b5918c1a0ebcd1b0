/**
 * Paths into a raw scenario (the plain object YAML gave, before validation). Keys come from
 * users, so only own keys count: "constructor" or "toString" are not in a scenario just
 * because every object inherits them, and writing "__proto__" must make a key, never
 * replace an object's prototype.
 */
export type PathSegment = string | number;

/** Whether `path` leads to a value the data itself holds (own keys, indices in range). */
export function hasPath(raw: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let cur = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return false;
    if (Array.isArray(cur)) {
      const i = typeof seg === 'number' ? seg : Number.NaN;
      if (!(Number.isInteger(i) && i >= 0 && i < cur.length)) return false;
      cur = cur[i];
    } else {
      if (!Object.hasOwn(cur, String(seg))) return false;
      cur = (cur as Record<string, unknown>)[String(seg)];
    }
  }
  return true;
}

/** The value at `path`, or undefined when the data does not hold one. */
export function valueAt(raw: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur = raw;
  for (const seg of path) {
    if (!hasPath(cur, [seg])) return undefined;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return cur;
}

/** Sets an own, enumerable key, whatever its name (assignment to "__proto__" would set the prototype). */
export function defineKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `raw` with `value` at `path` (copy-on-write along the path only). */
export function setPath(raw: unknown, path: ReadonlyArray<PathSegment>, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(raw)) {
    const copy = raw.slice();
    copy[head as number] = setPath(raw[head as number], rest, value);
    return copy;
  }
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const copy = { ...obj };
  defineKey(copy, String(head), setPath(valueAt(obj, [head]), rest, value));
  return copy;
}

/**
 * Paths to every key named `name` in the raw data. zod drops a record key "__proto__"
 * silently (a tier or an `at` written so would vanish), so the loader refuses such keys.
 */
export function pathsToKey(raw: unknown, name: string): PathSegment[][] {
  const out: PathSegment[][] = [];
  const seen = new Set<object>();
  const stack: Array<[unknown, PathSegment[]]> = [[raw, []]];
  while (stack.length > 0) {
    const [cur, path] = stack.pop()!;
    if (cur === null || typeof cur !== 'object' || seen.has(cur)) continue;
    seen.add(cur);
    if (Array.isArray(cur)) cur.forEach((v, i) => stack.push([v, [...path, i]]));
    else for (const [k, v] of Object.entries(cur)) {
      if (k === name) out.push([...path, k]);
      stack.push([v, [...path, k]]);
    }
  }
  return out;
}
