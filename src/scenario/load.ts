/**
 * Reads a scenario file into validated scenarios, one per policy variant, or throws a
 * ScenarioError listing every problem with its file:line:col and path. Nothing runs
 * until a file is entirely right.
 *
 * Variants are overlays merged into the raw base before validation, so a variant is
 * checked exactly like a whole scenario; a problem it introduces is reported at the
 * overlay's own position when the overlay wrote that key, and at the base's otherwise.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isMap, isScalar, visit, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { scenarioSchema, type Scenario } from './schema.js';
import { ScenarioError, closest, formatPath, unknownKeyMessage, type Problem } from './problems.js';
import { knownKeysAt } from './schema-walk.js';
import { semanticProblems } from './semantics.js';
import { compareProblems } from './compare-check.js';
import { deepMerge } from './merge.js';
import { sweepParameters, applyPoint, scaleLoad, startsWith } from './sweep-apply.js';
import { sweepPoints, sameValue, LOAD_PARAMETER, type SweepPoint } from './sweep.js';

export interface ScenarioVariant {
  name: string;
  description?: string;
  /** The variant at the first sweep point (the only one without a sweep). */
  scenario: Scenario;
  /** The variant at each sweep point, by point index. */
  points: Scenario[];
}

export interface LoadedScenario {
  file: string;
  /** The file's text, kept for the report (reviewers read the scenario next to its results). */
  source: string;
  base: Scenario;
  /** At least one: without declared variants, the base runs as variant "base". */
  variants: ScenarioVariant[];
  /** Sweep points (one point with no values without a sweep). */
  points: SweepPoint[];
  /**
   * Where a path of the scenario was written (the key itself when `key` is given), for checks
   * made above the loader (e.g. which measures an expectation names) to report positioned
   * problems like the loader's own.
   */
  locate(path: ReadonlyArray<PropertyKey>, key?: string): { line: number; col: number };
}

type Path = ReadonlyArray<PropertyKey>;

const MAX_YAML_ERRORS = 10;

export function loadScenarioFile(file: string): LoadedScenario {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a scenario file' : `cannot be read (${code ?? String(e)})`;
    throw new ScenarioError([{ file, line: 0, col: 0, path: '', message: why }]);
  }
  return loadScenario(source, file);
}

export function loadScenario(source: string, file = '<scenario>'): LoadedScenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  if (doc.errors.length > 0) {
    // After a syntax error the parser often reports every later token as unexpected: keep
    // the first error and the distinct ones, and say how many were left out.
    const kept = doc.errors.filter((e, i) => i === 0 || !/ token in YAML stream/.test(e.message)).slice(0, MAX_YAML_ERRORS);
    const problems: Problem[] = sortProblems(kept.map((e) => {
      // An unclosed { or [ is noticed where the next line starts; point at the bracket itself.
      const open = /^Flow (map|sequence) in block collection/.test(e.message) ? unclosedFlowAt(doc, source, e.pos[0]) : undefined;
      const pos = open !== undefined ? lineCounter.linePos(open) : e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
      const note = open !== undefined ? ` (this ${source[open]} is not closed)` : '';
      return { file, line: pos.line, col: pos.col, path: '', message: `YAML: ${firstLine(e.message)}${note}` };
    }));
    const left = doc.errors.length - kept.length;
    if (left > 0) problems[problems.length - 1].message += ` (and ${left} more YAML error(s) after it, most likely caused by the one${kept.length > 1 ? 's' : ''} above)`;
    throw new ScenarioError(problems);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new ScenarioError([{ file, line: 1, col: 1, path: '', message: `YAML: ${firstLine((e as Error).message)}` }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ScenarioError([{ file, line: 1, col: 1, path: '', message: 'a scenario is a mapping of keys (name, horizon, clients, server, …)' }]);
  }

  const locate = (path: Path, key?: string) => position(doc, lineCounter, path, key);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const report = (p: Problem) => {
    const id = `${p.line}:${p.col}:${p.path}:${p.message}`;
    if (!seen.has(id)) { seen.add(id); problems.push(p); }
  };
  // What the base scenario got wrong, so that each variant does not say it again.
  const inBase = new Set<string>();

  const base = validate(raw, (path, message, key) => {
    const { line, col } = locate(path, key);
    const at = formatPath(key ? [...path, key] : path);
    inBase.add(`${at}:${message}`);
    report({ file, line, col, path: at, message });
  });

  const { variants: declared, ...rawBase } = raw as Record<string, unknown>;
  const params = base ? sweepParameters(base, rawBase, (path, message) => {
    const { line, col } = locate(path);
    report({ file, line, col, path: formatPath(path), message });
  }) : [];
  const points = sweepPoints(params.map((p) => ({ parameter: p.parameter, values: p.values })));

  // Each variant (the base alone when none is declared) at each sweep point is validated as
  // a whole scenario; a problem is reported where the text that caused it was written.
  const variants: ScenarioVariant[] = [];
  const entries: Array<[string, unknown]> =
    declared && typeof declared === 'object' && !Array.isArray(declared) ? Object.entries(declared) : [['base', {}]];
  for (const [name, v] of entries) {
    const rawOverlay = v && typeof v === 'object' ? (v as Record<string, unknown>).overlay : undefined;
    const overlay = rawOverlay && typeof rawOverlay === 'object' && !Array.isArray(rawOverlay) ? (rawOverlay as Record<string, unknown>) : {};
    const merged = deepMerge(rawBase, overlay);
    const variantSink: Sink = (path, message, key) => {
      const full = key ? [...path, key] : path;
      if (inBase.has(`${formatPath(full)}:${message}`)) return;
      if (hasPath(overlay, full)) {
        const overlayPath = ['variants', name, 'overlay', ...path];
        const { line, col } = locate(overlayPath, key);
        report({ file, line, col, path: formatPath(key ? [...overlayPath, key] : overlayPath), message });
      } else {
        const { line, col } = locate(path, key);
        report({ file, line, col, path: formatPath(full), message: `${message} (in variant "${name}")` });
      }
    };
    const scenarios: Scenario[] = [];
    for (const point of points) {
      const applied = applyPoint(merged, point, params);
      const pointSink: Sink = (path, message, key) => {
        const full = key ? [...path, key] : path;
        const swept = params.find((p) => p.path !== LOAD_PARAMETER && startsWith(full, p.path));
        if (!swept) return variantSink(path, message, key);
        const at = ['sweep', swept.index, swept.valuesKey];
        const { line, col } = locate(at);
        report({ file, line, col, path: formatPath(at), message: `${message} (at ${swept.parameter} = ${point.values[swept.parameter]}${entries.length > 1 ? `, variant "${name}"` : ''})` });
      };
      const scenario = validate(applied.raw, pointSink);
      if (scenario) {
        // A variant is a whole scenario of its own: it does not carry the list of variants.
        const { variants: _, ...alone } = scaleLoad(scenario, applied.load);
        scenarios.push(alone);
      }
    }
    if (scenarios.length === points.length) {
      variants.push({ name, description: descriptionOf(v), scenario: scenarios[0], points: scenarios });
    }
  }

  if (base) {
    const names = entries.map(([n]) => n);
    (base.expectations ?? []).forEach((e, i) => {
      if (!names.includes(e.variant)) {
        const path = ['expectations', i, 'variant'];
        const { line, col } = locate(path);
        const guess = closest(e.variant, names);
        report({ file, line, col, path: formatPath(path), message: `no variant named "${e.variant}"${guess ? ` (did you mean "${guess}"?)` : ` (variants: ${names.join(', ')})`}` });
      }
      const at = e.at ?? {};
      const known = Object.keys(at).every((k) => params.some((p) => p.parameter === k));
      if (known && Object.keys(at).length > 0 && !points.some((pt) => Object.entries(at).every(([k, v]) => sameValue(pt.values[k], v)))) {
        const path = ['expectations', i, 'at'];
        const { line, col } = locate(path);
        const swept = params.map((p) => `${p.parameter}: ${p.values.join(', ')}`).join('; ');
        report({ file, line, col, path: formatPath(path), message: `no sweep point has these values, so nothing would be checked (the sweep has ${swept})` });
      }
      for (const k of Object.keys(at)) {
        if (!params.some((p) => p.parameter === k)) {
          const path = ['expectations', i, 'at', k];
          const { line, col } = locate(path);
          report({ file, line, col, path: formatPath(path), message: `"${k}" is not a swept parameter${params.length ? ` (swept: ${params.map((p) => p.parameter).join(', ')})` : ' (the scenario has no sweep)'}` });
        }
      }
    });
  }

  if (base) {
    for (const p of compareProblems(base, entries.map(([n]) => n), params, points)) {
      const { line, col } = locate(p.path, p.key);
      report({ file, line, col, path: formatPath(p.key === undefined ? p.path : [...p.path, p.key]), message: p.message });
    }
  }

  if (problems.length > 0 || !base) throw new ScenarioError(sortProblems(problems));
  return { file, source, base, variants, points, locate };
}


type Sink = (path: Path, message: string, key?: string) => void;

/** Schema and semantic validation of one raw scenario object; problems go to the sink. */
function validate(raw: unknown, sink: Sink): Scenario | undefined {
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) reportIssue(issue, raw, sink);
    return undefined;
  }
  const semantic = semanticProblems(parsed.data);
  for (const p of semantic) sink(p.path, p.message);
  return semantic.length ? undefined : parsed.data;
}

function reportIssue(issue: z.core.$ZodIssue, raw: unknown, sink: Sink): void {
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(scenarioSchema, issue.path, raw);
    for (const key of issue.keys) sink(issue.path, unknownKeyMessage(key, known), key);
    return;
  }
  if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
    // zod 4 already puts the discriminator at the end of the path.
    const disc = (issue as { discriminator?: string }).discriminator ?? 'kind';
    const path = issue.path[issue.path.length - 1] === disc ? issue.path : [...issue.path, disc];
    const tag = valueAt(raw, path);
    if (tag === undefined) sink(path, `missing required key "${disc}" (${issue.message})`);
    else {
      const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
      const guess = typeof tag === 'string' ? closest(tag, options) : undefined;
      sink(path, `unknown ${disc} ${JSON.stringify(tag)}${guess ? ` (did you mean "${guess}"?)` : ''}: ${issue.message}`);
    }
    return;
  }
  // zod 4 does not keep the input on issues: a key is missing when the data does not have it.
  if (!hasPath(raw, issue.path)) {
    const last = issue.path[issue.path.length - 1];
    sink(issue.path, `missing required key "${String(last)}"`);
    return;
  }
  if (issue.code === 'invalid_key') {
    // A record key that breaks its rule (a population name, a percentile): say why, at the key.
    const why = issue.issues.map((i) => i.message).join('; ') || issue.message;
    const key = issue.path[issue.path.length - 1];
    sink(issue.path.slice(0, -1), `invalid key "${String(key)}": ${why}`, String(key));
    return;
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0 && /^Invalid input/.test(issue.message)) {
    // A plain union ("none" or a duration): zod only says "Invalid input". An option whose
    // type matched but whose value did not (a custom issue) says best what is wrong;
    // otherwise list what each option expected.
    const custom = issue.errors.flat().filter((i) => i.code === 'custom');
    if (custom.length > 0) {
      for (const i of custom) sink([...issue.path, ...i.path], i.message);
      return;
    }
    const wants = issue.errors.map((branch) => branch.map((i) => i.message.replace(/^Invalid input: /, '')).join('; '));
    sink(issue.path, wants.map((w, i) => (i > 0 ? w.replace(/^expected /, '') : w)).join(' or '));
    return;
  }
  sink(issue.path, issue.message);
}

function descriptionOf(v: unknown): string | undefined {
  const d = v && typeof v === 'object' ? (v as Record<string, unknown>).description : undefined;
  return typeof d === 'string' ? d : undefined;
}

function hasPath(obj: unknown, path: Path): boolean {
  let cur = obj;
  for (const seg of path) {
    // Own keys only: "constructor" or "toString" are not in a scenario just because every object inherits them.
    if (!cur || typeof cur !== 'object' || !Object.hasOwn(cur, String(seg))) return false;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return true;
}

function valueAt(obj: unknown, path: Path): unknown {
  return hasPath(obj, path) ? path.reduce<unknown>((cur, seg) => (cur as Record<string, unknown>)[String(seg)], obj) : undefined;
}

/** The position of the node at `path` (or of `key` inside it); a missing node points at its nearest existing parent. */
function position(doc: Document, lc: LineCounter, path: Path, key?: string): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
    if (!node || !node.range) continue;
    let offset = node.range[0];
    if (n === path.length && key !== undefined && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
    } else if (n < path.length && isMap(node)) {
      // The value is missing: point at the key that names it, if the key is there, or else
      // at the key that names this mapping (a block mapping starts at its first child's key).
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[n]));
      if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
      else if (n > 0) offset = keyOffset(doc, path.slice(0, n)) ?? offset;
    }
    return lc.linePos(offset);
  }
  return { line: 1, col: 1 };
}

/** The offset of the { or [ of a flow collection that runs, unclosed, up to `end`. */
function unclosedFlowAt(doc: Document, source: string, end: number): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Collection(_key, node) {
      const [start, stop] = node.range ?? [];
      if (!node.flow || start === undefined || stop !== end) return;
      const text = source.slice(start, stop).trimEnd();
      if ((source[start] === '{' && !text.endsWith('}')) || (source[start] === '[' && !text.endsWith(']'))) found = start;
    },
  });
  return found;
}

/** Where the key naming the node at `path` starts, when its parent is a mapping. */
function keyOffset(doc: Document, path: Path): number | undefined {
  const parent = doc.getIn(path.slice(0, -1) as unknown[], true) as Node | undefined;
  if (!isMap(parent)) return undefined;
  const last = String(path[path.length - 1]);
  const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === last);
  return pair && isScalar(pair.key) && pair.key.range ? pair.key.range[0] : undefined;
}

function sortProblems(ps: Problem[]): Problem[] {
  return ps.sort((a, b) => a.line - b.line || a.col - b.col || a.path.localeCompare(b.path));
}

function firstLine(s: string): string {
  return s.split('\n')[0];
}
