// Mutants of the shipped scenarios, and the check that the loader meets each with either a
// scenario or positioned problems in its own words. Shared by the fuzz test (a fixed seed,
// 10,000 mutants) and `npm run fuzz` (any seed, as many as asked).
//
// A mutant is made on the YAML document, not only on its text, so that most mutants are
// well-formed YAML with a wrong shape: a list where a mapping belongs, a key misspelt or
// moved, a number too large, a unit in capitals, a value removed. Text edits add broken YAML.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { isMap, isPair, isScalar, isSeq, parseDocument, visit, Scalar, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';

export const SHIPPED = join(import.meta.dirname, '../../scenarios');

export interface Shipped {
  name: string;
  text: string;
}

export function shippedScenarios(): Shipped[] {
  return readdirSync(SHIPPED).filter((f) => f.endsWith('.yaml')).sort().map((name) => ({ name, text: readFileSync(join(SHIPPED, name), 'utf8') }));
}

/** zod's own wording, which must never reach a user (and the loader's placeholders for it). */
export const GENERIC_WORDING =
  /Invalid input|Invalid option|Invalid string|Invalid number|Invalid key in|Invalid value in|Invalid discriminator|Invalid element|Too big:|Too small:|Unrecognized keys?:|, received \w+|must match pattern|none of the forms allowed here fits/;

const SCALARS: unknown[] = [
  0, -1, 1.5, 1e12, 2 ** 53, -0.001, 1e999, Number.NaN, 3, 100, 1000,
  '0', '-5s', '5', '1e999', '800', '12M', '400/S', '100/Min', '1h30m', '250ms', '10s', '-1m', '0s', '0/s', '5/x', '9'.repeat(400) + 's',
  'none', 'full', 'gaussian', 'fifo', 'got', 'gott', 'exponental', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'a b', '', ' ', 'ü', 'x'.repeat(300),
  true, false, null,
];
const KEYS = ['kind', 'rate', 'at', 'duration', 'slots', 'queue', 'maxAttempts', 'timeout', 'backoff', 'retry', 'layers', 'preset', 'overlay', 'values', 'range', 'steps',
  'variant', 'route', 'calls', 'constructor', 'toString', 'valueOf', 'seeds', 'seed', 'sweep', 'name', 'clients', 'server', 'faults'];
const CHARS = [':', '-', ' ', '\n', '[', ']', '{', '}', '#', ',', '"', "'", '&', '*', '!', '|', '>', '?', '0', '1', '7', '.', 'a', 'k', 's', 'm', '/'];

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

interface Places {
  pairs: Array<{ map: YAMLMap; pair: Pair }>;
  items: Array<{ seq: YAMLSeq; index: number }>;
  maps: YAMLMap[];
}

function places(doc: Document): Places {
  const out: Places = { pairs: [], items: [], maps: [] };
  visit(doc, {
    Map(_, map) { out.maps.push(map); for (const pair of map.items) out.pairs.push({ map, pair }); },
    Seq(_, seq) { seq.items.forEach((_i, index) => out.items.push({ seq, index })); },
  });
  return out;
}

function randomValue(r: Rand, doc: Document): Node {
  const k = r();
  if (k < 0.7) return doc.createNode(pick(r, SCALARS)) as Node;
  if (k < 0.8) return doc.createNode([pick(r, SCALARS), pick(r, SCALARS)]) as Node;
  if (k < 0.9) return doc.createNode({ [pick(r, KEYS)]: pick(r, SCALARS) }) as Node;
  return doc.createNode({}) as Node;
}

function typo(r: Rand, key: string): string {
  const i = Math.floor(r() * Math.max(key.length, 1));
  const k = r();
  if (k < 0.3) return key.slice(0, i) + key.slice(i + 1);
  if (k < 0.6) return key.slice(0, i) + pick(r, ['e', 's', 'x', 'a']) + key.slice(i);
  if (k < 0.8 && key.length > 1) return key.slice(0, i) + key.slice(i + 1, i + 2) + key.slice(i, i + 1) + key.slice(i + 2);
  return key.toUpperCase();
}

/** A text edit: broken YAML, as a slip of the keyboard makes it. */
function textEdit(r: Rand, text: string): string {
  const at = Math.floor(r() * (text.length + 1));
  if (r() < 0.5) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + pick(r, CHARS) + text.slice(at);
}

/** One edit of the document's structure. */
function docEdit(r: Rand, doc: Document): void {
  const p = places(doc);
  const m = r();
  if (m < 0.35 && p.pairs.length) {
    const { pair } = pick(r, p.pairs);
    pair.value = randomValue(r, doc);
  } else if (m < 0.5 && p.pairs.length) {
    const { map, pair } = pick(r, p.pairs);
    map.items.splice(map.items.indexOf(pair), 1);
  } else if (m < 0.65 && p.pairs.length) {
    const { pair } = pick(r, p.pairs);
    if (isScalar(pair.key)) pair.key = new Scalar(r() < 0.7 ? typo(r, String(pair.key.value)) : pick(r, KEYS));
  } else if (m < 0.75 && p.pairs.length && p.maps.length) {
    // A pair moved to another mapping: a key in the wrong place.
    const { map, pair } = pick(r, p.pairs);
    const to = pick(r, p.maps);
    if (to !== map && isPair(pair) && isScalar(pair.key) && !to.has(pair.key.value)) {
      map.items.splice(map.items.indexOf(pair), 1);
      to.items.push(pair);
    }
  } else if (m < 0.85 && p.items.length) {
    const { seq, index } = pick(r, p.items);
    if (r() < 0.5) seq.items.splice(index, 1);
    else seq.items.splice(index, 0, seq.items[index]);
  } else if (p.items.length) {
    const { seq, index } = pick(r, p.items);
    seq.items[index] = randomValue(r, doc);
  }
  // Flow style everywhere now and then, as hand-written files have it.
  if (r() < 0.05) visit(doc, { Collection(_, node) { if (isMap(node) || isSeq(node)) node.flow = true; } });
}

const parsed = new Map<string, Document>();

/** The mutant number `i` of a run seeded with `seed`: 1 to 3 edits of one shipped scenario. */
export function mutant(shipped: readonly Shipped[], seed: string, i: number): { from: string; text: string } {
  const r = seedrandom.alea(`${seed}/${i}`);
  const base = shipped[i % shipped.length];
  const edits = 1 + Math.floor(r() * 3);
  const textEdits = Array.from({ length: edits }, () => r() < 0.15).filter(Boolean).length;
  let text = base.text;
  if (textEdits < edits) {
    // Parsed once per shipped file; each mutant edits a copy.
    const doc = (parsed.get(base.name) ?? parsed.set(base.name, parseDocument(base.text)).get(base.name)!).clone();
    for (let e = textEdits; e < edits; e++) docEdit(r, doc);
    try {
      text = doc.toString({ lineWidth: 0 });
    } catch {
      // An edit that left an alias without its anchor cannot be written back: keep the text.
    }
  }
  for (let e = 0; e < textEdits; e++) text = textEdit(r, text);
  return { from: base.name, text };
}

export interface Outcome {
  loaded: boolean;
  problems: Problem[];
  /** CPU time of the load (user + system), in ms: not wall time, which a loaded machine stretches. */
  cpuMs: number;
  /** What is wrong with the outcome itself (empty when the loader did its job). */
  faults: string[];
}

/** Loads a mutant and says what, if anything, the loader got wrong. */
export function checkMutant(text: string, file = 'm.yaml'): Outcome {
  const before = process.cpuUsage();
  let problems: Problem[] = [];
  let loaded = false;
  const faults: string[] = [];
  try {
    loadScenario(text, file);
    loaded = true;
  } catch (e) {
    if (!(e instanceof ScenarioError)) faults.push(`threw ${(e as Error)?.name}: ${(e as Error)?.message}`);
    else problems = e.problems;
  }
  const used = process.cpuUsage(before);
  const cpuMs = (used.user + used.system) / 1000;
  if (!loaded && faults.length === 0 && problems.length === 0) faults.push('a ScenarioError without problems');
  const lines = text.split('\n').length;
  for (const p of problems) {
    const where = formatProblem(p);
    if (p.file !== file) faults.push(`wrong file: ${where}`);
    if (p.line === 0 ? p.path !== '' : !(p.line >= 1 && p.line <= lines && p.col >= 1)) faults.push(`not positioned: ${where}`);
    if (p.message.trim() === '') faults.push(`empty message: ${where}`);
    if (GENERIC_WORDING.test(p.message)) faults.push(`generic wording: ${where}`);
  }
  for (let i = 1; i < problems.length; i++) {
    const [a, b] = [problems[i - 1], problems[i]];
    if (a.line > b.line || (a.line === b.line && a.col > b.col)) faults.push('problems not sorted by position');
  }
  return { loaded, problems, cpuMs, faults };
}
