/**
 * Reads a scenario file into validated scenarios, one per policy variant, or throws a
 * ScenarioError listing every problem with its file:line:col and path. Nothing runs
 * until a file is entirely right.
 *
 * Variants are overlays merged into the raw base before validation, so a variant is
 * checked exactly like a whole scenario; a problem it introduces is reported at the
 * overlay's own position when the overlay wrote that key (or added or replaced what holds
 * it), and at the base's otherwise. What the merge would take silently but is almost always
 * a slip (a misspelt layer or population name, which would add a new one) is refused first
 * (overlay-check.ts); a problem several variants meet alike is said once.
 */
import { LineCounter, parseDocument, isCollection, isMap, isScalar, visit, type Document, type Node } from 'yaml';
import { scenarioSchema, EXPERIMENT_KEYS, type Scenario } from './schema.js';
import { ScenarioError, formatPath, type Problem } from './problems.js';
import { ownWords, reportIssue } from './issue-messages.js';
import { semanticProblems } from './semantics.js';
import { crossRefProblems } from './cross-refs.js';
import { compareProblems } from './compare-check.js';
import { expectationProblems } from './expectation-check.js';
import { deepMerge } from './merge.js';
import { overlayProblems, writtenByOverlay } from './overlay-check.js';
import { defineKey, hasPath, pathsToKey, valueAt } from './raw-path.js';
import { readScenarioText, tooLargeText } from './read-source.js';
import { autoSeeds, mostSeeds } from './seed-count.js';
import { tooDeep } from './nesting.js';
import { aliasProblems, documentErrors, errorsToReport, topLevelEntries, unquotedBracketPath, PARSE_OPTIONS } from './yaml-errors.js';
import { LIMITS, formatCount } from './limits.js';
import { shapeProblems, bucketsHeld, heldProblems } from './experiment-size.js';
import { sweepParameters, applyPoint, scaleLoad, startsWith } from './sweep-apply.js';
import { sweepPoints, LOAD_PARAMETER, type SweepPoint } from './sweep.js';
import { expandConfigLayers } from './from-config/expand.js';
import { readTraces } from './trace/read-traces.js';
import { ScenarioInputs, type InputFile, type InputOptions } from './input-files.js';
import { readObserved } from './observed-read.js';
import { resolveSearch, writeValue, type ResolvedSearch, type ValueKind } from './search-apply.js';
import { resolveCalibrate, type ResolvedCalibrate } from './calibrate-apply.js';
import type { PathSegment } from './raw-path.js';
import { standInsFor, withStandIns, type StandIn } from './stand-ins.js';

/**
 * The most values the file's aliases may resolve to, nested ones counted (the yaml library's
 * maxAliasCount). Its default of 100 refused a scenario with 100 ordinary aliases; a billion
 * laughs still passes the thousand at its fourth level.
 */
const MAX_ALIAS_RESOLUTIONS = 1000;

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
  /** The files it read besides itself (configs, traces), by path as written: a results folder keeps a copy of each (input-files.ts). */
  inputs: InputFile[];
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
  /** Whether the base scenario sets a value at this path (what a sweep or a search may vary). */
  setsValue(path: PathSegment[]): boolean;
  /** The file's `search` block, read (absent without one). */
  search?: ResolvedSearch;
  /**
   * What the loader read past or assumed without refusing the file, positioned like problems:
   * fields of deployed configs that do not change the load, defaults taken for what they
   * leave out (from-config/expand.ts). For the commands to print (standard error, or
   * validate's report) as warnings, not problems.
   */
  warnings: Problem[];
  /**
   * A variant with the searched parameter set to a value (the world of the base, its sweep not
   * applied), validated like any scenario; a ScenarioError says what the value breaks.
   */
  scenarioAt(variant: string, search: ResolvedSearch, value: number): Scenario;
  /** The file's `calibrate` block, read (absent without one). */
  calibrate?: ResolvedCalibrate;
  /** A variant with several values set at once (a calibration's trial), validated like any scenario; a ScenarioError says what they break. */
  scenarioWith(variant: string, settings: readonly ParameterSetting[]): Scenario;
}

/** A value of the world set to a number, written in its kind of unit ("372.5s", "12.5/s", 0.75). */
export interface ParameterSetting {
  parameter: string;
  path: PathSegment[] | typeof LOAD_PARAMETER;
  kind: ValueKind;
  value: number;
}

type Path = ReadonlyArray<PropertyKey>;

/**
 * Reads and loads a scenario file (at most LIMITS.fileBytes; see read-source.ts for standard input).
 * `inputs`: how the files it names are read (input-files.ts); a library caller reads them
 * wherever they are unless it says otherwise, the command line only inside the scenario's folder.
 */
export function loadScenarioFile(file: string, inputs: InputOptions = { allowOutside: true }, options: LoadOptions = {}): LoadedScenario {
  return loadScenario(readScenarioText(file), file, inputs, options);
}

export interface LoadOptions {
  /** Checks made above the loader, whose problems are said with the loader's (see LoadCheck). */
  checks?: readonly LoadCheck[];
}

export function loadScenario(source: string, file = '<scenario>', inputOptions: InputOptions = { allowOutside: true }, options: LoadOptions = {}): LoadedScenario {
  // Guards before any parsing: what is too large or too deep is refused in milliseconds.
  if (source.length > LIMITS.fileBytes || Buffer.byteLength(source) > LIMITS.fileBytes) throw tooLargeText(file, Buffer.byteLength(source));
  const deep = tooDeep(source);
  if (deep) {
    const { line, col } = linePosOf(source, deep.offset);
    throw new ScenarioError([{
      file, line, col, path: '',
      message: `nested more than ${LIMITS.nesting} levels deep (the limit); a scenario nests about 10: look for unclosed or repeated brackets, or indentation that keeps growing`,
    }]);
  }
  const lineCounter = new LineCounter();
  // Duplicate keys are found by documentErrors, in linear time (yaml's own check is quadratic).
  const doc = parseDocument(source, { lineCounter, ...PARSE_OPTIONS });
  const errors = documentErrors(doc, lineCounter);
  if (errors.length > 0) {
    const lines = source.split('\n');
    const entryOf = topLevelEntries(lines);
    const placed = sortProblems(errors.map((e) => {
      const at = e.linePos ?? lineCounter.linePos(e.pos);
      // A path such as faults[0].duration unquoted inside { } or [ ]: its [ starts a list, and
      // the parser's message says nothing of it. Point at the path and say to quote it.
      const bracket = unquotedBracketPath(lines[at.line - 1] ?? '');
      const common = { file, path: '', offset: e.pos, entry: entryOf[at.line] ?? 0, duplicate: e.duplicate };
      if (bracket) {
        const hint = ` (quote the path: "${bracket.path}"; inside { } or [ ], an unquoted [ starts a list)`;
        return { ...common, line: at.line, col: bracket.col, message: `YAML: ${firstLine(e.message)}${hint}` };
      }
      // An unclosed { or [ is noticed where the next line starts; point at the bracket itself.
      const open = /^Flow (map|sequence) in block collection/.test(e.message) ? unclosedFlowAt(doc, source, e.pos) : undefined;
      if (open === undefined) return { ...common, line: at.line, col: at.col, message: `YAML: ${firstLine(e.message)}` };
      const pos = lineCounter.linePos(open);
      return { ...common, line: pos.line, col: pos.col, message: `YAML: ${firstLine(e.message)} (this ${source[open]} is not closed)`, covers: [open, e.pos] as [number, number] };
    }));
    // After a syntax error the parser often reports the same mistake again and again (every
    // later token unexpected, several errors on its line): keep the first and the ones that
    // are not its follow-ons, and say how many were left out.
    const { kept, left } = errorsToReport(placed);
    const problems: Problem[] = kept.map(({ file, line, col, path, message }) => ({ file, line, col, path, message }));
    const syntax = kept.filter((p) => !p.duplicate);
    const last = syntax[syntax.length - 1];
    if (left > 0 && last) {
      const i = kept.indexOf(last);
      problems[i].message += ` (and ${left} more YAML error(s) after it, most likely caused by ${syntax.length > 1 ? 'the ones above' : 'this one'})`;
    }
    throw new ScenarioError(problems);
  }
  const loops: Problem[] = aliasProblems(doc, lineCounter).map(({ line, col, message }) => ({ file, line, col, path: '', message }));
  if (loops.length > 0) throw new ScenarioError(sortProblems(loops));
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_RESOLUTIONS });
  } catch (e) {
    const message = /Excessive alias count/.test((e as Error).message)
      ? `the aliases (*name) of this file resolve to more than ${formatCount(MAX_ALIAS_RESOLUTIONS)} values (an alias of a value that holds aliases counts them all): write some values out, or alias fewer; the limit keeps a small file from expanding into gigabytes`
      : `YAML: ${firstLine((e as Error).message)}`;
    throw new ScenarioError([{ file, line: 1, col: 1, path: '', message }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ScenarioError([{ file, line: 1, col: 1, path: '', message: 'a scenario is a mapping of keys (name, horizon, clients, server, …)' }]);
  }

  const locate = (path: Path, key?: string) => position(doc, lineCounter, path, key);
  const reserved = pathsToKey(raw, '__proto__');
  if (reserved.length > 0) {
    throw new ScenarioError(sortProblems(reserved.map((p) => {
      const { line, col } = locate(p.slice(0, -1), '__proto__');
      return { file, line, col, path: formatPath(p), message: '"__proto__" cannot be a key or a name: JavaScript reserves it; choose another name' };
    })));
  }
  // Layers read from deployed configs (from: { envoy: … }) get their fields before anything is
  // validated; a config that cannot be read is refused here, positioned in that file.
  const inputs = new ScenarioInputs(file, inputOptions);
  const configs = expandConfigLayers(raw as Record<string, unknown>, file, locate, inputs);
  if (configs.problems.length > 0) throw new ScenarioError(sortProblems(configs.problems));
  // Recorded traffic (arrivals kind trace) is read once, here; each world validated below gets
  // the parsed data attached to its trace arrivals (read-traces.ts).
  const traces = readTraces(raw as Record<string, unknown>, file, locate, inputs);
  if (traces.problems.length > 0) throw new ScenarioError(traces.problems);
  // An incident's observed series (observed:) are read once too, and placed on the run's clock.
  const observed = readObserved(raw as Record<string, unknown>, file, locate, inputs);
  if (observed.problems.length > 0) throw new ScenarioError(observed.problems);
  raw = observed.raw;
  const ctx: FileContext = { file, source, locate, traces, inputs, checks: options.checks ?? [], warnings: configs.warnings };
  const first = checkFile(raw, ctx);
  if (first.loaded) return first.loaded;
  throw new ScenarioError(sortProblems(problemsInOnePass(raw, first, ctx)));
}

/** What checking a file needs besides its raw object: read once, before the first check. */
interface FileContext {
  file: string;
  source: string;
  locate: LoadedScenario['locate'];
  traces: ReturnType<typeof readTraces>;
  inputs: ScenarioInputs;
  checks: readonly LoadCheck[];
  /** What the deployed configs hold that does not change the load (expand.ts). */
  warnings: LoadedScenario['warnings'];
}

/** One check of a raw file: what is wrong with it, what the schema refused in it, or the scenarios it holds. */
interface Checked {
  problems: Problem[];
  refused: Refused;
  loaded?: LoadedScenario;
}

/**
 * What the schema refused, in any world of the file (the base, a variant, a sweep point), as
 * stand-ins at the file's own paths; `complete` is false when some refusal has none (then
 * only the problems found so far can be said).
 */
interface Refused {
  any: boolean;
  complete: boolean;
  standIns: Map<string, StandIn>;
}

/**
 * Every problem of a file the schema refused, in one pass: the schema's, and those the checks
 * that need a whole scenario find in the parts it accepted. The file is checked again twice,
 * each refused value given one of its two stand-ins (stand-ins.ts), and a problem both checks
 * find away from the stood-in paths, naming nothing the refused parts held, is the file's own. When some refusal has no stand-in, or
 * the stand-ins do not make every world whole, the first check's problems are all there is.
 */
function problemsInOnePass(raw: unknown, first: Checked, ctx: FileContext): Problem[] {
  if (!first.refused.any || !first.refused.complete) return first.problems;
  const standIns = [...first.refused.standIns.values()];
  // A file refused in hundreds of places has more to fix first than what the second look adds,
  // and each stand-in copies the path to it: the second look is for files a person wrote.
  if (standIns.length > MOST_STAND_INS) return first.problems;
  let sides: Checked[];
  try {
    sides = ([0, 1] as const).map((side) => checkFile(withStandIns(raw, standIns, side), ctx));
  } catch {
    // A stand-in some check could not take is a limit of the stand-ins, never the file's
    // problem: what the first check found stands.
    return first.problems;
  }
  if (sides.some((c) => c.refused.any)) return first.problems;
  const id = (p: Problem) => `${p.line}:${p.col}:${p.path}:${p.message}`;
  const place = (p: Problem) => `${p.line}:${p.col}:${p.path}`;
  const said = new Set(first.problems.map(place));
  const inOther = new Set(sides[1].problems.map(id));
  const stood = standIns.map((s) => formatPath(s.path));
  const under = (path: string, at: string) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);
  // The names the refused parts held or were written under (a server's dependencies, a
  // misspelt `variants:` block's variants, a population's route): both stand-ins lack them
  // alike, so a problem naming one ("no dependency \"auth\"") follows from the refusal, and
  // fixing it would most likely make it go. Left out, as a check whose input is broken.
  const lost = new Set<string>();
  for (const s of standIns) {
    for (const seg of s.path) if (typeof seg === 'string') lost.add(JSON.stringify(seg));
    namesIn(valueAt(raw, s.path), lost);
  }
  const namesLost = (p: Problem) => [...lost].some((quoted) => p.message.includes(quoted));
  // A problem the first check said already (maybe of fewer variants) is said as it said it.
  const more = sides[0].problems.filter((p) => inOther.has(id(p)) && !said.has(place(p)) && !stood.some((at) => under(p.path, at)) && !namesLost(p));
  return [...first.problems, ...more];
}

/** The keys and texts in a raw value, each as it is quoted in a message ("auth"); at most a few thousand. */
function namesIn(value: unknown, into: Set<string>): void {
  const stack = [value];
  while (stack.length > 0 && into.size < 5000) {
    const v = stack.pop();
    if (typeof v === 'string') into.add(JSON.stringify(v));
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        into.add(JSON.stringify(k));
        stack.push(x);
      }
    }
  }
}

/** The most refused values a file may have for the checks to look again with stand-ins (problemsInOnePass). */
const MOST_STAND_INS = 200;

/**
 * A check made above the loader (which measures an expectation names: src/experiment/
 * expectations.ts), run by the loader once the base is read so that its problems come with
 * the loader's own, in the same pass. It returns the problems it finds.
 */
export type LoadCheck = (loaded: CheckedScenario) => Problem[];

/** What a LoadCheck reads: the base scenario, where its paths were written, and its search. */
export type CheckedScenario = Pick<LoadedScenario, 'file' | 'base' | 'locate' | 'search'>;

/** Validates a raw file (its inputs already read) into its scenarios, or finds what is wrong. */
function checkFile(raw: unknown, ctx: FileContext): Checked {
  const { file, source, locate, traces, inputs, checks } = ctx;
  const refused: Refused = { any: false, complete: true, standIns: new Map() };
  /** What the schema refused in a world, each stand-in's path turned into the file's (undefined: none there). */
  const refuse = (standIns: StandIn[] | undefined, toFile: (path: PathSegment[]) => PathSegment[] | undefined | null) => {
    refused.any = true;
    if (!standIns) refused.complete = false;
    for (const s of standIns ?? []) {
      const at = toFile(s.path);
      if (at === null) continue; // said, and stood in for, elsewhere
      if (at === undefined) { refused.complete = false; continue; }
      const key = JSON.stringify(at);
      if (!refused.standIns.has(key)) refused.standIns.set(key, { ...s, path: at });
    }
  };
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const report = (p: Problem) => {
    const id = `${p.line}:${p.col}:${p.path}:${p.message}`;
    if (!seen.has(id)) { seen.add(id); problems.push(p); }
  };
  // What the base scenario got wrong, so that each variant does not say it again.
  const inBase = new Set<string>();

  // The base as the schema read it, even when the semantic checks found problems in it: the
  // checks of the experiment's own blocks (sweep, expectations, compare) read those blocks
  // alone, and so say their problems in the same pass. A variant is built only from a sound world.
  const base = validate(traces.attach(raw), (path, message, key) => {
    const { line, col } = locate(path, key);
    const at = formatPath(key ? [...path, key] : path);
    inBase.add(`${at}:${message}`);
    report({ file, line, col, path: at, message });
  }, undefined, (standIns) => refuse(standIns, (path) => path))?.scenario;

  const { variants: declared, ...rawBase } = raw as Record<string, unknown>;
  const params = base ? sweepParameters(base, rawBase, (path, message) => {
    const { line, col } = locate(path);
    report({ file, line, col, path: formatPath(path), message });
  }) : [];
  const entries: Array<[string, unknown]> =
    declared && typeof declared === 'object' && !Array.isArray(declared) ? Object.entries(declared) : [['base', {}]];

  // Guards before the work: each variant at each sweep point is a whole scenario to build,
  // and each of those runs once per seed. Too many is refused here, before any is built.
  const shape = shapeProblems(entries.length, params.map((p) => p.values.length), base ? mostSeeds(base.seeds) : 1);
  if (shape.length > 0) {
    for (const p of shape) {
      const { line, col } = locate(p.path);
      report({ file, line, col, path: formatPath(hasPath(raw, p.path) ? p.path : []), message: p.message });
    }
    return { problems, refused };
  }
  const points = sweepPoints(params.map((p) => ({ parameter: p.parameter, values: p.values })));

  // What each variant at each point is validated as: the world of the base with the
  // overlay merged in. The experiment's own blocks (sweep, expectations, compare) cannot be
  // in an overlay and were validated once with the base; parsing them again at every point
  // made validation grow with the square of the sweep.
  const world = withoutKeys(rawBase, PER_EXPERIMENT);

  // Each variant (the base alone when none is declared) at each sweep point is validated as
  // a whole scenario; a problem is reported where the text that caused it was written.
  const variants: ScenarioVariant[] = [];
  const worlds = new Map<string, { merged: Record<string, unknown>; overlay: Record<string, unknown> }>();
  // A problem that several variants meet alike (a sweep value none can take) is said once,
  // naming the variants only when not every one of them meets it.
  const shared = new Map<string, SharedProblem>();
  const reportFor = (variant: string, problem: Problem, style: SharedProblem['style'], point?: SweepPoint) => {
    const id = `${problem.line}:${problem.col}:${problem.path}:${problem.message}`;
    const s = shared.get(id) ?? { problem, style, variants: [], points: [] };
    shared.set(id, s);
    if (!s.variants.includes(variant)) s.variants.push(variant);
    if (point && !s.points.includes(point)) s.points.push(point);
  };
  for (const [name, v] of entries) {
    const rawOverlay = v && typeof v === 'object' ? (v as Record<string, unknown>).overlay : undefined;
    const overlay = rawOverlay && typeof rawOverlay === 'object' && !Array.isArray(rawOverlay) ? (rawOverlay as Record<string, unknown>) : {};
    const written = withoutKeys(overlay, EXPERIMENT_KEYS);
    const merged = deepMerge(world, written);
    worlds.set(name, { merged, overlay });
    // What the merge would take silently but is almost always a slip (a misspelt layer or
    // population name adds a new one): said at the overlay's key, and nothing more under it.
    const slips = overlayProblems(scenarioSchema, world, written);
    for (const p of slips) {
      const at = ['variants', name, 'overlay', ...p.path];
      const { line, col } = locate(at, p.key);
      report({ file, line, col, path: formatPath([...at, p.key]), message: p.message });
      // Taken out of the overlay for the other checks: what it would have added is not in the file's world.
      refuse([{ path: [...at, p.key] }], (path) => path);
    }
    const underSlip = (full: Path) => slips.some((p) => startsWith(full, [...p.path, p.key]));
    const variantSink = (path: Path, message: string, key?: string, point?: SweepPoint) => {
      const full = key ? [...path, key] : path;
      if (inBase.has(`${formatPath(full)}:${message}`) || underSlip(full)) return;
      if (writtenByOverlay(world, written, full)) {
        const overlayPath = ['variants', name, 'overlay', ...path];
        const { line, col } = locate(overlayPath, key);
        const removed = valueAt(overlay, full) === null && /^missing required key/.test(message);
        const why = removed ? `${message}: the overlay's null removes it, and it cannot be left out` : message;
        report({ file, line, col, path: formatPath(key ? [...overlayPath, key] : overlayPath), message: why });
      } else {
        const { line, col } = locate(path, key);
        reportFor(name, { file, line, col, path: formatPath(full), message }, 'in', point);
      }
    };
    const scenarios: Scenario[] = [];
    for (const point of points) {
      const applied = applyPoint(merged, point, params);
      const pointSink: Sink = (path, message, key) => {
        const full = key ? [...path, key] : path;
        const swept = params.find((p) => p.path !== LOAD_PARAMETER && startsWith(full, p.path));
        if (!swept) return variantSink(path, message, key, point);
        const at = ['sweep', swept.index, swept.valuesKey];
        const { line, col } = locate(at);
        reportFor(name, { file, line, col, path: formatPath(at), message: `${message} (at ${swept.parameter} = ${point.values[swept.parameter]}` }, 'at');
      };
      const checked = validate(traces.attach(applied.raw), pointSink, entries.length > 1 || declared ? overlay : undefined, (standIns) => refuse(standIns, (path) => {
        // A refusal at a swept value is the sweep's (no stand-in there); under a slip, the slip's.
        if (params.some((p) => p.path !== LOAD_PARAMETER && startsWith(path, p.path))) return undefined;
        if (underSlip(path)) return null;
        return writtenByOverlay(world, written, path) ? ['variants', name, 'overlay', ...path] : path;
      }));
      const scenario = checked?.sound ? checked.scenario : undefined;
      if (scenario && base) {
        // A variant is a whole scenario of its own: it does not carry the list of variants,
        // and its experiment blocks are the base's.
        scenarios.push(withExperimentOf(base, scaleLoad(scenario, applied.load)));
      }
    }
    if (scenarios.length === points.length) {
      variants.push({ name, description: descriptionOf(v), scenario: scenarios[0], points: scenarios });
    }
  }
  const reportShared = () => {
    for (const s of shared.values()) report({ ...s.problem, message: sharedMessage(s, declared ? entries.length : 0, points.length) });
    shared.clear();
  };
  reportShared();

  if (base && variants.length === entries.length) {
    // An `auto` experiment is guarded at the most it may run (every cell at its max).
    const seeds = mostSeeds(base.seeds);
    const runs = entries.length * points.length * seeds;
    const bucketSet = hasPath(raw, ['measures', 'bucket']);
    for (const p of heldProblems(bucketsHeld(variants.map((v) => v.points), seeds), runs, bucketSet)) {
      const { line, col } = locate(p.path);
      report({ file, line, col, path: formatPath(hasPath(raw, p.path) ? p.path : []), message: p.message });
    }
    const auto = autoSeeds(base.seeds);
    const first = entries.length * points.length * (auto?.start ?? 0);
    if (auto?.budget !== undefined && auto.budget < first) {
      const path = ['seeds', 'auto', 'budget'];
      const { line, col } = locate(path);
      report({ file, line, col, path: formatPath(path), message: `a budget of ${auto.budget} runs cannot pay for the start: ${entries.length} variant(s) x ${points.length} sweep point(s) x ${auto.start} seed(s) = ${first} runs; give at least ${first}, or start with fewer seeds` });
    }
  }

  if (base) {
    for (const p of expectationProblems(base.expectations, entries.map(([n]) => n), variants, params, points)) {
      const { line, col } = locate(p.path);
      report({ file, line, col, path: formatPath(p.path), message: p.message });
    }
  }

  if (base) {
    for (const p of compareProblems(base, entries.map(([n]) => n), params, points)) {
      const { line, col } = locate(p.path, p.key);
      report({ file, line, col, path: formatPath(p.key === undefined ? p.path : [...p.path, p.key]), message: p.message });
    }
  }

  const setsValue = (path: PathSegment[]) => hasPath(rawBase, path);
  /** The variant with values set (a search's or a fit's), or what is wrong there (each message still to say at which values). */
  const atValues = (variant: string, settings: readonly ParameterSetting[], at: PropertyKey[]): { scenario?: Scenario; found: Problem[]; written: Array<string | number> } => {
    const w = worlds.get(variant);
    if (!w || !base) throw new Error(`no variant named "${variant}"`);
    const written = settings.map((p) => writeValue(p.kind, p.value));
    const params = settings.map((p, index) => ({ index, parameter: p.parameter, path: p.path, values: [written[index]], valuesKey: 'range' as const }));
    const applied = applyPoint(w.merged, { index: 0, values: Object.fromEntries(settings.map((p, i) => [p.parameter, written[i]])) }, params);
    const found: Problem[] = [];
    const checked = validate(traces.attach(applied.raw), (path, message, key) => {
      const full = key ? [...path, key] : path;
      const { line, col } = locate(full.length ? full : at);
      found.push({ file, line, col, path: formatPath(full), message });
    }, entries.length > 1 || declared ? w.overlay : undefined);
    const scenario = checked?.sound ? checked.scenario : undefined;
    return { scenario: scenario && withExperimentOf(base, scaleLoad(scenario, applied.load)), found, written };
  };
  const atValue = (variant: string, search: ResolvedSearch, value: number) => {
    const { scenario, found, written } = atValues(variant, [{ ...search, value }], ['search']);
    return { scenario, found, written: written[0] };
  };
  const scenarioWith = (variant: string, settings: readonly ParameterSetting[]): Scenario => {
    const { scenario, found, written } = atValues(variant, settings, ['calibrate']);
    if (scenario) return scenario;
    const values = settings.map((p, i) => `${p.parameter} = ${written[i]}`).join(', ');
    const at = ` (at ${values}${entries.length > 1 ? `, variant "${variant}"` : ''})`;
    throw new ScenarioError(sortProblems(found.map((p) => ({ ...p, message: p.message + at }))));
  };
  const scenarioAt = (variant: string, search: ResolvedSearch, value: number): Scenario => {
    const { scenario, found, written } = atValue(variant, search, value);
    if (scenario) return scenario;
    const at = ` (at ${search.parameter} = ${written}${entries.length > 1 ? `, variant "${variant}"` : ''})`;
    throw new ScenarioError(sortProblems(found.map((p) => ({ ...p, message: p.message + at }))));
  };

  // The file's search: its parameter and range read, and both ends built for every variant, so a
  // range the scenario cannot take is refused now, not after the first runs.
  let search: ResolvedSearch | undefined;
  if (base?.search && variants.length === entries.length) {
    const resolved = resolveSearch(base.search, setsValue);
    if (Array.isArray(resolved)) {
      for (const p of resolved) {
        const at = ['search', ...p.key.split('.')];
        const { line, col } = locate(at);
        report({ file, line, col, path: formatPath(at), message: p.message });
      }
    } else {
      search = resolved;
      for (const v of variants) {
        for (const [end, value] of [['from', resolved.from], ['to', resolved.to]] as const) {
          const { scenario, found, written } = atValue(v.name, resolved, value);
          if (scenario) continue;
          const at = ['search', 'range', end];
          const { line, col } = locate(at);
          for (const p of found) reportFor(v.name, { file, line, col, path: formatPath(at), message: `${p.path}: ${p.message} (at ${resolved.parameter} = ${written}` }, 'at');
        }
      }
      reportShared();
    }
  }

  // The file's calibrate block: its parameters and ranges read, and the world built with every
  // parameter at its lower and at its upper end, so a range the scenario cannot take is
  // refused now, not after an hour of fitting.
  let calibrate: ResolvedCalibrate | undefined;
  if (base?.calibrate && variants.length === entries.length) {
    const resolved = resolveCalibrate(base.calibrate, {
      valueAt: (path) => valueAt(rawBase, path),
      setsValue,
      variants: variants.map((v) => v.name),
      observed: Object.keys(base.observed ?? {}),
    });
    if (Array.isArray(resolved)) {
      for (const p of resolved) {
        const at = ['calibrate', ...p.path];
        const { line, col } = locate(at);
        report({ file, line, col, path: formatPath(at), message: p.message });
      }
    } else {
      calibrate = resolved;
      for (const end of ['from', 'to'] as const) {
        const settings = resolved.parameters.map((p) => ({ ...p, value: p[end] }));
        const { scenario, found, written } = atValues(resolved.variant, settings, ['calibrate']);
        if (scenario) continue;
        const values = settings.map((p, i) => `${p.parameter} = ${written[i]}`).join(', ');
        const at = ['calibrate', 'parameters', resolved.parameters[0].parameter, end];
        const { line, col } = locate(at);
        for (const p of found) report({ file, line, col, path: formatPath(at), message: `${p.path}: ${p.message} (with every parameter at its "${end}": ${values})` });
      }
    }
  }

  // The checks made above the loader, once the base and its search are read (a tipping point is
  // bounded only where there is a search to find it).
  if (base && (base.search === undefined || search !== undefined)) {
    const checked: CheckedScenario = { file, base, locate, ...(search ? { search } : {}) };
    for (const check of checks) for (const p of check(checked)) report(p);
  }

  if (problems.length > 0 || !base) return { problems, refused };
  return { problems, refused, loaded: { file, source, inputs: inputs.files, base, variants, points, locate, setsValue, scenarioAt, scenarioWith, ...(search ? { search } : {}), ...(calibrate ? { calibrate } : {}), warnings: ctx.warnings } };
}


type Sink = (path: Path, message: string, key?: string) => void;

/** A problem met by some variants alike, said once; `style` is how its message names them. */
interface SharedProblem {
  /** Its message so far: "… (at faults[0].duration = 5 m" ("at", still open) or the bare message ("in"). */
  problem: Problem;
  style: 'at' | 'in';
  variants: string[];
  /** The sweep points it was met at ("in" style: a problem away from the swept value, such as a fault past a swept horizon). */
  points: SweepPoint[];
}

/** Sweep points named in a message at most. */
const POINTS_LISTED = 3;

/**
 * The message of a shared problem, naming its variants unless every one of several meets it
 * (or the file declares none: variantCount 0), and its sweep points unless it is met at every one.
 */
function sharedMessage(s: SharedProblem, variantCount: number, pointCount: number): string {
  const every = s.variants.length === variantCount && variantCount > 1;
  const which = s.variants.length === 1 ? `variant "${s.variants[0]}"` : `variants ${s.variants.map((v) => `"${v}"`).join(', ')}`;
  if (s.style === 'at') return `${s.problem.message}${every || variantCount <= 1 ? '' : `, ${which}`})`;
  const somePoints = s.points.length > 0 && s.points.length < pointCount;
  const named = s.points.slice(0, POINTS_LISTED).map((p) => Object.entries(p.values).map(([k, v]) => `${k} = ${v}`).join(', ')).join('; ');
  const at = somePoints ? `at ${named}${s.points.length > POINTS_LISTED ? ` and ${s.points.length - POINTS_LISTED} more sweep point(s)` : ''}` : '';
  // A problem every variant meets at a sweep point is the sweep's: the point says it all.
  const parts = [...(variantCount > 0 && !(every && at) ? [`in ${every ? 'every variant' : which}`] : []), ...(at ? [at] : [])];
  return parts.length > 0 ? `${s.problem.message} (${parts.join(', ')})` : s.problem.message;
}

/**
 * The issues with, at each path, only the tightest of several bounds the value passes: a whole
 * number checks the safe-integer range as well as its own (a seed of 1e308 read "at most
 * 9007199254740991" and "at most 2147483648", two limits for one value).
 */
function tightestBounds<T extends { code: string; path: PropertyKey[]; maximum?: unknown; minimum?: unknown }>(issues: T[]): T[] {
  const key = (i: T) => `${i.code}\u0000${i.path.map(String).join('\u0000')}`;
  const best = new Map<string, T>();
  for (const i of issues) {
    if (i.code !== 'too_big' && i.code !== 'too_small') continue;
    const b = best.get(key(i));
    const tighter = i.code === 'too_big' ? Number(i.maximum) < Number(b?.maximum) : Number(i.minimum) > Number(b?.minimum);
    if (b === undefined || tighter) best.set(key(i), i);
  }
  return issues.filter((i) => (i.code !== 'too_big' && i.code !== 'too_small') || best.get(key(i)) === i);
}

/**
 * Schema and semantic validation of one raw scenario object (a variant's, with its overlay);
 * problems go to the sink, and what the schema refused to `refused`, with a stand-in for each
 * where there is one (stand-ins.ts). The scenario as the schema read it, `sound` when the
 * semantic checks found nothing either; undefined when the schema refused it.
 */
function validate(raw: unknown, sink: Sink, overlay?: Record<string, unknown>, refused?: (standIns: StandIn[] | undefined) => void): { scenario: Scenario; sound: boolean } | undefined {
  const parsed = scenarioSchema.safeParse(raw, { error: ownWords });
  if (!parsed.success) {
    for (const issue of tightestBounds(parsed.error.issues)) reportIssue(issue, raw, sink, scenarioSchema);
    refused?.(standInsFor(parsed.error.issues, raw, scenarioSchema));
    return undefined;
  }
  const semantic = semanticProblems(parsed.data);
  for (const p of semantic) sink(p.path, p.message);
  // In a variant, a route setting left idle counts only where the overlay wrote it.
  const refs = crossRefProblems(parsed.data).filter((p) => !p.idle || !overlay || hasPath(overlay, p.key === undefined ? p.path : [...p.path, p.key]));
  for (const p of refs) sink(p.path, p.message, p.key);
  return { scenario: parsed.data, sound: semantic.length === 0 && refs.length === 0 };
}

function descriptionOf(v: unknown): string | undefined {
  const d = v && typeof v === 'object' ? (v as Record<string, unknown>).description : undefined;
  return typeof d === 'string' ? d : undefined;
}

/** The position of the node at `path` (or of `key` inside it); a missing node points at its nearest existing parent. */
function position(doc: Document, lc: LineCounter, path: Path, key?: string): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
    if (!node || !node.range) continue;
    let offset = node.range[0];
    if (n === path.length && key === undefined && n > 0 && isCollection(node) && !node.flow) {
      // A block mapping or list starts at its first item, lines below: point at the key that names it.
      offset = keyOffset(doc, path) ?? offset;
    } else if (n === path.length && key !== undefined && isMap(node)) {
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

/** The blocks of a scenario that describe the experiment rather than the world: checked once, with the base. */
const PER_EXPERIMENT = ['sweep', 'search', 'calibrate', 'expectations', 'compare', 'variants'] as const;

function withoutKeys(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (!keys.some((k) => Object.hasOwn(obj, k))) return obj;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) defineKey(out, k, v);
  return out;
}

/** A variant's scenario with the base's experiment blocks (which an overlay cannot change). */
function withExperimentOf(base: Scenario, s: Scenario): Scenario {
  const { variants: _, sweep: _s, search: _f, calibrate: _k, expectations: _e, compare: _c, observed: _o, ...alone } = s;
  return {
    ...alone,
    ...(base.sweep !== undefined ? { sweep: base.sweep } : {}),
    ...(base.search !== undefined ? { search: base.search } : {}),
    ...(base.calibrate !== undefined ? { calibrate: base.calibrate } : {}),
    ...(base.expectations !== undefined ? { expectations: base.expectations } : {}),
    ...(base.compare !== undefined ? { compare: base.compare } : {}),
    ...(base.observed !== undefined ? { observed: base.observed } : {}),
  };
}

/** Line and column (1-based) of an offset, before a LineCounter exists. */
function linePosOf(source: string, offset: number): { line: number; col: number } {
  let line = 1, start = 0;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) { line++; start = i + 1; }
  return { line, col: offset - start + 1 };
}

function sortProblems<T extends Problem>(ps: T[]): T[] {
  return ps.sort((a, b) => a.line - b.line || a.col - b.col || a.path.localeCompare(b.path));
}

function firstLine(s: string): string {
  return s.split('\n')[0];
}
