/**
 * The one reader of saved results for the report: summary.json, timeseries.csv and
 * scenario.yaml in, one typed object out. summary.json and the CSV keep growing (intervals,
 * sweep points, expectations, fault windows, new columns), so every other report module
 * reads this normalised shape and never the files: when a file changes, only this adapter
 * does. Every field that is not in the oldest summary.json is optional and tolerated.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseDuration } from '../../scenario/units.js';

/** A results folder that cannot be read as one; the message is one line, for people. */
export class ResultsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResultsError';
  }
}

export interface FaultWindow { kind: string; startS: number; endS: number }
export interface Interval { lo: number; hi: number }

export interface Measures {
  runs: number | null;
  recoveredFraction: number | null;
  recovered: boolean | null;
  /** Null: not recovered (in at least one seed, for a mean over seeds). */
  recoveryTimeS: number | null;
  perceivedOutageS: number | null;
  peakLoadMultiple: number | null;
  peakRetryShare: number | null;
  retryShareAtPeak: number | null;
  relapses: number | null;
  retryWaves: number | null;
  originalSuccessAfterFault: number | null;
  attemptsPerAction: { mean: number | null; p99: number | null; max: number | null };
  /** Finished actions by attempts taken, when summary.json carries a histogram. */
  attemptsHistogram: Array<{ attempts: number; count: number }> | null;
  wastedWorkS: number | null;
  wastedWorkShare: number | null;
  successRatio: number | null;
  baselineRate: number | null;
  /** 95% intervals across seeds by measure name (recoveryTimeS, perceivedOutageS, …). */
  intervals: Record<string, Interval>;
}

export interface PointResult {
  /** Sweep point index (0 without a sweep); matches the CSV's `point` column. */
  index: number;
  /** Swept parameter → value as written ({} without a sweep). */
  values: Record<string, string | number>;
  measures: Measures;
  /** Fault windows of this point's runs, when summary.json records them. */
  faults: FaultWindow[] | null;
}

export interface VariantResult {
  name: string;
  description: string | null;
  /** At least one; more than one only with a sweep. */
  points: PointResult[];
  /** Fault windows read from scenario.yaml (base faults, or the variant's overlay). */
  scenarioFaults: FaultWindow[] | null;
}

/** One variant's line in the ranking (summary.json `ranking.points[].entries[]`, see src/report/ranking.ts). */
export interface RankingRow {
  rank: number;
  variant: string;
  runs: number | null;
  recoveredFraction: number | null;
  recoveryTimeS: number | null;
  perceivedOutageS: number | null;
  outageSavedS: number | null;
  outageSavedRatio: number | null;
  successRatio: number | null;
  peakLoadMultiple: number | null;
  retryShareAtPeak: number | null;
  originalSuccessAfterFault: number | null;
  relapses: number | null;
  retryWaves: number | null;
  /** undefined: not computed (no single swept duration); null: no swept value at which every seed recovered. */
  longestRecovered?: string | number | null;
}

export interface RankingResult {
  baseline: string;
  /** compare.at as written; null when every point is ranked. */
  at: Record<string, string | number> | null;
  /** The swept duration `longestRecovered` refers to; null without one. */
  longestRecoveredParameter: string | null;
  points: Array<{ point: number; values: Record<string, string | number>; entries: RankingRow[] }>;
}

export interface ExpectationOutcome {
  name: string;
  variant: string | null;
  at: Record<string, string | number>;
  passed: boolean;
  actual: string | null;
}

/** timeseries.csv by column: text keys as strings, everything else as numbers (NaN = empty cell). */
export interface SeriesTable {
  columns: string[];
  length: number;
  text: Record<string, string[]>;
  num: Record<string, Float64Array>;
}

export interface Results {
  dir: string;
  scenario: string;
  question: string | null;
  description: string | null;
  partial: boolean;
  runsPlanned: number | null;
  runsFinished: number | null;
  failedRuns: number;
  horizonS: number;
  bucketS: number;
  seeds: number[];
  measureSettings: Record<string, number>;
  /** Swept parameter paths; null without a sweep. */
  sweep: { parameters: string[] } | null;
  /** Null when summary.json has no expectation results (older files, or none declared). */
  expectations: ExpectationOutcome[] | null;
  /** Null when summary.json has no ranking (older files, one shard, a lone variant). */
  ranking: RankingResult | null;
  variants: VariantResult[];
  series: SeriesTable | null;
  /** scenario.yaml as written, and parsed (null when absent or unreadable). */
  scenarioSource: string | null;
  scenarioRaw: Record<string, unknown> | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A number, or the mean of a `{ mean, ci95 }` style object; null otherwise. */
function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (isObj(v)) return num(v.mean ?? v.value);
  return null;
}

function interval(v: unknown): Interval | null {
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && Number.isFinite(x))) return { lo: v[0], hi: v[1] };
  if (isObj(v)) {
    if (typeof v.lo === 'number' && typeof v.hi === 'number') return { lo: v.lo, hi: v.hi };
    return interval(v.ci95 ?? v.interval ?? v.ci);
  }
  return null;
}

function histogram(m: Obj): Measures['attemptsHistogram'] {
  const apa = isObj(m.attemptsPerAction) ? m.attemptsPerAction : {};
  const h = apa.histogram ?? m.attemptsPerActionHistogram ?? m.attemptsHistogram;
  let out: Array<{ attempts: number; count: number }> = [];
  if (Array.isArray(h)) {
    // Either hist[k] = count, or [{ attempts, count | share }].
    out = h.every((x) => typeof x === 'number')
      ? h.map((count, attempts) => ({ attempts, count: count as number }))
      : h.filter(isObj).map((x) => ({ attempts: num(x.attempts) ?? NaN, count: num(x.count ?? x.share ?? x.actions) ?? NaN }));
  } else if (isObj(h)) {
    out = Object.entries(h).map(([k, c]) => ({ attempts: Number(k), count: num(c) ?? NaN }));
  } else return null;
  out = out.filter((x) => Number.isFinite(x.attempts) && Number.isFinite(x.count) && x.count > 0);
  return out.length > 0 ? out : null;
}

function measuresOf(m: Obj): Measures {
  const apa = isObj(m.attemptsPerAction) ? m.attemptsPerAction : {};
  const intervals: Record<string, Interval> = {};
  if (isObj(m.intervals)) {
    for (const [k, v] of Object.entries(m.intervals)) {
      const i = interval(v);
      if (i) intervals[k] = i;
    }
  }
  // Also accept measures written as { mean, ci95 } objects.
  for (const [k, v] of Object.entries(m)) {
    const i = isObj(v) && k !== 'attemptsPerAction' ? interval(v) : null;
    if (i && !intervals[k]) intervals[k] = i;
  }
  return {
    runs: num(m.runs),
    recoveredFraction: num(m.recoveredFraction),
    recovered: typeof m.recovered === 'boolean' ? m.recovered : null,
    recoveryTimeS: num(m.recoveryTimeS),
    perceivedOutageS: num(m.perceivedOutageS),
    peakLoadMultiple: num(m.peakLoadMultiple),
    peakRetryShare: num(m.peakRetryShare),
    retryShareAtPeak: num(m.retryShareAtPeak),
    relapses: num(m.relapses),
    retryWaves: num(m.retryWaves),
    originalSuccessAfterFault: num(m.originalSuccessAfterFault),
    attemptsPerAction: { mean: num(apa.mean), p99: num(apa.p99), max: num(apa.max) },
    attemptsHistogram: histogram(m),
    wastedWorkS: num(m.wastedWorkS),
    wastedWorkShare: num(m.wastedWorkShare),
    successRatio: num(m.successRatio),
    baselineRate: num(m.baselineRate),
    intervals,
  };
}

function faultList(v: unknown): FaultWindow[] | null {
  if (!Array.isArray(v)) return null;
  const out: FaultWindow[] = [];
  for (const f of v.filter(isObj)) {
    const kind = str(f.kind) ?? 'fault';
    const start = num(f.startS) ?? num(f.atS) ?? seconds(f.at);
    // endS null: a fault that never ends (JSON has no Infinity); the report clamps it to the horizon.
    const end = num(f.endS) ?? (start !== null ? add(start, num(f.durationS) ?? seconds(f.duration)) : null) ?? (start !== null && f.endS === null ? Infinity : null);
    if (start !== null && end !== null) out.push({ kind, startS: start, endS: end });
  }
  return out;
}

const add = (a: number, b: number | null) => (b === null ? null : a + b);
function seconds(v: unknown): number | null {
  const r = parseDuration(v);
  return r.ok ? r.value : null;
}

function valuesOf(v: unknown): Record<string, string | number> {
  if (!isObj(v)) return {};
  const out: Record<string, string | number> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number') out[k] = x;
  return out;
}

/**
 * A variant's points: its own `points` list (how summary.json writes a sweep), or, for a
 * sweep block that lists points with per-variant results (`sweep.points[].variants`), the
 * entries naming this variant; without either, the variant itself is the one point.
 */
function pointsOf(v: Obj, name: string, sweep: unknown, params: string[] | null): PointResult[] {
  const point = (p: Obj, i: number, m: Obj): PointResult => ({
    index: num(p.point ?? p.index) ?? i,
    values: isObj(p.values) ? valuesOf(p.values) : p.value !== undefined ? valuesOf({ [params?.[0] ?? 'value']: p.value }) : {},
    measures: measuresOf(m),
    faults: faultList(m.faults ?? p.faults),
  });
  if (Array.isArray(v.points) && v.points.length > 0) return v.points.filter(isObj).map((p, i) => point(p, i, p));
  const sweepPoints = isObj(sweep) && Array.isArray(sweep.points) ? sweep.points.filter(isObj) : [];
  const fromSweep = sweepPoints.flatMap((p, i) => {
    const vs = p.variants;
    const mine = Array.isArray(vs) ? vs.find((x) => isObj(x) && x.name === name) : isObj(vs) ? vs[name] : undefined;
    return isObj(mine) ? [point(p, i, mine)] : [];
  });
  return fromSweep.length > 0 ? fromSweep : [{ index: 0, values: {}, measures: measuresOf(v), faults: faultList(v.faults) }];
}

function variantOf(v: Obj, raw: Obj | null, sweep: unknown, params: string[] | null): VariantResult {
  const name = String(v.name);
  const points = pointsOf(v, name, sweep, params);
  const overlay = raw && isObj(raw.variants) && isObj(raw.variants[name]) && isObj(raw.variants[name].overlay) ? raw.variants[name].overlay : null;
  const scenarioFaults = overlay && 'faults' in overlay ? faultList(overlay.faults) : raw ? faultList(raw.faults ?? []) : null;
  return { name, description: str(v.description), points, scenarioFaults };
}

function expectationsOf(v: unknown): ExpectationOutcome[] | null {
  if (!Array.isArray(v)) return null;
  return v.filter(isObj).map((e) => {
    const passed = e.passed ?? e.ok ?? e.pass;
    return {
      name: str(e.name) ?? str(e.description) ?? str(e.label) ?? str(e.check) ?? JSON.stringify(e),
      variant: str(e.variant),
      at: valuesOf(e.at),
      passed: passed === true,
      actual: str(e.actual) ?? str(e.message),
    };
  });
}

function rankingOf(v: unknown): RankingResult | null {
  if (!isObj(v) || typeof v.baseline !== 'string' || !Array.isArray(v.points)) return null;
  const points = v.points.filter(isObj).map((p, i) => ({
    point: num(p.point) ?? i,
    values: valuesOf(p.values),
    entries: (Array.isArray(p.entries) ? p.entries : []).filter((e): e is Obj => isObj(e) && typeof e.variant === 'string').map((e, j) => {
      const lr = e.longestRecovered;
      return {
        rank: num(e.rank) ?? j + 1,
        variant: e.variant as string,
        runs: num(e.runs),
        recoveredFraction: num(e.recoveredFraction),
        recoveryTimeS: num(e.recoveryTimeS),
        perceivedOutageS: num(e.perceivedOutageS),
        outageSavedS: num(e.outageSavedS),
        outageSavedRatio: num(e.outageSavedRatio),
        successRatio: num(e.successRatio),
        peakLoadMultiple: num(e.peakLoadMultiple),
        retryShareAtPeak: num(e.retryShareAtPeak),
        originalSuccessAfterFault: num(e.originalSuccessAfterFault),
        relapses: num(e.relapses),
        retryWaves: num(e.retryWaves),
        ...('longestRecovered' in e ? { longestRecovered: typeof lr === 'string' || typeof lr === 'number' ? lr : null } : {}),
      };
    }),
  }));
  return {
    baseline: v.baseline,
    at: isObj(v.at) ? valuesOf(v.at) : null,
    longestRecoveredParameter: str(v.longestRecoveredParameter),
    points,
  };
}

/** Parses timeseries.csv. Variant names cannot hold commas or quotes (the scenario schema forbids them). */
export function parseSeriesCsv(csv: string, where: string): SeriesTable {
  const lines = csv.split(/\r?\n/).filter((l) => l.length > 0);
  if (lines.length === 0) throw new ResultsError(`${where} is empty (expected a header line)`);
  const columns = lines[0].split(',');
  if (!columns.includes('variant') || !columns.includes('t_s')) {
    if (lines.length === 1) return { columns, length: 0, text: {}, num: {} }; // no finished run
    throw new ResultsError(`${where} has no variant and t_s columns: not a retrystorm timeseries.csv`);
  }
  const n = lines.length - 1;
  const text: Record<string, string[]> = { variant: new Array(n) };
  const nums: Record<string, Float64Array> = {};
  for (const c of columns) if (c !== 'variant') nums[c] = new Float64Array(n);
  const vi = columns.indexOf('variant');
  for (let r = 0; r < n; r++) {
    const cells = lines[r + 1].split(',');
    if (cells.length !== columns.length) throw new ResultsError(`${where}:${r + 2}: ${cells.length} cells, but the header has ${columns.length}`);
    for (let c = 0; c < columns.length; c++) {
      if (c === vi) text.variant[r] = cells[c];
      else nums[columns[c]][r] = cells[c] === '' ? NaN : Number(cells[c]);
    }
  }
  return { columns, length: n, text, num: nums };
}

function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function loadResults(dir: string): Results {
  if (!existsSync(dir)) throw new ResultsError(`${dir}: no such folder`);
  if (!statSync(dir).isDirectory()) throw new ResultsError(`${dir} is a file; give the folder that holds summary.json`);
  const summaryPath = join(dir, 'summary.json');
  const summaryText = readText(summaryPath);
  if (summaryText === null) throw new ResultsError(`${dir} has no summary.json: give the folder written by "retrystorm run --out"`);
  let s: unknown;
  try {
    s = JSON.parse(summaryText);
  } catch (e) {
    throw new ResultsError(`${summaryPath} is not valid JSON (${(e as Error).message})`);
  }
  if (!isObj(s) || !Array.isArray(s.variants) || !s.variants.every((v) => isObj(v) && typeof v.name === 'string')) {
    throw new ResultsError(`${summaryPath} is not a retrystorm summary (no list of named variants)`);
  }
  const horizonS = num(s.horizonS);
  if (horizonS === null) throw new ResultsError(`${summaryPath} has no horizonS`);

  const scenarioSource = readText(join(dir, 'scenario.yaml'));
  let scenarioRaw: Obj | null = null;
  try {
    const parsed: unknown = scenarioSource === null ? null : parseYaml(scenarioSource, { maxAliasCount: 100 });
    scenarioRaw = isObj(parsed) ? parsed : null;
  } catch {
    scenarioRaw = null; // shown as written; only the settings and fault windows it would give are lost
  }
  const csvText = readText(join(dir, 'timeseries.csv'));
  const sweepParams = !isObj(s.sweep) ? null
    : Array.isArray(s.sweep.parameters) ? s.sweep.parameters.filter((p): p is string => typeof p === 'string')
    : typeof s.sweep.parameter === 'string' ? [s.sweep.parameter] : null;
  const settings: Record<string, number> = {};
  if (isObj(s.measureSettings)) for (const [k, v] of Object.entries(s.measureSettings)) if (typeof v === 'number') settings[k] = v;

  return {
    dir,
    scenario: str(s.scenario) ?? str(scenarioRaw?.name) ?? '(unnamed scenario)',
    question: str(s.question) ?? str(scenarioRaw?.question),
    description: str(s.description) ?? str(scenarioRaw?.description),
    partial: s.partial === true,
    runsPlanned: num(s.runsPlanned),
    runsFinished: num(s.runsFinished),
    failedRuns: Array.isArray(s.failedRuns) ? s.failedRuns.length : num(s.failedRuns) ?? 0,
    horizonS,
    bucketS: num(s.bucketS) ?? horizonS / 1000,
    seeds: Array.isArray(s.seeds) ? s.seeds.filter((x): x is number => typeof x === 'number') : [],
    measureSettings: settings,
    sweep: sweepParams && sweepParams.length > 0 ? { parameters: sweepParams } : null,
    expectations: expectationsOf(s.expectations),
    ranking: rankingOf(s.ranking),
    variants: (s.variants as Obj[]).map((v) => variantOf(v, scenarioRaw, s.sweep, sweepParams)),
    series: csvText === null ? null : parseSeriesCsv(csvText, join(dir, 'timeseries.csv')),
    scenarioSource,
    scenarioRaw,
  };
}

/**
 * The sweep point the single-point charts draw (time series, fault shading, attempts per
 * action): the one the ranking reads when `compare.at` names one, so the charts show the
 * story the verdict is about; otherwise the first point.
 */
export function featuredPoint(r: Results): PointResult | undefined {
  const ranked = r.ranking?.at && r.ranking.points.length === 1 ? r.ranking.points[0].point : undefined;
  // Any variant that ran the point will do (the first may have none after an interrupt).
  const at = ranked === undefined ? undefined : r.variants.map((v) => v.points.find((p) => p.index === ranked)).find((p) => p !== undefined);
  return at ?? r.variants[0]?.points[0];
}

/** A variant's result at the featured point (falls back to its first point). */
export function atFeatured(v: VariantResult, featured: PointResult | undefined): PointResult | undefined {
  return (featured ? v.points.find((p) => p.index === featured.index) : undefined) ?? v.points[0];
}
