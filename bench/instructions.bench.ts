/**
 * Counts the instructions one run executes, under valgrind's cachegrind: a measure of the
 * engine's work that the machine's noise does not move, for telling apart two builds whose
 * difference wall time cannot show.
 *
 * Why: on the shared machines these figures come from, one run of the same build varies by
 * 10-30% in wall time from minute to minute, and several changes to the engine were tried and
 * reverted because paired timings could not tell a 5% gain from noise (docs/benchmarks.md).
 * The simulation is bound by instructions, not by memory (cachegrind's simulated caches: 2%
 * of data reads miss the first level, almost none the last), so the count of instructions is
 * a faithful proxy for its CPU time, and it repeats to within 0.1% between runs: V8 is asked
 * to compile on the main thread (--single-threaded), so what it compiles, and when, is the
 * same every time.
 *
 * A run is counted twice: as asked, and with a horizon of one second (loading the scenario,
 * the modules and the start of the run). The difference is the simulation's own work, its
 * compilation by V8 included; it is printed per event too.
 *
 * Usage (after `npm run build`; needs valgrind, which Debian's package of that name provides):
 *   node dist/bench/instructions.bench.js [--scenario scenarios/retry-storm.yaml]
 *       [--variant as-is] [--point 5] [--horizon 7200] [--against DIR]
 * --point is the sweep point's index (5: the flagship's 12-minute outage); --horizon is in
 * seconds (the flagship's storm, as-is at 12 minutes over 2 h: about 2.4 M events and half a
 * minute under valgrind); --against DIR counts the same run with the build in DIR (another
 * checkout, built) and prints the ratio.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './args.js';
import { ROOT } from './reference-model.js';

/** What the counted process prints: the run's events. */
interface Counted {
  events: number;
}

/** In the counted process: loads the scenario with the build at `root`, simulates one run, prints its events. */
async function countedRun(root: string, file: string, variant: string, point: number, horizonS: number): Promise<void> {
  const { loadScenarioFile } = (await import(join(root, 'dist/src/scenario/load.js'))) as typeof import('../src/scenario/load.js');
  const { simulate } = (await import(join(root, 'dist/src/model/simulate.js'))) as typeof import('../src/model/simulate.js');
  const loaded = loadScenarioFile(file);
  const v = loaded.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`${file} has no variant "${variant}" (it has ${loaded.variants.map((x) => x.name).join(', ')})`);
  const s = v.points[point];
  if (!s) throw new Error(`${file} has no sweep point ${point} (it has ${v.points.length})`);
  const record = simulate({ ...s, horizon: horizonS }, s.seed);
  process.stdout.write(JSON.stringify({ events: record.totals.eventsProcessed } satisfies Counted) + '\n');
}

/** Instructions executed by `node --single-threaded SELF --count ...`, from cachegrind's summary. */
function instructions(root: string, file: string, variant: string, point: number, horizonS: number): { ir: number; events: number } {
  const self = fileURLToPath(import.meta.url);
  const p = spawnSync('valgrind', [
    '--tool=cachegrind', '--cache-sim=no', '--smc-check=all', '--cachegrind-out-file=/dev/null',
    process.execPath, '--single-threaded', self, '--count', root, file, variant, String(point), String(horizonS),
  ], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (p.error) throw new Error(`could not start valgrind (${p.error.message}): install it (Debian: apt-get install -y valgrind)`);
  if (p.status !== 0) throw new Error(`the counted run failed (exit ${p.status ?? p.signal}):\n${p.stderr.slice(-2000)}`);
  const m = /I\s+refs:\s+([\d,]+)/.exec(p.stderr);
  if (!m) throw new Error(`cachegrind printed no instruction count:\n${p.stderr.slice(-2000)}`);
  const counted = JSON.parse(p.stdout.trim().split('\n').at(-1)!) as Counted;
  return { ir: Number(m[1].replaceAll(',', '')), events: counted.events };
}

function measure(root: string, file: string, variant: string, point: number, horizonS: number): { simIr: number; events: number } {
  const base = instructions(root, file, variant, point, 1);
  const run = instructions(root, file, variant, point, horizonS);
  return { simIr: run.ir - base.ir, events: run.events };
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--count') {
    const [root, file, variant, point, horizon] = args.slice(1);
    void countedRun(root, file, variant, Number(point), Number(horizon)).catch((e: Error) => {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 2;
    });
    return;
  }
  const given = flag(args, '--scenario') ?? 'scenarios/retry-storm.yaml';
  const file = isAbsolute(given) ? given : join(ROOT, given);
  const variant = flag(args, '--variant') ?? 'as-is';
  const point = Number(flag(args, '--point') ?? '5');
  const horizonS = Number(flag(args, '--horizon') ?? '7200');
  if (!Number.isInteger(point) || point < 0) throw new Error(`--point takes a sweep point's index, 0 or more (got ${flag(args, '--point')})`);
  if (!(horizonS > 1)) throw new Error(`--horizon takes seconds, more than 1 (got ${flag(args, '--horizon')})`);
  const against = flag(args, '--against');
  const roots = [ROOT, ...(against !== undefined ? [resolve(against)] : [])];
  for (const r of roots) if (!existsSync(join(r, 'dist/src/model/simulate.js'))) throw new Error(`no build in ${r}: run \`npm run build\` there first`);

  console.log(`instructions of one run (${given}, ${variant}, sweep point ${point}, seed as in the file, ${horizonS} s), minus those of the same run over 1 s`);
  const results = roots.map((r) => ({ root: r, ...measure(r, file, variant, point, horizonS) }));
  for (const x of results) {
    console.log(`${x.root}: ${(x.simIr / 1e9).toFixed(3)} G instructions, ${x.events.toLocaleString('en-US')} events, ${Math.round(x.simIr / x.events).toLocaleString('en-US')} per event`);
  }
  if (results.length === 2) {
    const [a, b] = results;
    if (a.events !== b.events) console.log(`note: the two builds processed different numbers of events (${a.events} and ${b.events}): they do not run the same model`);
    console.log(`this build / ${b.root}: ${(a.simIr / b.simIr).toFixed(4)}`);
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`instructions benchmark: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
