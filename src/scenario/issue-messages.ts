/**
 * Turns what zod finds wrong into the tool's own words, for every kind of issue zod raises:
 * what is expected, in the terms of a scenario file ("a list", "a mapping", "a whole
 * number"), and what was found there. zod's own wording ("Invalid input: expected array,
 * received object") names JavaScript types and leaves the reader to translate; messages
 * written on the schema itself (limits, units, names) still take precedence.
 *
 * `ownWords` is the error map the loader passes to every parse; `reportIssue` decides where
 * each issue is reported (a missing key at its parent, an unknown key at the key, a union
 * at the option that came closest) and hands it to the loader's sink.
 */
import type { z } from 'zod';
import { closest, unknownKeyMessage } from './problems.js';
import { knownKeysAt } from './schema-walk.js';
import { hasPath, valueAt } from './raw-path.js';

type Path = ReadonlyArray<PropertyKey>;
export type IssueSink = (path: Path, message: string, key?: string) => void;
type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/** What a union without a message of its own says; reportIssue replaces it with what each option wanted. */
const NO_OPTION_FITS = 'none of the forms allowed here fits';

/** What zod's type names mean in a scenario file. */
function typePhrase(expected: string): string {
  switch (expected) {
    case 'string': return 'text';
    case 'number': case 'nan': return 'a number';
    case 'int': return 'a whole number';
    case 'boolean': return 'true or false';
    case 'object': case 'record': case 'map': return 'a mapping (key: value lines or { key: value })';
    case 'array': case 'tuple': case 'set': return 'a list';
    case 'null': case 'undefined': case 'void': return 'no value';
    case 'never': return 'nothing here';
    default: return expected;
  }
}

/** What was found, as a reader of the file would name it. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'an empty value';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? `the number ${v}` : `${v}`;
  if (typeof v === 'string') return v === '' ? 'empty text' : `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : `a list of ${v.length} item(s)`;
  if (typeof v === 'object') return 'a mapping';
  return typeof v;
}

function valuesList(values: ReadonlyArray<unknown>): string {
  return values.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');
}

function sizeNoun(origin: string, n: number | bigint): string {
  if (origin === 'array' || origin === 'set') return `${n} item${n === 1 ? '' : 's'}`;
  if (origin === 'string') return `${n} character${n === 1 ? '' : 's'}`;
  return String(n);
}

/** The error map passed to every parse of a scenario: one message per issue kind, in the tool's words. */
export const ownWords: z.core.$ZodErrorMap = (iss: RawIssue) => {
  const got = describeValue(iss.input);
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return `missing (expected ${typePhrase(iss.expected)})`;
      return `expected ${typePhrase(iss.expected)} (got ${got})`;
    case 'invalid_value': {
      const last = iss.path?.[iss.path.length - 1];
      if (iss.values.length === 1) return `expected ${JSON.stringify(iss.values[0])} (got ${got})`;
      const guess = typeof iss.input === 'string' ? closest(iss.input, iss.values.map(String)) : undefined;
      const what = typeof last === 'string' ? `${last} ` : '';
      if (typeof iss.input === 'string') {
        return `unknown ${what}${JSON.stringify(iss.input)}${guess ? ` (did you mean "${guess}"?)` : ''}: expected one of ${valuesList(iss.values)}`;
      }
      return `expected one of ${valuesList(iss.values)} (got ${got})`;
    }
    case 'too_big': {
      const n = iss.maximum;
      if (iss.origin === 'array' || iss.origin === 'set' || iss.origin === 'string') {
        return `${iss.exact ? 'exactly' : 'at most'} ${sizeNoun(iss.origin, n)} here (got ${got})`;
      }
      return `must be ${iss.inclusive === false ? 'below' : 'at most'} ${n} (got ${got})`;
    }
    case 'too_small': {
      const n = iss.minimum;
      if (iss.origin === 'array' || iss.origin === 'set' || iss.origin === 'string') {
        return `${iss.exact ? 'exactly' : 'at least'} ${sizeNoun(iss.origin, n)} here (got ${got})`;
      }
      return `must be ${iss.inclusive === false ? 'above' : 'at least'} ${n} (got ${got})`;
    }
    case 'invalid_format':
      return `${got} is not written in the form this key takes`;
    case 'not_multiple_of':
      return `must be a multiple of ${iss.divisor} (got ${got})`;
    case 'unrecognized_keys':
      return `unknown key${iss.keys.length > 1 ? 's' : ''} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_key':
      return `this name is not allowed here`;
    case 'invalid_element':
      return `a value of this ${iss.origin} is not valid`;
    case 'invalid_union':
      return iss.inclusive === false ? 'more than one of the forms allowed here fits; write it so only one does' : NO_OPTION_FITS;
    case 'custom':
      return `${got} is not valid here`;
    default:
      return `${got} is not valid here`;
  }
};

/** Where an issue is reported and in which words; `schema` is the root, for the keys an object accepts. */
export function reportIssue(issue: Issue, raw: unknown, sink: IssueSink, schema: z.ZodType, prefix: Path = []): void {
  const path: Path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(schema, path, raw);
    for (const key of issue.keys) sink(path, unknownKeyMessage(key, known), key);
    return;
  }
  const union = issue.code === 'invalid_union' ? (issue as Issue & { note?: string; options?: unknown[]; discriminator?: string }) : undefined;
  if (union && union.note === 'No matching discriminator') {
    // zod 4 already puts the discriminator at the end of the path.
    const disc = union.discriminator ?? 'kind';
    const at = path[path.length - 1] === disc ? path : [...path, disc];
    const tag = valueAt(raw, at);
    if (tag === undefined) sink(at, `missing required key "${disc}" (${issue.message})`);
    else {
      const options = (union.options ?? []).map(String);
      const guess = typeof tag === 'string' ? closest(tag, options) : undefined;
      sink(at, `unknown ${disc} ${JSON.stringify(tag)}${guess ? ` (did you mean "${guess}"?)` : ''}: ${issue.message}`);
    }
    return;
  }
  // zod 4 does not keep the input on issues: a key is missing when the data does not have it.
  if (!hasPath(raw, path)) {
    const last = path[path.length - 1];
    sink(path, typeof last === 'number' ? `missing item ${last}` : `missing required key "${String(last)}"`);
    return;
  }
  if (issue.code === 'invalid_key') {
    // A record key that breaks its rule (a population name, a percentile): say why, at the key.
    const why = issue.issues.map((i) => i.message).join('; ') || issue.message;
    const key = path[path.length - 1];
    sink(path.slice(0, -1), `invalid key "${String(key)}": ${why}`, String(key));
    return;
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.message === NO_OPTION_FITS) {
    reportUnion(issue.errors, path, raw, sink, schema);
    return;
  }
  sink(path, withWhatWasFound(issue, valueAt(raw, path)));
}

/**
 * A range error says what it got, whoever wrote its message: the schema's own words ("must be
 * at least 1 (concurrency slots)") are kept, and the value found is added as ownWords does.
 */
function withWhatWasFound(issue: Issue, found: unknown): string {
  const range = issue.code === 'too_small' || issue.code === 'too_big' || issue.code === 'not_multiple_of';
  if (!range || /\(got [^)]*\)/.test(issue.message)) return issue.message;
  const got = `got ${describeValue(found)}`;
  // "(concurrency slots)" becomes "(concurrency slots; got the number -8)", not a second pair of brackets.
  return issue.message.endsWith(')') ? `${issue.message.slice(0, -1)}; ${got})` : `${issue.message} (${got})`;
}

/**
 * A plain union (a duration or "none"; a count window or a time window) that no option
 * accepted. When an option accepted the shape and failed inside it (a negative duration,
 * a bad field of the right kind of mapping), its own issues say best what is wrong; when
 * none did, the message lists what each option expected.
 */
function reportUnion(branches: Issue[][], path: Path, raw: unknown, sink: IssueSink, schema: z.ZodType): void {
  const mismatch = (i: Issue) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_value' || i.code === 'invalid_union');
  const fitting = branches.filter((b) => b.length > 0 && !b.some(mismatch));
  if (fitting.length > 0) {
    const unknownKeys = (b: Issue[]) => b.filter((i) => i.code === 'unrecognized_keys').reduce((n, i) => n + (i.code === 'unrecognized_keys' ? i.keys.length : 0), 0);
    const best = fitting.reduce((a, b) => (unknownKeys(b) < unknownKeys(a) || (unknownKeys(b) === unknownKeys(a) && b.length < a.length) ? b : a));
    for (const i of best) reportIssue(i, raw, sink, schema, path);
    return;
  }
  const phrases: string[] = [];
  for (const b of branches) {
    for (const i of b.filter((x) => x.path.length === 0)) {
      const p =
        i.code === 'invalid_type' ? typePhrase(i.expected)
        : i.code === 'invalid_value' ? i.values.map((v) => JSON.stringify(v)).join(' or ')
        : i.message.replace(/^expected /, '').replace(/ \(got [^)]*\)$/, '');
      if (!phrases.includes(p)) phrases.push(p);
    }
  }
  sink(path, `expected ${phrases.join(' or ')} (got ${describeValue(valueAt(raw, path))})`);
}
