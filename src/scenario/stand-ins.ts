/**
 * Stand-ins for what the schema refused, so that the checks which need a whole scenario (the
 * semantic checks, the cross-references, the expectations' and the comparison's) can still
 * run on the parts of a file that are right, and `validate` says every problem in one pass
 * instead of in rounds (the schema's first, then the rest once those are fixed).
 *
 * Each refused value gets two stand-ins, each one the schema accepts, chosen far apart (the
 * smallest a number may be and a large one; the first and the last of a list of names). The
 * loader checks the file twice, once with each, and keeps only what both checks found away
 * from the stood-in paths: a problem that depends on a refused value (a fault after a horizon
 * that could not be read) changes with its stand-in, and is left out; one that does not (a
 * fault naming a population nobody declared) is the file's, and is said with the others.
 * An unknown key is removed instead: nothing reads it.
 *
 * Nothing here is a default the simulation uses: a file with a refused value never runs.
 */
import type { z } from 'zod';
import { fieldSchemaAt } from './schema-walk.js';
import { hasPath, valueAt, defineKey, setPath, type PathSegment } from './raw-path.js';

/** What to do at a path of the raw file: remove the key (`values` absent), or set one of two stand-ins. */
export interface StandIn {
  path: PathSegment[];
  values?: readonly [unknown, unknown];
}

type Issue = z.core.$ZodIssue;
type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
/** Whether an object may leave the key out (optional, or given a default). */
const omittable = (s: z.ZodType): boolean => (s as unknown as { _zod: { optin?: string } })._zod.optin !== undefined;

/**
 * The stand-ins for every issue of one failed parse of `raw` (paths relative to it), or
 * undefined when some issue has none (a refused name of a population, which other parts of
 * the file may name: standing in for it would make their references wrong too).
 */
export function standInsFor(issues: readonly Issue[], raw: unknown, schema: z.ZodType): StandIn[] | undefined {
  const out: StandIn[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((s): s is PathSegment => typeof s === 'string' || typeof s === 'number');
    if (path.length !== issue.path.length) return undefined;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...path, key] });
      continue;
    }
    if (issue.code === 'invalid_key') return undefined;
    // A discriminated union without a known kind: the whole mapping is stood in for (zod puts the discriminator at the end of the path).
    const union = issue as Issue & { note?: string; discriminator?: string };
    const at = issue.code === 'invalid_union' && union.note === 'No matching discriminator' && path[path.length - 1] === (union.discriminator ?? 'kind') ? path.slice(0, -1) : path;
    if (at.length === 0) return undefined;
    const field = fieldSchemaAt(schema, at, raw);
    if (!field) return undefined;
    const values = pair(field);
    if (!values) return undefined;
    out.push({ path: at, values });
  }
  return out;
}

/** The raw file with the stand-ins of one side (0 or 1) applied; `raw` itself is not changed. */
export function withStandIns(raw: unknown, standIns: readonly StandIn[], side: 0 | 1): unknown {
  let out = raw;
  // Values first, then removals: a removal may take away a mapping a value was set in.
  for (const s of standIns) if (s.values) out = setPath(out, s.path, s.values[side]);
  for (const s of standIns) if (!s.values) out = removePath(out, s.path);
  return out;
}

/** A copy of `raw` without the key at `path` (copy-on-write along the path only). */
function removePath(raw: unknown, path: readonly PathSegment[]): unknown {
  if (!hasPath(raw, path)) return raw;
  const holder = valueAt(raw, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(holder)) return raw; // an item cannot be an unknown key
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(holder as Record<string, unknown>)) if (k !== String(key)) defineKey(copy, k, v);
  return setPath(raw, path.slice(0, -1), copy);
}

/** Two values the field accepts, as far apart as the candidates allow; undefined when none fits. */
function pair(field: z.ZodType): readonly [unknown, unknown] | undefined {
  const fits = (v: unknown) => field.safeParse(v).success;
  const low = candidates(field, 0).find(fits);
  if (low === undefined) return undefined;
  const high = candidates(field, 1).find((v) => fits(v) && JSON.stringify(v) !== JSON.stringify(low)) ?? low;
  return [low, high];
}

/** Candidate stand-ins, small first for side 0 and large first for side 1. */
const NUMBERS = [0, 0.5, 1, 2, 10, 1000];
const TEXTS = ['0s', '1ms', '1s', '0/s', '1/s', 'a', '1.0.0', '1', 'none'];
const TEXTS_HIGH = ['2h', '1m', '1s', '1000/s', '1/s', 'z', '9.9.9', '9', 'none'];

/** The values worth trying for a schema, in order: each is checked against the field itself. */
function candidates(s: z.ZodType, side: 0 | 1, depth = 0): unknown[] {
  if (depth > 12) return [];
  const d = defOf(s);
  const order = <T>(xs: T[]) => (side === 0 ? xs : [...xs].reverse());
  switch (d.type) {
    case 'optional': case 'default': case 'prefault': case 'nullable': case 'readonly': case 'catch': case 'nonoptional':
      return d.innerType ? candidates(d.innerType, side, depth + 1) : [];
    case 'pipe':
      return d.in ? candidates(d.in, side, depth + 1) : [];
    case 'union':
      // The options in the schema's order on both sides: the two stand-ins are then of one
      // kind (a constant rate), small and large, rather than two kinds that may both send
      // nothing, and a problem that depends on the value shows it.
      return (d.options ?? []).flatMap((o) => candidates(o, side, depth + 1));
    case 'literal':
      return order([...(d.values ?? [])]);
    case 'enum':
      return order(Object.values(d.entries ?? {}));
    case 'number':
      return order(NUMBERS);
    case 'string':
      return side === 0 ? TEXTS : TEXTS_HIGH;
    case 'boolean':
      return side === 0 ? [false, true] : [true, false];
    case 'array':
      return [[]];
    case 'record':
      return [{}];
    case 'object': {
      // The keys the mapping cannot go without, each its first fitting candidate.
      const obj: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(d.shape ?? {})) {
        if (omittable(child)) continue;
        const v = candidates(child, side, depth + 1).find((c) => child.safeParse(c).success);
        if (v === undefined) return [];
        defineKey(obj, k, v);
      }
      return [obj];
    }
    case 'unknown': case 'any':
      return [null];
    default:
      return [];
  }
}
