/**
 * timeseries.openmetrics.txt against the OpenMetrics 1.0 text format, read by a strict line
 * grammar written here from the spec's ABNF and rules (no npm package parses OpenMetrics
 * strictly: parse-prometheus-text-format reads the older Prometheus format and accepts what
 * OpenMetrics forbids), and, where a `promtool` is on PATH (or PROMTOOL names one), by
 * Prometheus' own backfill. Then the samples read back are the CSVs' cells: the same series,
 * values (in base units) and timestamps, only all-zero series left out; and past the sample
 * budget the file leaves out what it says it leaves out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamily, seriesOpenMetrics, METRIC_PREFIX } from '../../src/results/openmetrics.js';
import type { SeriesTable } from '../../src/results/series.js';
import type { ColumnInfoResult } from '../../src/results/results.js';
import { cleanupFixtures, full, tempDir, type Fixture } from '../report/fixtures.js';

interface Family { name: string; type: string; unit?: string; help?: string; samples: Array<{ name: string; labels: Record<string, string>; value: number; ts: number }> }

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
// realnumber of the ABNF (no inf/nan here: the file writes none).
const REAL = /^[+-]?(?:\d+(?:\.\d*)?(?:e[+-]?\d+)?|\d*\.\d+(?:e[+-]?\d+)?)$/;
// An escaped-string: any character but line feed, double quote and backslash, or an escape.
const ESCAPED = /^(?:[^\n"\\]|\\[n"\\])*$/;

const unescape = (s: string) => s.replace(/\\(n|"|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** Parses a label set `{a="x",b="y"}` strictly; returns the labels and the rest of the line. */
function labelsOf(text: string, line: number): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  if (!text.startsWith('{')) return { labels, rest: text };
  let i = 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: label name "${name}"`);
    if (Object.hasOwn(labels, name)) throw new Error(`line ${line}: label ${name} twice`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value not quoted`);
    let j = eq + 2;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    const raw = text.slice(eq + 2, j);
    if (!ESCAPED.test(raw)) throw new Error(`line ${line}: label value ${raw}`);
    labels[name] = unescape(raw);
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } after a label`);
  }
  return { labels, rest: text.slice(i + 1) };
}

/**
 * A strict reader of an OpenMetrics text exposition, for what this file uses (gauges and an
 * info): throws on the first line the spec forbids.
 */
function parseOpenMetrics(text: string): Family[] {
  if (text.includes('\r')) throw new Error('carriage return');
  if (!text.endsWith('# EOF\n')) throw new Error('does not end with "# EOF\\n"');
  const lines = text.slice(0, -1).split('\n');
  expect(lines.pop()).toBe('# EOF');
  const families: Family[] = [];
  const seen = new Set<string>();
  let fam: Family | undefined;
  const metricsDone = new Set<string>(); // label sets of the current family already ended
  let lastKey = '';
  let lastTs = -Infinity;
  lines.forEach((l, k) => {
    const n = k + 1;
    const meta = /^# (TYPE|UNIT|HELP) (\S+) ?(.*)$/.exec(l);
    if (l.startsWith('#')) {
      if (!meta) throw new Error(`line ${n}: a # line that is not TYPE, UNIT or HELP: ${l}`);
      const [, what, name, rest] = meta;
      if (!METRIC_NAME.test(name)) throw new Error(`line ${n}: metric name ${name}`);
      if (what === 'TYPE') {
        if (seen.has(name)) throw new Error(`line ${n}: family ${name} again (families must not be interleaved)`);
        if (!['gauge', 'info', 'counter', 'stateset', 'histogram', 'gaugehistogram', 'summary', 'unknown'].includes(rest)) throw new Error(`line ${n}: type ${rest}`);
        seen.add(name);
        fam = { name, type: rest, samples: [] };
        families.push(fam);
        metricsDone.clear();
        lastKey = '';
        return;
      }
      if (!fam || fam.name !== name || fam.samples.length > 0) throw new Error(`line ${n}: ${what} for ${name} outside its family's metadata`);
      if (what === 'UNIT') {
        if (fam.unit !== undefined || fam.help !== undefined) throw new Error(`line ${n}: UNIT twice or after HELP`);
        if (!name.endsWith(`_${rest}`)) throw new Error(`line ${n}: unit ${rest} is not the suffix of ${name}`);
        fam.unit = rest;
      } else {
        if (fam.help !== undefined) throw new Error(`line ${n}: HELP twice`);
        if (!/^(?:[^\n\\]|\\[n"\\])*$/.test(rest)) throw new Error(`line ${n}: HELP escaping`);
        fam.help = unescape(rest);
      }
      return;
    }
    if (!fam) throw new Error(`line ${n}: a sample before any TYPE`);
    const m = /^([^{ ]+)(.*)$/.exec(l)!;
    const name = m[1];
    const expected = fam.type === 'info' ? `${fam.name}_info` : fam.type === 'counter' ? `${fam.name}_total` : fam.name;
    if (name !== expected) throw new Error(`line ${n}: sample ${name} in family ${fam.name} of type ${fam.type}`);
    const { labels, rest } = labelsOf(m[2], n);
    const parts = rest.split(' ');
    if (parts.length !== 3 || parts[0] !== '') throw new Error(`line ${n}: expected " value timestamp" after the labels: "${rest}"`);
    const [, value, ts] = parts;
    if (!REAL.test(value)) throw new Error(`line ${n}: value ${value}`);
    if (!REAL.test(ts)) throw new Error(`line ${n}: timestamp ${ts}`);
    const key = JSON.stringify(labels);
    if (key !== lastKey) {
      // Metrics must not be interleaved: a label set, once left, does not come back.
      if (metricsDone.has(key)) throw new Error(`line ${n}: metric ${key} interleaved`);
      if (lastKey) metricsDone.add(lastKey);
      lastKey = key;
      lastTs = -Infinity;
    }
    if (!(Number(ts) > lastTs)) throw new Error(`line ${n}: timestamp ${ts} not after ${lastTs}`);
    lastTs = Number(ts);
    if (fam.type === 'gauge' && /_(total|created|count|sum|bucket|gcount|gsum|info)$/.test(fam.name)) throw new Error(`line ${n}: gauge named with a reserved suffix`);
    fam.samples.push({ name, labels, value: Number(value), ts: Number(ts) });
  });
  return families;
}

/** What the CSV says for a family: the rows of every series that is not zero throughout, in table order. */
function expectedSamples(t: SeriesTable, c: ColumnInfoResult, scale: number, scenario: string): Array<{ labels: Record<string, string>; value: number; ts: number }> {
  const key = (r: number) => `${t.variant[r]}|${t.point[r]}|${t.seed[r]}|${t.population?.[r] ?? ''}`;
  const rowsOf = new Map<string, number[]>();
  for (let r = 0; r < t.rows; r++) {
    const rows = rowsOf.get(key(r)) ?? [];
    rows.push(r);
    rowsOf.set(key(r), rows);
  }
  const out: Array<{ labels: Record<string, string>; value: number; ts: number }> = [];
  for (const rows of rowsOf.values()) {
    const v = t.num[c.name];
    if (rows.every((r) => v[r] === 0 || Number.isNaN(v[r]))) continue;
    for (const r of rows) {
      if (Number.isNaN(v[r])) continue;
      const labels: Record<string, string> = { scenario, variant: t.variant[r], point: String(t.point[r]), seed: String(t.seed[r]) };
      if (t.population) labels.population = t.population[r];
      out.push({ labels, value: v[r] * scale, ts: t.num.t_s[r] });
    }
  }
  return out;
}

let f: Fixture;
let text: string;
beforeAll(async () => {
  f = await full();
  text = readFileSync(join(f.dir, 'timeseries.openmetrics.txt'), 'utf8');
});
afterAll(cleanupFixtures);

describe('timeseries.openmetrics.txt', () => {
  it('is an OpenMetrics text exposition: metadata, gauges with base units, timestamps in order, # EOF', () => {
    const families = parseOpenMetrics(text);
    expect(families[0]).toMatchObject({ name: 'retrystorm_export', type: 'info' });
    for (const fam of families.slice(1)) {
      expect(fam.name.startsWith(METRIC_PREFIX)).toBe(true);
      expect(fam.type).toBe('gauge');
      expect(fam.help).toBeTruthy();
    }
    const byName = new Map(families.map((x) => [x.name, x]));
    expect(byName.get('retrystorm_latency_p99_seconds')?.unit).toBe('seconds');
    expect(byName.get('retrystorm_success_ratio')?.unit).toBe('ratio');
    expect(byName.get('retrystorm_retry_share_ratio')?.unit).toBe('ratio');
    expect(byName.get('retrystorm_wasted_work_seconds')?.unit).toBe('seconds');
    expect(byName.get('retrystorm_attempts')?.unit).toBeUndefined();
    expect(byName.has('retrystorm_t_s')).toBe(false);
    expect(byName.get('retrystorm_population_attempts')!.samples[0].labels).toEqual({ scenario: 'full', variant: 'retries', point: '0', seed: '1', population: 'app' });
  });

  it('holds the CSVs\' cells: every series not zero throughout, values in base units, each at its bucket\'s start', () => {
    const families = new Map(parseOpenMetrics(text).map((x) => [x.name, x]));
    const r = f.bundle.results;
    expect(families.get('retrystorm_export')!.samples).toEqual([{ name: 'retrystorm_export_info', labels: { scenario: 'full', runs: '18', runs_written: '18', seeds: 'all', populations: 'written' }, value: 1, ts: 0 }]);
    let total = 0;
    for (const [t, columns, prefix] of [[f.bundle.series, r.columns.run, METRIC_PREFIX], [f.bundle.populationSeries, r.columns.population, `${METRIC_PREFIX}population_`]] as const) {
      for (const c of columns) {
        const fam = metricFamily(prefix, c);
        if (!fam) continue;
        const got = families.get(fam.name);
        expect(got, fam.name).toBeDefined();
        const want = expectedSamples(t, c, fam.scale, 'full');
        expect(got!.samples.length, fam.name).toBe(want.length);
        // One comparison per family (an expect per sample would be most of the test's time).
        const wrong = got!.samples.filter((s, i) => JSON.stringify(s.labels) !== JSON.stringify(want[i].labels) || s.ts !== want[i].ts
          // ms to seconds: the 6 significant digits the CSV keeps, divided by 1000.
          || Math.abs(s.value - want[i].value) > 1e-12 * Math.max(1, Math.abs(want[i].value)));
        expect(wrong, fam.name).toEqual([]);
        total += want.length;
      }
    }
    // Something of each kind is there, and some all-zero series (causes that never happened) are not.
    expect(families.get('retrystorm_fail_timeout')!.samples.length).toBeGreaterThan(0);
    expect(families.get('retrystorm_population_dead_lettered')!.samples.every((s) => s.labels.population === 'worker')).toBe(true);
    expect(families.get('retrystorm_fail_challenged')!.samples).toEqual([]);
    expect(text.split('\n').filter((l) => l && !l.startsWith('#')).length).toBe(total + 1);
  });

  it('within its sample budget: leaves out the populations, then every seed but the first, and says so', () => {
    const all = parseOpenMetrics(text).reduce((n, x) => n + x.samples.length, 0) - 1;
    const runOnly = parseOpenMetrics(text).filter((x) => x.type === 'gauge' && !x.name.startsWith('retrystorm_population_')).reduce((n, x) => n + x.samples.length, 0);
    // The budget is named in the export info's HELP; the rest is the same bytes.
    const withoutHelp = (x: string) => x.replace(/^# HELP retrystorm_export .*\n/m, '');
    expect(withoutHelp(seriesOpenMetrics(f.bundle, all))).toBe(withoutHelp(text));

    const noPopulations = parseOpenMetrics(seriesOpenMetrics(f.bundle, all - 1));
    expect(noPopulations[0].samples[0].labels).toMatchObject({ runs: '18', runs_written: '18', seeds: 'all', populations: 'left out' });
    expect(noPopulations.filter((x) => x.name.startsWith('retrystorm_population_')).every((x) => x.samples.length === 0)).toBe(true);
    expect(noPopulations.reduce((n, x) => n + x.samples.length, 0) - 1).toBe(runOnly);

    // A third of the run samples: seed 1 of each of the 9 cells (half the runs) does not fit either; whole runs, in order, while they fit.
    const budget = Math.floor(runOnly / 3);
    const firstSeeds = parseOpenMetrics(seriesOpenMetrics(f.bundle, budget));
    const written = Number(firstSeeds[0].samples[0].labels.runs_written);
    expect(firstSeeds[0].samples[0].labels).toMatchObject({ runs: '18', seeds: 'first', populations: 'left out' });
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(9);
    const samples = firstSeeds.slice(1).flatMap((x) => x.samples);
    expect(samples.length).toBeLessThanOrEqual(budget);
    expect(new Set(samples.map((s) => s.labels.seed))).toEqual(new Set(['1']));
    expect(new Set(samples.map((s) => `${s.labels.variant}@${s.labels.point}`)).size).toBe(written);
  });

  it('escapes label values and help text', () => {
    const t = f.bundle.series;
    const odd: SeriesTable = { ...t, variant: t.variant.map((v) => `${v} "b" \\ c\nd\r`) };
    const parsed = parseOpenMetrics(seriesOpenMetrics({ results: { scenario: 'x"\\\n', columns: { run: f.bundle.results.columns.run.map((c) => ({ ...c, doc: `${c.doc} back\\slash\nnew line` })), population: [] } }, series: odd, populationSeries: { ...f.bundle.populationSeries, rows: 0 } }));
    const attempts = parsed.find((x) => x.name === 'retrystorm_attempts')!;
    expect(attempts.samples[0].labels).toMatchObject({ scenario: 'x"\\\n', variant: 'retries "b" \\ c\nd' });
    expect(attempts.help).toMatch(/back\\slash\nnew line/);
  });

  // Prometheus' own reader, where one is installed (Debian's prometheus package has promtool).
  const promtool = process.env.PROMTOOL ?? ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));
  it.skipIf(!promtool)('promtool tsdb create-blocks-from openmetrics reads every sample of it', () => {
    const dir = tempDir('rs-promtool-');
    const file = join(dir, 'series.txt');
    writeFileSync(file, text);
    const out = execFileSync(promtool!, ['tsdb', 'create-blocks-from', 'openmetrics', file, join(dir, 'tsdb')], { encoding: 'utf8' });
    // BLOCK ULID  MIN TIME  MAX TIME  DURATION  NUM SAMPLES  NUM CHUNKS  NUM SERIES  SIZE
    const samples = out.trim().split('\n').slice(1).reduce((n, l) => n + Number(l.trim().split(/\s+/)[4]), 0);
    expect(samples).toBe(text.split('\n').filter((l) => l && !l.startsWith('#')).length);
  });
});
