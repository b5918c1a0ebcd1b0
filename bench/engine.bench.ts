/**
 * The engine benchmark (not a test: these machines are noisy, so it reports medians and
 * leaves judging to people). It runs the reference model (bench/reference-model.ts, read
 * from scenarios/reference-storm.yaml) as a storm (1 h) and, without the outage, as a
 * stable system (1 h and 10 h). Each run is a process of its own, so that its peak RSS is
 * its own.
 *
 * Usage (from compiled JS; `npm run bench --` builds first and passes the flags on):
 *   node dist/bench/engine.bench.js [--reps 3]
 *       one table: events, attempts, wall time and peak RSS per case (medians)
 *   node dist/bench/engine.bench.js --vs-reference [--pairs 5] [--cases storm-1h,stable-1h]
 *                                   [--reference ../shared/bench/reference-loop.js]
 *       paired whole-process runs against a hand-written loop of the same model, alternating
 *       ours and theirs (A B A B ...), and the speed and memory ratios of each case
 *   node dist/bench/engine.bench.js --case storm-1h [--general]
 *       one case in this process, as JSON (what the two modes above spawn); --general runs
 *       it through the general model instead of the plain world (src/model/plain/)
 */
import { fileURLToPath } from 'node:url';
import { simulate } from '../src/model/simulate.js';
import { handLoopArgs, handLoopPath, referenceScenario, type ReferenceCase } from './reference-model.js';
import { flag, wholeNumber } from './args.js';
import { loadAverages, median, runNode, spread, type ProcessRun } from './whole-process.js';

const CASES: Record<string, ReferenceCase> = {
  'storm-1h': { horizonS: 3600, outage: true },
  'stable-1h': { horizonS: 3600, outage: false },
  'stable-10h': { horizonS: 36000, outage: false },
};

/** What one case reports from inside its process. */
interface Measured {
  case: string;
  events: number;
  attempts: number;
  /** The simulation alone, without start-up and loading the scenario. */
  wallS: number;
  attemptsPerS: number;
  eventsPerS: number;
  peakRssMiB: number;
}

/** `general`: force the general path (SimulateOptions.generalPath) instead of the plain world the reference model takes. */
function runCase(name: string, general = false): Measured {
  const c = CASES[name];
  if (!c) throw new Error(`unknown case ${name}: one of ${Object.keys(CASES).join(', ')}`);
  const scenario = referenceScenario(c);
  const t0 = performance.now();
  const record = simulate(scenario, 1, { generalPath: general });
  const wallS = (performance.now() - t0) / 1000;
  return {
    case: name,
    events: record.totals.eventsProcessed,
    attempts: record.totals.attempts,
    wallS,
    attemptsPerS: record.totals.attempts / wallS,
    eventsPerS: record.totals.eventsProcessed / wallS,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const SELF = fileURLToPath(import.meta.url);

function table(args: string[]): void {
  const reps = wholeNumber(args, '--reps', 3);
  console.log(`retrystorm engine benchmark: ${reps} runs per case, each in its own process (node ${process.version}, load ${loadAverages()})`);
  console.log('case         events        attempts      wall s   attempts/s   events/s     peak RSS MiB');
  const rss: Record<string, number> = {};
  for (const name of Object.keys(CASES)) {
    const rs: Measured[] = [];
    for (let r = 0; r < reps; r++) rs.push(JSON.parse(runNode([SELF, '--case', name]).stdout) as Measured);
    const med = (f: (m: Measured) => number) => median(rs.map(f));
    rss[name] = med((m) => m.peakRssMiB);
    console.log(
      [
        name.padEnd(12),
        String(rs[0].events).padEnd(13),
        String(rs[0].attempts).padEnd(13),
        med((m) => m.wallS).toFixed(2).padEnd(8),
        Math.round(med((m) => m.attemptsPerS)).toLocaleString('en-US').padEnd(12),
        Math.round(med((m) => m.eventsPerS)).toLocaleString('en-US').padEnd(12),
        rss[name].toFixed(0),
      ].join(' '),
    );
  }
  console.log(`\nmedians over ${reps} runs (wall s is the simulation alone); stable peak RSS 10h / 1h = ${(rss['stable-10h'] / rss['stable-1h']).toFixed(2)}; load after ${loadAverages()}`);
}

// ── Paired against the hand-written loop ─────────────────────────────────────────────────

/** The reference loop prints one JSON summary line on stderr; we read its attempt count. */
function referenceAttempts(run: ProcessRun): number {
  const line = run.stderr.split('\n').find((l) => l.startsWith('{'));
  const n = line ? (JSON.parse(line) as { attempts?: unknown }).attempts : undefined;
  if (typeof n !== 'number') throw new Error(`the reference loop printed no attempt count:\n${run.stderr}`);
  return n;
}

function vsReference(args: string[]): void {
  const pairs = wholeNumber(args, '--pairs', 5);
  const reference = handLoopPath(flag(args, '--reference'));
  const cases = (flag(args, '--cases') ?? 'storm-1h,stable-1h').split(',');
  for (const name of cases) if (!CASES[name]) throw new Error(`unknown case ${name}: one of ${Object.keys(CASES).join(', ')}`);

  console.log(`paired whole-process runs, ours (A) and the hand-written loop (B) alternating A B A B, ${pairs} pairs per case after one warm-up pair`);
  console.log(`A: node ${fileURLToPath(new URL('.', import.meta.url))}engine.bench.js --case CASE`);
  console.log(`B: node ${reference} ${handLoopArgs(CASES[cases[0]]).join(' ')}   (--down 0:0 for a stable case)`);
  console.log(`node ${process.version}; ${new Date().toISOString()}; load average before ${loadAverages()}`);
  for (const name of cases) {
    const c = CASES[name];
    const ours = () => runNode([SELF, '--case', name]);
    const theirs = () => runNode([reference, ...handLoopArgs(c)]);
    ours();
    theirs();
    const a: ProcessRun[] = [];
    const b: ProcessRun[] = [];
    for (let i = 0; i < pairs; i++) {
      a.push(ours());
      b.push(theirs());
    }
    // Speed relative to the hand loop, pair by pair: their wall time over ours (1 = as fast).
    const speed = a.map((x, i) => b[i].wallS / x.wallS);
    const memory = a.map((x, i) => x.peakRssMiB / b[i].peakRssMiB);
    const ourAttempts = (JSON.parse(a[0].stdout) as Measured).attempts;
    const theirAttempts = referenceAttempts(b[0]);
    console.log(`\n${name}: load average after ${loadAverages()}`);
    console.log(`  wall s        ours ${spread(a.map((x) => x.wallS))}   hand loop ${spread(b.map((x) => x.wallS))}   median (min-max)`);
    console.log(`  peak RSS MiB  ours ${spread(a.map((x) => x.peakRssMiB), 0)}   hand loop ${spread(b.map((x) => x.peakRssMiB), 0)}`);
    console.log(`  speed relative to the hand loop (their wall / ours, per pair): median ${median(speed).toFixed(2)}x; pairs ${speed.map((r) => r.toFixed(2)).join(' ')}`);
    console.log(`  peak RSS relative to the hand loop (ours / theirs, per pair): median ${median(memory).toFixed(2)}x`);
    console.log(`  attempts: ours ${ourAttempts.toLocaleString('en-US')}, hand loop ${theirAttempts.toLocaleString('en-US')} (${(((ourAttempts - theirAttempts) / theirAttempts) * 100).toFixed(2)}%)`);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const only = flag(args, '--case');
  if (only !== undefined) process.stdout.write(JSON.stringify(runCase(only, args.includes('--general'))) + '\n');
  else if (args.includes('--vs-reference')) vsReference(args);
  else table(args);
}

try {
  main();
} catch (e) {
  process.stderr.write(`engine benchmark: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
