/**
 * What replaying recorded traffic costs in memory: a day of per-second Prometheus data (the
 * JSON of a range query, 86,400 values) replayed as a population's arrivals, against the same
 * scenario with constant arrivals at the trace's mean rate. Issue 36 asks the first to peak
 * within 10% of the second's resident memory (docs/benchmarks.md, "Replaying a day of traffic").
 *
 * Both scenarios are written into a temporary folder (the trace by a seeded generator, so the
 * file is byte for byte the same every time) and each run is a whole process, the built CLI
 * with the peak-RSS preload (whole-process.ts): getrusage's peak covers the main thread, where
 * the file is read, and every worker thread, which share the process. The two scenarios run
 * alternately, so a drift of the shared machine falls on both alike; the figure is the median.
 *
 * Usage (after `npm run build`; `npm run bench:trace-rss --` builds first and passes the flags on):
 *   node dist/bench/trace-rss.bench.js [--runs 3]
 * Each of the `runs` rounds runs both scenarios with 1 worker and 1 seed, then with 2 workers
 * and 4 seeds (about 1 to 2 minutes a round on 2 cores).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './reference-model.js';
import { wholeNumber } from './args.js';
import { loadAverages, median, runNode, spread } from './whole-process.js';

/** A day, one value a second. */
const SECONDS = 86_400;
/** The trace's first value: 2026-12-07T00:00:01Z (a value stands for the second that ends at it). */
const START = Date.UTC(2026, 11, 7) / 1000 + 1;

/** mulberry32: a small seeded generator, so the trace does not depend on Math.random. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The body of `/api/v1/query_range` for `sum(rate(http_requests_total[1m]))` over a day at a
 * 1 s step: a daily curve about 20 requests/s (quiet at night, peaks late morning and evening)
 * with noise, written with three decimals as Prometheus writes a rate. Returns the JSON and
 * the mean of its values, the constant scenario's rate.
 */
function prometheusDay(): { json: string; meanPerS: number } {
  const rng = mulberry32(20261207);
  const bump = (h: number, at: number, width: number) => Math.exp(-(((h - at) / width) ** 2) / 2);
  const values: string[] = [];
  let sum = 0;
  for (let s = 0; s < SECONDS; s++) {
    const h = s / 3600;
    const curve = 8 + 22 * bump(h, 11, 2.6) + 16 * bump(h, 20.5, 2.2) + 5 * bump(h, 15.5, 2);
    const v = (curve * (0.9 + 0.2 * rng())).toFixed(3);
    sum += Number(v);
    values.push(`[${START + s},"${v}"]`);
  }
  const json = `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"job":"api"},"values":[${values.join(',')}]}]}}\n`;
  return { json, meanPerS: sum / SECONDS };
}

/** The scenario around the arrivals: 24 h, 1-minute buckets, a server that keeps up, no retries to speak of. */
const scenario = (name: string, arrivals: string): string => `name: ${name}
horizon: 24h
seed: 1
seeds: 1
measures:
  bucket: 1m
clients:
  app:
    clients: 50000
    arrivals: ${arrivals}
    retry: { maxAttempts: 2, timeout: 2s, backoff: { kind: constant, base: 100ms, jitter: none } }
server:
  slots: 20
  queue: 200
  serviceTime: { kind: exponential, mean: 200ms }
`;

interface Setting {
  name: string;
  flags: string[];
}

function main(): void {
  const args = process.argv.slice(2);
  const runs = wholeNumber(args, '--runs', 3);
  const cli = join(ROOT, 'bin/retrystorm.js');
  const scratch = mkdtempSync(join(tmpdir(), 'retrystorm-trace-rss-'));
  try {
    const { json, meanPerS } = prometheusDay();
    writeFileSync(join(scratch, 'day.json'), json);
    const files = {
      trace: join(scratch, 'trace.yaml'),
      constant: join(scratch, 'constant.yaml'),
    };
    writeFileSync(files.trace, scenario('trace-day', '{ kind: trace, file: day.json, format: prometheus, values: rate }'));
    writeFileSync(files.constant, scenario('constant-day', `{ kind: constant, rate: ${meanPerS.toFixed(4)}/s }`));
    process.stdout.write(`trace: ${SECONDS} per-second values, ${(json.length / 2 ** 20).toFixed(2)} MiB of JSON, mean ${meanPerS.toFixed(3)} requests/s; constant: the same mean\n`);
    process.stdout.write(`load averages before: ${loadAverages()}\n`);

    const settings: Setting[] = [
      { name: '1 worker, 1 seed', flags: ['--workers', '1', '--seeds', '1'] },
      { name: '2 workers, 4 seeds', flags: ['--workers', '2', '--seeds', '4'] },
    ];
    for (const setting of settings) {
      const rss: Record<'trace' | 'constant', number[]> = { trace: [], constant: [] };
      const wall: Record<'trace' | 'constant', number[]> = { trace: [], constant: [] };
      for (let i = 0; i < runs; i++) {
        // Alternate which goes first, so neither always runs on a machine warmed by the other.
        const order: ('trace' | 'constant')[] = i % 2 === 0 ? ['trace', 'constant'] : ['constant', 'trace'];
        for (const which of order) {
          const out = join(scratch, `out-${which}`);
          const r = runNode([cli, 'run', files[which], '--out', out, ...setting.flags, '--quiet'], ROOT);
          rmSync(out, { recursive: true, force: true });
          rss[which].push(r.peakRssMiB);
          wall[which].push(r.wallS);
          process.stdout.write(`  ${setting.name}  ${which.padEnd(8)} run ${i + 1}: peak RSS ${r.peakRssMiB.toFixed(1)} MiB, ${r.wallS.toFixed(2)} s\n`);
        }
      }
      const ratio = median(rss.trace) / median(rss.constant);
      process.stdout.write(
        `${setting.name}: peak RSS trace ${spread(rss.trace, 1)} MiB, constant ${spread(rss.constant, 1)} MiB (median (min-max) of ${runs}); ` +
          `trace / constant ${ratio.toFixed(3)} (${ratio <= 1.1 ? 'within' : 'NOT within'} 10%); wall ${spread(wall.trace)} s against ${spread(wall.constant)} s\n`,
      );
    }
    process.stdout.write(`load averages after: ${loadAverages()}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`trace RSS benchmark: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
