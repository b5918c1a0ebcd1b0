/**
 * timeseries.openmetrics.txt: the time series of timeseries.csv and populations.csv as an
 * OpenMetrics 1.0 text exposition with explicit timestamps, for Prometheus' backfill
 * (`promtool tsdb create-blocks-from openmetrics`) and so for Grafana. It exists beside the
 * CSVs because a monitoring stack reads neither CSV nor summary.json, and a team compares a
 * simulated storm with its own dashboards in the tool those dashboards live in.
 *
 * What the spec asks and how it is met here:
 * - one MetricFamily per column, never interleaved: TYPE, UNIT (where the column has a base
 *   unit), HELP, then every sample of that column, run after run, each run's buckets in time
 *   order (a Metric's points contiguous and increasing);
 * - every column is a gauge: its values are per bucket (a count of the bucket, a level
 *   averaged over it), not running totals, so `counter` and its `_total` would be a lie;
 * - base units, with the unit as the name's suffix: milliseconds become `_seconds` (values
 *   divided by 1000), slot-seconds `_seconds` (as CPU-seconds are), shares `_ratio`;
 * - timestamps in seconds: simulated time from the start of the run, i.e. from the Unix
 *   epoch (1970-01-01T00:00:00Z). No wall clock: the same results give the same bytes;
 * - labels scenario, variant, point (sweep point index), seed, and population for the
 *   population families (`retrystorm_population_*`: kept apart from the run's families, which
 *   count every population, so that a sum over the labels does not count twice);
 * - the exposition ends with `# EOF` and a line feed.
 *
 * Kept bounded, because the file is one string in memory and a sample line costs ~120 bytes
 * where a CSV cell costs ~5: a series that is zero or empty in every bucket of its run (a
 * failure cause that never happened, a dead-letter queue the scenario does not have) is left
 * out, as an exporter exposes no series for what never occurred; and beyond
 * OPENMETRICS_MAX_SAMPLES the population series, then every seed but each cell's first, are
 * left out (seriesOpenMetrics says the order). The first family, `retrystorm_export`, says
 * what the file holds; the CSVs always hold everything.
 */
import { round6 } from './numbers.js';
import type { SeriesTable } from './series.js';
import type { ColumnInfoResult, Results } from './results.js';

/** Every family's name starts with this, so the simulator's series never mix with a live system's. */
export const METRIC_PREFIX = 'retrystorm_';

/** A column's MetricFamily: its name, OpenMetrics unit (none for counts, levels, multiples and rates) and the factor to that unit. */
export interface MetricFamily {
  column: string;
  name: string;
  unit?: 'seconds' | 'ratio';
  scale: number;
  help: string;
}

/** How a column is exposed, or undefined for the bucket's start (t_s), which is every sample's timestamp. */
export function metricFamily(prefix: string, c: ColumnInfoResult): MetricFamily | undefined {
  if (c.name === 't_s') return undefined;
  const per = c.unit === 'count' ? ' Counted per bucket (the sample\'s timestamp is the bucket\'s start; summary.json gives the bucket width).' : '';
  switch (c.unit) {
    case 'ms':
      return { column: c.name, name: `${prefix}${c.name.replace(/_ms$/, '')}_seconds`, unit: 'seconds', scale: 1 / 1000, help: `${c.doc} In seconds (${c.name} in the CSV is in ms).` };
    case 'slot-seconds':
    case 'seconds':
      return { column: c.name, name: `${prefix}${c.name.replace(/_s$/, '')}_seconds`, unit: 'seconds', scale: 1, help: c.unit === 'slot-seconds' ? `${c.doc} In slot-seconds (seconds of one slot's time, summed as CPU-seconds are).` : c.doc };
    case 'share':
      return { column: c.name, name: `${prefix}${c.name.replace(/_ratio$/, '')}_ratio`, unit: 'ratio', scale: 1, help: `${c.doc} A ratio between 0 and 1.` };
    case 'rate':
      return { column: c.name, name: `${prefix}${c.name.replace(/_per_s$/, '_per_second')}`, scale: 1, help: `${c.doc} Per second, averaged over the bucket.` };
    default:
      return { column: c.name, name: `${prefix}${c.name}`, scale: 1, help: c.doc + per };
  }
}

/**
 * Escapes a label value (backslash, double quote, line feed, as the ABNF says). A carriage
 * return has no escape and may not appear in the file: it is dropped (names cannot hold one;
 * this is for safety, not a case that happens).
 */
function labelValue(s: string): string {
  return s.replace(/\r/g, '').replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Escapes HELP text (a line feed would end the line; a backslash would start an escape). */
function helpText(s: string): string {
  return s.replace(/\r/g, '').replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A number as OpenMetrics reads it: JavaScript's shortest round-trip form ("12", "0.0123", "1e-7") is within its realnumber grammar. */
const num = (x: number): string => String(x);

/** One series of a table: the rows of one run (and population), contiguous, buckets in time order. */
interface Series {
  from: number;
  to: number;
  /** The sweep cell (variant, point) it belongs to, and its seed. */
  cell: string;
  seed: number;
  labels: string;
}

function seriesOf(t: SeriesTable, scenario: string): Series[] {
  const out: Series[] = [];
  for (let r = 0; r < t.rows; r++) {
    const same = r > 0 && t.variant[r] === t.variant[r - 1] && t.point[r] === t.point[r - 1] && t.seed[r] === t.seed[r - 1] && t.population?.[r] === t.population?.[r - 1];
    if (same) { out[out.length - 1].to = r + 1; continue; }
    const pop = t.population ? `,population="${labelValue(t.population[r])}"` : '';
    out.push({ from: r, to: r + 1, cell: `${t.variant[r]}\u0000${t.point[r]}`, seed: t.seed[r], labels: `{scenario="${labelValue(scenario)}",variant="${labelValue(t.variant[r])}",point="${t.point[r]}",seed="${t.seed[r]}"${pop}}` });
  }
  return out;
}

/** Whether a series of a column is written: some bucket holds a value other than zero. */
function shown(v: Float64Array, s: Series): boolean {
  for (let r = s.from; r < s.to; r++) if (v[r] !== 0 && !Number.isNaN(v[r])) return true;
  return false;
}

/** How many samples a series adds over every column of its table. */
function samplesOf(t: SeriesTable, columns: readonly ColumnInfoResult[], s: Series): number {
  let n = 0;
  for (const c of columns) {
    if (c.name === 't_s') continue;
    const v = t.num[c.name];
    if (!shown(v, s)) continue;
    for (let r = s.from; r < s.to; r++) if (!Number.isNaN(v[r])) n++;
  }
  return n;
}

function families(lines: string[], t: SeriesTable, columns: readonly ColumnInfoResult[], prefix: string, series: readonly Series[]): void {
  const time = t.num.t_s;
  for (const c of columns) {
    const f = metricFamily(prefix, c);
    if (!f) continue;
    lines.push(`# TYPE ${f.name} gauge`);
    if (f.unit) lines.push(`# UNIT ${f.name} ${f.unit}`);
    lines.push(`# HELP ${f.name} ${helpText(f.help)}`);
    const v = t.num[c.name];
    for (const s of series) {
      if (!shown(v, s)) continue;
      const head = f.name + s.labels + ' ';
      for (let r = s.from; r < s.to; r++) {
        // An empty cell (no latency where nothing was answered) is no sample, not NaN: the gauge had no value.
        if (Number.isNaN(v[r])) continue;
        lines.push(`${head}${num(f.scale === 1 ? v[r] : round6(v[r] * f.scale))} ${num(time[r])}`);
      }
    }
  }
}

/**
 * At most this many samples (about 60 MB at the ~120 bytes a sample line takes with its
 * labels): the file is one string in memory, and the flagship's every series would be 230 MB
 * (2.0 million samples), ten times its CSVs, for curves a dashboard draws a few of at a time.
 */
export const OPENMETRICS_MAX_SAMPLES = 500_000;

/** What the file holds of the experiment's series, chosen by the budget (see seriesOpenMetrics). */
export interface OpenMetricsContent {
  populations: boolean;
  seeds: 'all' | 'first';
  runs: number;
  runsWritten: number;
}

/**
 * The run series and the population series of one experiment, as one OpenMetrics text
 * exposition, within `maxSamples`: every series when they fit; else the run series without
 * the populations'; else the run series of each variant and point's first seed (the seed
 * every variant shares), whole runs in expansion order while they fit. The first family,
 * `retrystorm_export` (an info), says which: what was left out is in the CSVs.
 */
export function seriesOpenMetrics(b: { results: Pick<Results, 'scenario' | 'columns'>; series: SeriesTable; populationSeries: SeriesTable }, maxSamples = OPENMETRICS_MAX_SAMPLES): string {
  const { columns, scenario } = b.results;
  const run = seriesOf(b.series, scenario);
  const pop = seriesOf(b.populationSeries, scenario);
  const runSamples = run.map((s) => samplesOf(b.series, columns.run, s));
  const popSamples = pop.reduce((n, s) => n + samplesOf(b.populationSeries, columns.population, s), 0);
  const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
  let content: OpenMetricsContent;
  let runs = run, pops = pop;
  if (sum(runSamples) + popSamples <= maxSamples) content = { populations: true, seeds: 'all', runs: run.length, runsWritten: run.length };
  else if (sum(runSamples) <= maxSamples) {
    pops = [];
    content = { populations: false, seeds: 'all', runs: run.length, runsWritten: run.length };
  } else {
    pops = [];
    const first = new Map<string, number>();
    for (const s of run) if (!first.has(s.cell)) first.set(s.cell, s.seed);
    let total = 0;
    runs = [];
    for (let k = 0; k < run.length; k++) {
      if (run[k].seed !== first.get(run[k].cell)) continue;
      if (total + runSamples[k] > maxSamples) break;
      total += runSamples[k];
      runs.push(run[k]);
    }
    content = { populations: false, seeds: 'first', runs: run.length, runsWritten: runs.length };
  }
  const lines: string[] = [];
  const info = `${METRIC_PREFIX}export`;
  lines.push(`# TYPE ${info} info`);
  lines.push(`# HELP ${info} What this file holds of the experiment's time series (at most ${maxSamples} samples; timeseries.csv and populations.csv hold them all).`);
  lines.push(`${info}_info{scenario="${labelValue(scenario)}",runs="${content.runs}",runs_written="${content.runsWritten}",seeds="${content.seeds}",populations="${content.populations ? 'written' : 'left out'}"} 1 0`);
  families(lines, b.series, columns.run, METRIC_PREFIX, runs);
  families(lines, b.populationSeries, columns.population, `${METRIC_PREFIX}population_`, pops);
  lines.push('# EOF');
  return lines.join('\n') + '\n';
}
