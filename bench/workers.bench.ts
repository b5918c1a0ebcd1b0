/**
 * The worker-pool benchmark (not a test: it reports what it saw and leaves judging to
 * people, because these machines are shared and noisy). It times one experiment —
 * 2 variants x 8 seeds of a dependency-outage model at 800 actions/s on 100 slots, 20m
 * simulated, each run about 1-2 s on one core — with 1 worker and with 2 workers,
 * alternating (1, 2, 1, 2, ...) so that a burst of load from elsewhere hits both, and
 * reports the median wall time of each and the speedup of the medians, measured in this
 * one process. It also checks that every repetition wrote the same summary bytes.
 *
 * Run it from compiled JS (the pool's workers load compiled worker.js):
 *   npx tsc -p tsconfig.build.json && node dist/bench/workers.bench.js [--reps 3] [--seeds 8] [--max-workers 2] [--json]
 * The load average is printed next to each measurement: if it is well above the number of
 * cores, someone else is using the CPU and the speedup says more about them than about us.
 */
import { availableParallelism, cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { loadScenario } from '../src/scenario/load.js';
import { runExperiment } from '../src/experiment/experiment.js';
import { summaryJson } from '../src/results/summary-json.js';
import { buildResults } from '../src/results/build.js';

export const SCENARIO = `
name: bench-workers
horizon: 20m
seed: 1
seeds: 8
measures: { bucket: 10s, hold: 2m }
clients:
  app:
    clients: 50000
    arrivals: { kind: constant, rate: 800/s }
    retry:
      maxAttempts: 4
      timeout: 1s
      backoff: { kind: exponential, base: 500ms, multiplier: 2, max: 8s, jitter: full }
server:
  slots: 100
  queue: unbounded
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 5m, duration: 2m }
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 200 } }
`;

interface Options {
  reps: number;
  seeds: number;
  maxWorkers: number;
  json: boolean;
}

function options(argv: string[]): Options {
  const num = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    if (i < 0) return fallback;
    const n = Number(argv[i + 1]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number ≥ 1`);
    return n;
  };
  return { reps: num('--reps', 3), seeds: num('--seeds', 8), maxWorkers: num('--max-workers', 2), json: argv.includes('--json') };
}

// ── What the machine can do: the same busy loop on 1 thread, then on N at once ──────────

const SPIN = `
const { parentPort, workerData } = require('node:worker_threads');
let x = 0;
for (let i = 0; i < workerData; i++) x = (x + i * 2654435761) % 1000003;
parentPort.postMessage(x);
`;

function spin(iterations: number): Promise<void> {
  return new Promise((done, fail) => {
    const w = new Worker(SPIN, { eval: true, workerData: iterations });
    w.once('message', () => void w.terminate().then(() => done()));
    w.once('error', fail);
  });
}

/**
 * Work done per second by `threads` busy threads relative to one: 2.0 on two idle cores;
 * less when the cores are shared (another tenant, SMT siblings, a CPU quota). The pool's
 * speedup cannot exceed it, so it is printed next to the speedup.
 */
async function parallelCapacity(threads: number, iterations = 150_000_000): Promise<number> {
  let t0 = performance.now();
  await spin(iterations);
  const one = performance.now() - t0;
  t0 = performance.now();
  await Promise.all(Array.from({ length: threads }, () => spin(iterations)));
  const many = performance.now() - t0;
  return (threads * one) / many;
}

interface Measurement {
  rep: number;
  workers: number;
  wallS: number;
  /** Sum of the runs' own wall times: the single-threaded work the experiment holds. */
  runSecondsSum: number;
  /** CPU seconds the whole process used (every thread): cpuS / wallS is the cores it actually got. */
  cpuS: number;
  load1: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const loaded = loadScenario(SCENARIO, 'bench-workers.yaml');
  const runs = loaded.variants.length * loaded.points.length * opts.seeds;
  const workerCounts = Array.from({ length: opts.maxWorkers }, (_, i) => i + 1).filter((w) => w === 1 || w === opts.maxWorkers);
  const log = (s: string) => { if (!opts.json) console.log(s); };

  log(`workers benchmark: ${loaded.variants.length} variants x ${opts.seeds} seeds = ${runs} runs of ${loaded.base.horizon / 60}m simulated`);
  log(`machine: ${availableParallelism()} cores available (${cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}; ${opts.reps} repetitions, alternating ${workerCounts.join(', ')} worker(s)`);
  log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  const measured: Measurement[] = [];
  const capacities: number[] = [];
  let reference: string | undefined;
  for (let rep = 1; rep <= opts.reps; rep++) {
    const top = workerCounts[workerCounts.length - 1];
    if (top > 1) {
      capacities.push(await parallelCapacity(top));
      log(`  rep ${rep}  machine check: ${top} busy threads do ${capacities[capacities.length - 1].toFixed(2)}x the work of one`);
    }
    // Alternate which count goes first, so neither always runs on a warmer (or busier) machine.
    const order = rep % 2 ? workerCounts : [...workerCounts].reverse();
    for (const workers of order) {
      const load1 = loadavg()[0];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const x = await runExperiment(loaded, { workers, seeds: opts.seeds });
      const wallS = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const cpuS = (c.user + c.system) / 1e6;
      if (x.failures.length || x.partial) throw new Error(`workers ${workers}: ${x.failures.length} failed run(s), partial ${x.partial}`);
      const summary = summaryJson(buildResults(x));
      if (reference === undefined) reference = summary;
      else if (summary !== reference) throw new Error(`workers ${workers}, repetition ${rep}: summary.json differs from the first repetition`);
      const runSecondsSum = x.results.reduce((a, r) => a + (r?.wallS ?? 0), 0);
      measured.push({ rep, workers, wallS, runSecondsSum, cpuS, load1 });
      log(`  rep ${rep}  workers ${workers}: ${wallS.toFixed(2)} s wall, ${cpuS.toFixed(1)} s CPU = ${(cpuS / wallS).toFixed(2)} cores obtained (load ${load1.toFixed(2)})`);
    }
  }

  const medians = Object.fromEntries(workerCounts.map((w) => [w, median(measured.filter((m) => m.workers === w).map((m) => m.wallS))]));
  const top = workerCounts[workerCounts.length - 1];
  const speedup = medians[1] / medians[top];
  const pairRatios = Array.from({ length: opts.reps }, (_, i) => {
    const a = measured.find((m) => m.rep === i + 1 && m.workers === 1)!;
    const b = measured.find((m) => m.rep === i + 1 && m.workers === top)!;
    return a.wallS / b.wallS;
  });
  // With N workers on N idle cores each run should take as long as alone; a ratio well above
  // 1 means the workers were competing for CPU (someone else's load, shared SMT cores).
  const runSeconds = (w: number) => median(measured.filter((m) => m.workers === w).map((m) => m.runSecondsSum));
  const perRunSlowdown = runSeconds(top) / runSeconds(1);
  const cpuOf = (w: number) => median(measured.filter((m) => m.workers === w).map((m) => m.cpuS));
  const coresOf = (w: number) => median(measured.filter((m) => m.workers === w).map((m) => m.cpuS / m.wallS));
  // What the same work would take on `top` cores nobody else uses: the CPU seconds, spread evenly.
  const dedicatedEstimate = (top * cpuOf(1)) / cpuOf(top);
  const result = {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    runs,
    reps: opts.reps,
    medianWallS: medians,
    speedup,
    pairRatios,
    perRunSlowdown,
    cpuS: Object.fromEntries(workerCounts.map((w) => [w, cpuOf(w)])),
    coresObtained: Object.fromEntries(workerCounts.map((w) => [w, coresOf(w)])),
    dedicatedEstimate,
    parallelCapacity: capacities.length ? median(capacities) : null,
    loadAverageAfter: loadavg(),
    measurements: measured,
  };
  if (opts.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  log('');
  log(`median wall: ${workerCounts.map((w) => `${w} worker(s) ${medians[w].toFixed(2)} s`).join(', ')}`);
  log(`speedup (median 1 worker / median ${top} workers): ${speedup.toFixed(2)}x; per repetition: ${pairRatios.map((r) => r.toFixed(2) + 'x').join(', ')}`);
  if (capacities.length) {
    const c = median(capacities);
    log(`machine check (median): ${top} busy threads do ${c.toFixed(2)}x the work of one, so ${c.toFixed(2)}x is the most any pool can reach here; the pool reached ${((speedup / c) * 100).toFixed(0)}% of it`);
  }
  log(`cores obtained (median CPU s / wall s): ${workerCounts.map((w) => `${w} worker(s) ${coresOf(w).toFixed(2)}`).join(', ')}; CPU seconds: ${workerCounts.map((w) => `${w} worker(s) ${cpuOf(w).toFixed(1)}`).join(', ')}`);
  log(`estimate on ${top} cores nobody else uses (${top} x CPU s with 1 worker / CPU s with ${top}): ${dedicatedEstimate.toFixed(2)}x`);
  log(`time per run with ${top} workers / with 1: ${perRunSlowdown.toFixed(2)} (1.00 = the workers did not slow each other down)`);
  log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (top === 2) log(`target on a 2-core machine: at least 1.70x: ${speedup >= 1.7 ? 'met' : 'NOT met (if the load average was high, repeat when the machine is quiet)'}`);
}

await main();
