/**
 * Finds the keys a strict object in the schema accepts, given a path into the data. The
 * loader needs it to suggest "did you mean" for an unknown key; walking the schema keeps
 * the schema the only place where keys are declared.
 */
import type { z } from 'zod';

type AnySchema = z.ZodType;

interface Def {
  type: string;
  shape?: Record<string, AnySchema>;
  /** An object's schema for the keys its shape does not name (an expectation's measures). */
  catchall?: AnySchema;
  innerType?: AnySchema;
  in?: AnySchema;
  element?: AnySchema;
  valueType?: AnySchema;
  options?: AnySchema[];
  discriminator?: string;
}

const defOf = (s: AnySchema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strips wrappers (optional, default, pipe…) down to the schema that decides the shape. */
function unwrap(s: AnySchema, data: unknown): AnySchema {
  for (;;) {
    const d = defOf(s);
    if (d.innerType && (d.type === 'optional' || d.type === 'default' || d.type === 'nullable' || d.type === 'prefault' || d.type === 'readonly' || d.type === 'catch' || d.type === 'nonoptional')) {
      s = d.innerType;
    } else if (d.type === 'pipe' && d.in) {
      s = d.in;
    } else if (d.type === 'union' && d.options) {
      s = pickOption(d, data) ?? s;
      if (defOf(s).type === 'union') return s;
    } else {
      return s;
    }
  }
}

/** In a (discriminated) union, the option that matches the data's discriminator, or the first object option. */
function pickOption(d: Def, data: unknown): AnySchema | undefined {
  const objects = (d.options ?? []).filter((o) => defOf(unwrap(o, data)).type === 'object');
  if (d.discriminator && data && typeof data === 'object') {
    const tag = (data as Record<string, unknown>)[d.discriminator];
    const hit = objects.find((o) => {
      const lit = defOf(unwrap(o, data)).shape?.[d.discriminator!];
      const values = (lit as unknown as { _zod?: { def?: { values?: unknown[] } } })?._zod?.def?.values;
      return values?.includes(tag);
    });
    if (hit) return hit;
  }
  return objects[0];
}

/** The schema that decides the shape of the value at `path` (wrappers stripped), or undefined where the schema has no such path. */
export function schemaAt(root: AnySchema, path: ReadonlyArray<PropertyKey>, data: unknown): AnySchema | undefined {
  let s = unwrap(root, data);
  let cursor: unknown = data;
  for (const seg of path) {
    const d = defOf(s);
    cursor = cursor && typeof cursor === 'object' ? (cursor as Record<PropertyKey, unknown>)[seg] : undefined;
    // Own keys only: a key named toString or constructor is not the shape's inherited method.
    if (d.type === 'object' && d.shape && typeof seg === 'string' && Object.hasOwn(d.shape, seg)) s = d.shape[seg];
    else if (d.type === 'object' && d.catchall && defOf(d.catchall).type !== 'never' && typeof seg === 'string') s = d.catchall;
    else if (d.type === 'array' && d.element) s = d.element;
    else if (d.type === 'record' && d.valueType) s = d.valueType;
    else return undefined;
    s = unwrap(s, cursor);
  }
  return s;
}

/**
 * The whole schema of the value at `path`, its own wrappers and checks kept (what parsing the
 * value alone would apply: a duration's unit, a number's bounds), for the loader's stand-ins
 * (stand-ins.ts); undefined where the schema has no such path.
 */
export function fieldSchemaAt(root: AnySchema, path: ReadonlyArray<PropertyKey>, data: unknown): AnySchema | undefined {
  if (path.length === 0) return root;
  const parent = schemaAt(root, path.slice(0, -1), data);
  const seg = path[path.length - 1];
  const d = parent && defOf(parent);
  if (!d) return undefined;
  if (d.type === 'object' && d.shape && typeof seg === 'string' && Object.hasOwn(d.shape, seg)) return d.shape[seg];
  if (d.type === 'object' && d.catchall && defOf(d.catchall).type !== 'never' && typeof seg === 'string') return d.catchall;
  if (d.type === 'array' && d.element) return d.element;
  if (d.type === 'record' && d.valueType) return d.valueType;
  return undefined;
}

export function knownKeysAt(root: AnySchema, path: ReadonlyArray<PropertyKey>, data: unknown): string[] {
  const s = schemaAt(root, path, data);
  const d = s && defOf(s);
  return d && d.type === 'object' && d.shape ? Object.keys(d.shape) : [];
}

/** Whether the value at `path` is a mapping of names chosen by the user (populations, layers, routes…), and the schema of one entry. */
export function namedMapAt(root: AnySchema, path: ReadonlyArray<PropertyKey>, data: unknown): AnySchema | undefined {
  const s = schemaAt(root, path, data);
  const d = s && defOf(s);
  return d && d.type === 'record' ? d.valueType : undefined;
}
