/**
 * What a variant's overlay may write that the merge would take without a word, but that is
 * almost always a slip (docs/experiments.md, "Variants"):
 *
 * - a name the base does not have in one of its named maps (populations, a population's
 *   layers, routes, dependencies, services), one or two letters from a name it has. Maps merge
 *   key by key, so `layers: { htp: { budget: … } }` beside the base's `http` adds a third
 *   layer, of one try, holding the budget meant for http: the variant runs, and equals the
 *   base. Such a name is refused unless the new entry is written whole (`missingToBeWhole`):
 *   an overlay may add a layer or a population on purpose;
 * - a null that removes nothing: under a name the base does not have, or on a misspelt key
 *   (the merge drops a null before validation, so the schema never sees the key).
 *
 * And, for the loader's positions, which parts of a variant the overlay wrote.
 */
import type { z } from 'zod';
import { closest, formatPath } from './problems.js';
import { knownKeysAt, namedMapAt } from './schema-walk.js';
import { changesKind, isPlainObject } from './merge.js';
import { hasPath, valueAt, type PathSegment } from './raw-path.js';

export interface OverlayProblem {
  /** The mapping inside the overlay that holds the key (the same path as in the scenario). */
  path: PathSegment[];
  key: string;
  message: string;
}

/** What an entry of each named map is called, and its plural. */
const NOUNS: Record<string, [string, string]> = {
  clients: ['population', 'populations'],
  layers: ['layer', 'layers'],
  routes: ['route', 'routes'],
  dependencies: ['dependency', 'dependencies'],
  services: ['service', 'services'],
  tiers: ['tier', 'tiers'],
  reserve: ['route', 'routes'],
  bulkheads: ['route', 'routes'],
};

/** A layer says how many tries it makes with one of these; without any it tries once, which a misspelt name never meant. */
const LAYER_TRIES = ['maxAttempts', 'preset', 'from'];

/** Names listed in a message at most. */
const LISTED = 12;

/** Every slip of this kind in one overlay, checked against the base scenario's world (raw, before validation). */
export function overlayProblems(schema: z.ZodType, base: Record<string, unknown>, overlay: Record<string, unknown>): OverlayProblem[] {
  const out: OverlayProblem[] = [];
  const walk = (b: Record<string, unknown>, o: Record<string, unknown>, path: PathSegment[]) => {
    const entry = namedMapAt(schema, path, base);
    for (const [key, v] of Object.entries(o)) {
      if (Object.hasOwn(b, key)) {
        const bv = b[key];
        // Only where the overlay merges into the base: a mapping it replaces whole is its own.
        if (isPlainObject(bv) && isPlainObject(v) && !changesKind(bv, v)) walk(bv, v, [...path, key]);
        continue;
      }
      if (entry) {
        const message = newEntryProblem(entry, Object.keys(b), key, v, path);
        if (message) out.push({ path, key, message });
      } else if (v === null) {
        // Only a near miss of a known key: where a union of mappings has no discriminator, the
        // keys known here are one option's guess, and a key of another option is no typo.
        const known = knownKeysAt(schema, path, base);
        const guess = known.includes(key) ? undefined : closest(key, known);
        if (guess) out.push({ path, key, message: `unknown key "${key}" (did you mean "${guess}"?): its null removes nothing` });
      }
    }
  };
  walk(base, overlay, []);
  return out;
}

function newEntryProblem(entry: z.ZodType, names: string[], key: string, v: unknown, path: PathSegment[]): string | undefined {
  const [noun, plural] = NOUNS[String(path[path.length - 1])] ?? ['entry', 'entries'];
  const where = ownerOf(path);
  const guess = closest(key, names);
  const has = names.length > 0 ? `its ${plural}: ${listed(names)}` : `it has no ${plural}`;
  if (v === null) {
    return `the base has no ${noun} "${key}"${where} to remove (${has})${guess ? `: did you mean "${guess}"?` : ''}`;
  }
  if (!guess) return undefined;
  const missing = missingToBeWhole(entry, v, noun);
  if (missing === undefined) return undefined;
  return `the base has no ${noun} "${key}"${where} (${has}): did you mean "${guess}"? (to add a new ${noun} under a name this close to one the base has, ${missing})`;
}

/**
 * Why a new entry is not written whole (undefined when it is): a layer must say how many tries
 * it makes (maxAttempts, preset or from); any other entry must have every key its kind requires
 * (a population its arrivals).
 */
function missingToBeWhole(entry: z.ZodType, v: unknown, noun: string): string | undefined {
  // Not a mapping at all: the schema says what is wrong with it.
  if (!isPlainObject(v)) return undefined;
  if (noun === 'layer') {
    if (!LAYER_TRIES.some((k) => Object.hasOwn(v, k))) return 'give it maxAttempts, preset or from';
    // `htttp: { maxAttempts: 1 }` meant to switch http's retries off; as a layer of its own,
    // one try and nothing else, it does nothing, and the variant ran as the base.
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === 'maxAttempts' && typeof v.maxAttempts === 'number' && v.maxAttempts <= 1) return 'give it more than one try (maxAttempts above 1), a preset or from: one try and nothing else is a layer that does nothing';
    return undefined;
  }
  const parsed = entry.safeParse(v);
  if (parsed.success) return undefined;
  const missing = [...new Set(parsed.error.issues.filter((i) => i.path.length > 0 && !Object.hasOwn(v, String(i.path[0]))).map((i) => String(i.path[0])))];
  return missing.length > 0 ? `write it whole: it needs ${missing.join(', ')}` : undefined;
}

/** " in population "mobile"", from the path of the named map. */
function ownerOf(path: PathSegment[]): string {
  for (let i = path.length - 2; i >= 0; i--) {
    const noun = NOUNS[String(path[i])];
    if (noun) return ` in ${noun[0]} "${String(path[i + 1])}"`;
  }
  return path.length > 1 ? ` in ${formatPath(path.slice(0, -1))}` : '';
}

function listed(names: string[]): string {
  return names.length > LISTED ? `${names.slice(0, LISTED).join(', ')}, … (${names.length} in all)` : names.join(', ');
}

/**
 * Whether what a variant holds at `path` is the overlay's own: the overlay set it, or it lies
 * inside a mapping or list the overlay added or replaced whole (a new population, a list of
 * faults, a mapping whose kind changed). A problem there is the overlay's, to be reported at
 * its position; elsewhere it is the base's, which the overlay only caused.
 */
export function writtenByOverlay(base: unknown, overlay: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let b = base;
  let o = overlay;
  for (const seg of path) {
    if (!hasPath(o, [seg])) return false;
    const ov = valueAt(o, [seg]);
    if (!hasPath(b, [seg])) return true;
    const bv = valueAt(b, [seg]);
    if (!(isPlainObject(bv) && isPlainObject(ov) && !changesKind(bv, ov))) return true;
    b = bv;
    o = ov;
  }
  return true;
}
