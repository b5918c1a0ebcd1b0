/**
 * The published JSON Schema with each repeated part written once, under `$defs`, and referred
 * to where it recurs. The schema generated from zod writes a part out wherever it is used (a
 * retry policy in every layer, a distribution wherever a time is drawn, a server's stage in
 * every list of stages): it passed 1 MB, more than some tools take, and validators compiled
 * every copy. What the schema accepts is unchanged: a `$ref` to an identical subschema is
 * that subschema.
 */
type JS = Record<string, unknown>;

/** Keywords whose value is a schema. */
const ONE = ['additionalProperties', 'items', 'not', 'propertyNames', 'contains', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'];
/** Keywords whose value is a list of schemas. */
const LIST = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

const isSchema = (x: unknown): x is JS => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The schema with every subschema child replaced by `f(child, segments)`. */
function mapChildren(node: JS, f: (child: JS, segments: Array<string | number>) => unknown): JS {
  const out: JS = {};
  for (const [k, v] of Object.entries(node)) {
    if (ONE.includes(k) && isSchema(v)) out[k] = f(v, [k]);
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map((x, i) => (isSchema(x) ? f(x, [k, i]) : x));
    else if (MAP.includes(k) && isSchema(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, x]) => [name, isSchema(x) ? f(x, [k, name]) : x]));
    else out[k] = v;
  }
  return out;
}

/** A readable name for a part, from where it is first written: server.stages.item.oneOf1. */
function nameFor(path: Array<string | number>): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (MAP.includes(String(seg))) continue; // the name that follows says it
    if (seg === 'additionalProperties') parts.push('entry');
    else if (seg === 'items') parts.push('item');
    else if (LIST.includes(String(seg))) parts.push(`${seg}${path[++i]}`);
    else parts.push(String(seg));
  }
  return parts.join('.').replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
}

/**
 * Every subschema of at least `minChars` characters (as JSON) written more than once becomes a
 * definition; the largest first, so a part and the parts inside it are defined once each.
 */
export function compactSchema(root: JS, minChars = 300): JS {
  const text = new Map<JS, string>();
  const count = new Map<string, number>();
  const measure = (node: JS): void => {
    mapChildren(node, (child) => measure(child));
    const t = text.get(node) ?? JSON.stringify(node);
    text.set(node, t);
    count.set(t, (count.get(t) ?? 0) + 1);
  };
  measure(root);

  const defs: Record<string, JS> = {};
  const nameOf = new Map<string, string>();
  const taken = new Set(Object.keys(isSchema(root.$defs) ? root.$defs : {}));
  const rewrite = (node: JS, path: Array<string | number>, isDefinition: boolean): JS => {
    const t = text.get(node)!;
    if (!isDefinition && t.length >= minChars && (count.get(t) ?? 0) > 1) {
      let name = nameOf.get(t);
      if (name === undefined) {
        const base = nameFor(path);
        name = base;
        for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
        taken.add(name);
        nameOf.set(t, name);
        defs[name] = rewrite(node, path, true);
      }
      return { $ref: `#/$defs/${name}` };
    }
    // The root's own definitions (the overlay) stay where other parts point at them.
    return mapChildren(node, (child, segments) => rewrite(child, [...path, ...segments], path.length === 0 && segments[0] === '$defs'));
  };
  const out = rewrite(root, [], true);
  const all: Record<string, JS> = { ...(isSchema(out.$defs) ? (out.$defs as Record<string, JS>) : {}), ...defs };

  // A part that recurs only inside another repeated part is now written once: put it back.
  const uses = new Map<string, number>();
  const countRefs = (node: JS): void => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) uses.set(node.$ref.slice(8), (uses.get(node.$ref.slice(8)) ?? 0) + 1);
    mapChildren(node, (child) => countRefs(child));
  };
  countRefs({ ...out, $defs: all });
  const once = (name: string) => Object.hasOwn(defs, name) && uses.get(name) === 1;
  const inline = (node: JS): JS => {
    if (typeof node.$ref === 'string' && Object.keys(node).length === 1 && once(node.$ref.slice(8))) return inline(all[node.$ref.slice(8)]);
    return mapChildren(node, (child) => inline(child));
  };
  const kept = Object.fromEntries(Object.entries(all).filter(([name]) => !once(name)).map(([name, d]) => [name, inline(d)]));
  const { $defs: _, ...rest } = inline(out);
  return { ...rest, $defs: kept };
}
