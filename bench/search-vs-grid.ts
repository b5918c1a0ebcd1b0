/**
 * The cliff search against a grid that reaches the same precision, on one variant of a
 * scenario with a `search:` block (issue 15: "the search spends at most half the runs of a
 * grid that reaches the same precision on the flagship's as-is variant"). Not a test: it runs
 * the flagship's world for a few minutes and reports both counts.
 *
 * The grid is the fair one: values every `width` over the search's range, where `width` is the
 * width of the interval the search reached; at each value, seeds in looks of 4 (the search's
 * look) until the same rule decides the value's side (design.ts decideSide: Wilson at 99%
 * wholly above or below the level) or 32 seeds are spent (the search's cap). Both use the
 * experiment's seed + 0, 1, 2, ... at every value, so a value both try sees the same runs.
 *
 *   npm run build && node dist/bench/search-vs-grid.js [--scenario scenarios/retry-storm-cliffs.yaml] [--variant as-is] [--workers 2]
 */
import { loadavg } from 'node:os';
import { loadScenarioFile } from '../src/scenario/load.js';
import { writeValue } from '../src/scenario/search-apply.js';
import { runSearch } from '../src/experiment/search/run-search.js';
import { DEFAULT_DESIGN, decideSide, type Side } from '../src/experiment/search/design.js';
import { openTaskPool } from '../src/experiment/pool.js';
import type { RunTask } from '../src/experiment/worker.js';
import type { RunResult } from '../src/experiment/run-one.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const file = arg('scenario', 'scenarios/retry-storm-cliffs.yaml');
const variant = arg('variant', 'as-is');
const workers = Number(arg('workers', '2'));

const loaded = loadScenarioFile(file);
const search = loaded.search;
if (!search) throw new Error(`${file} has no search: block`);
const one = { ...loaded, variants: loaded.variants.filter((v) => v.name === variant) };
if (one.variants.length !== 1) throw new Error(`no variant "${variant}" in ${file}`);
const seed = loaded.base.seed;
const show = (v: number | null): string => (v === null ? '-' : String(writeValue(search.kind, v)));

const t0 = Date.now();
const found = (await runSearch(one, search, { workers, seed })).variants[0].result;
const searchS = (Date.now() - t0) / 1000;
const { lo, hi } = found.interval;
console.log(`search: ${found.runs} runs, interval ${show(lo)}..${show(hi)} (${found.crossing}, stopped by ${found.stoppedBy}), ${searchS.toFixed(0)} s wall, load ${loadavg()[0].toFixed(1)}`);
if (lo === null || hi === null) throw new Error('the search did not bracket the crossing inside the range: nothing to compare');
const width = hi - lo;

// The grid: every `width` from the range's start, its end included.
const values: number[] = [];
for (let v = search.from; v < search.to - 1e-9; v += width) values.push(v);
values.push(search.to);

const abort = new AbortController();
const pool = openTaskPool(workers, abort.signal);
let nextIndex = 0;
const t1 = Date.now();
const tallies = await Promise.all(values.map(async (value) => {
  const scenario = loaded.scenarioAt(variant, search, value);
  let recovered = 0, runs = 0;
  let side: Side = 'open';
  while (side === 'open' && runs < DEFAULT_DESIGN.maxSeedsPerValue) {
    const tasks: RunTask[] = Array.from({ length: DEFAULT_DESIGN.seedsPerLook }, (_, k) => ({ index: nextIndex++, variant, point: 0, seed: seed + runs + k, scenario }));
    const results = new Map<RunTask, RunResult>();
    await pool.run(tasks, { onResult: (t, r) => results.set(t, r), onError: (t, e) => { throw new Error(`${show(value)}, seed ${t.seed}: ${e.message}`); } });
    for (const t of tasks) if (results.get(t)!.summary.measures.recovered === 1) recovered++;
    runs += tasks.length;
    side = decideSide(recovered, runs, search.level, found.direction, DEFAULT_DESIGN.decisionConfidence);
  }
  return { value, recovered, runs, side };
}));
await pool.close();
const gridS = (Date.now() - t1) / 1000;
const gridRuns = tallies.reduce((n, t) => n + t.runs, 0);
const after = tallies.find((t) => t.side === 'after');
const before = [...tallies].reverse().find((t) => t.side === 'before' && (!after || t.value < after.value));
console.log(`grid: ${values.length} values every ${show(width)}, ${gridRuns} runs, interval ${show(before?.value ?? null)}..${show(after?.value ?? null)}, ${gridS.toFixed(0)} s wall, load ${loadavg()[0].toFixed(1)}`);
for (const t of tallies) console.log(`  ${show(t.value).padStart(8)}  ${t.recovered}/${t.runs} recovered  ${t.side}`);
console.log(`search / grid runs: ${found.runs} / ${gridRuns} = ${(found.runs / gridRuns).toFixed(2)}`);
