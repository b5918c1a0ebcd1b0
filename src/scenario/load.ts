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
import { LineCounter, parseDocument, isMap, isScalar, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { scenarioSchema, type Scenario } from './schema.js';
import { ScenarioError, formatPath, unknownKeyMessage, type Problem } from './problems.js';
import { knownKeysAt } from './schema-walk.js';
import { semanticProblems } from './semantics.js';
import { deepMerge } from './merge.js';

export interface ScenarioVariant {
  name: string;
  description?: string;
  scenario: Scenario;
}

export interface LoadedScenario {
  file: string;
  /** The file's text, kept for the report (reviewers read the scenario next to its results). */
  source: string;
  base: Scenario;
  /** At least one: without declared variants, the base runs as variant "base". */
  variants: ScenarioVariant[];
}

type Path = ReadonlyArray<PropertyKey>;

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
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        return { file, line: pos.line, col: pos.col, path: '', message: `YAML: ${firstLine(e.message)}` };
      }),
    );
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

  const base = validate(raw, (path, message, key) => {
    const { line, col } = locate(path, key);
    report({ file, line, col, path: formatPath(key ? [...path, key] : path), message });
  });

  const variants: ScenarioVariant[] = [];
  const declared = (raw as Record<string, unknown>).variants;
  if (declared && typeof declared === 'object' && !Array.isArray(declared)) {
    const { variants: _, ...rawBase } = raw as Record<string, unknown>;
    for (const [name, v] of Object.entries(declared as Record<string, unknown>)) {
      const overlay = v && typeof v === 'object' ? (v as Record<string, unknown>).overlay : undefined;
      if (!overlay || typeof overlay !== 'object' || Array.isArray(overlay)) {
        if (base) variants.push({ name, description: descriptionOf(v), scenario: base });
        continue;
      }
      const merged = deepMerge(rawBase, overlay as Record<string, unknown>);
      const scenario = validate(merged, (path, message, key) => {
        const full = key ? [...path, key] : path;
        if (hasPath(overlay, full)) {
          const overlayPath = ['variants', name, 'overlay', ...path];
          const { line, col } = locate(overlayPath, key);
          report({ file, line, col, path: formatPath(key ? [...overlayPath, key] : overlayPath), message });
        } else {
          const { line, col } = locate(path, key);
          report({ file, line, col, path: formatPath(full), message: `${message} (in variant "${name}")` });
        }
      });
      if (scenario) variants.push({ name, description: descriptionOf(v), scenario: { ...scenario, variants: undefined } });
    }
  }

  if (problems.length > 0 || !base) throw new ScenarioError(sortProblems(problems));
  if (variants.length === 0) variants.push({ name: 'base', scenario: base });
  return { file, source, base, variants };
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
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    const last = issue.path[issue.path.length - 1];
    sink(issue.path, `missing required key "${String(last)}"`);
    return;
  }
  if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
    const disc = (issue as { discriminator?: string }).discriminator ?? 'kind';
    sink([...issue.path, disc], issue.message);
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
    if (!cur || typeof cur !== 'object' || !(String(seg) in (cur as object))) return false;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return true;
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
      // The value is missing: point at the key that names it, if the key is there.
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path[n]));
      if (pair && isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
    }
    return lc.linePos(offset);
  }
  return { line: 1, col: 1 };
}

function sortProblems(ps: Problem[]): Problem[] {
  return ps.sort((a, b) => a.line - b.line || a.col - b.col || a.path.localeCompare(b.path));
}

function firstLine(s: string): string {
  return s.split('\n')[0];
}
