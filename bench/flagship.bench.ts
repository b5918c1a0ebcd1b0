/**
 * The flagship's benchmark: `npm start`'s run (scenarios/retry-storm.yaml, 240 runs of 4 h
 * on every core, its report written) timed as a whole process, paired with the hand-written
 * loop's storm (the engine benchmark's yardstick) so that the figure can be read on any
 * machine.
 *
 * Why the pairing: issue 16 asks for the flagship in under 90 s on 2 quiet cores, but the
 * machines these figures come from differ by up to 2x from one day to the next (the same
 * build took 122 s on one and 238 s on another). The hand loop does the same work on every
 * machine, so the flagship's time in hand-loop storms is a property of retrystorm, not of
 * the machine: the issue's machine ran the hand loop's storm in 4.66 s, so 90 s there is
 * about 19.3 of them. The scaling is an estimate (the flagship uses both cores and far more
 * memory than the single-threaded loop); the wall time here is printed beside it.
 *
 * Usage (after `npm run build`; `npm run bench:flagship --` builds first and passes the flags on):
 *   node dist/bench/flagship.bench.js [--runs 2] [--reference ../shared/bench/reference-loop.js]
 * Each run of the flagship (about 2 to 4 minutes on 2 cores) has a run of the hand loop's
 * storm (about 5 s) just before and just after it, and is measured against their mean: the
 * machine's pace drifts over minutes, and one hand-loop run on one side moved the ratio by
 * up to 20%. The flagship's build is not included: `npm start` runs `npm run build`
 * first, under 2 s when dist/ is fresh.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handLoopArgs, handLoopPath, ROOT } from './reference-model.js';
import { flag, wholeNumber } from './args.js';
import { loadAverages, median, runNode, spread, type ProcessRun } from './whole-process.js';

/** The hand loop's storm on the machine issue 16 was measured on, in seconds. */
const ISSUE_MACHINE_HAND_LOOP_S = 4.66;
/** Issue 16's target for the flagship on that machine, in seconds. */
const TARGET_S = 90;

/** The hand loop's storm: the engine benchmark's storm-1h case. */
const HAND_LOOP_STORM = handLoopArgs({ horizonS: 3600, outage: true });

function main(): void {
  const args = process.argv.slice(2);
  const runs = wholeNumber(args, '--runs', 2);
  const reference = handLoopPath(flag(args, '--reference'));
  const cli = join(ROOT, 'bin/retrystorm.js');
  if (!existsSync(join(ROOT, 'dist/bundle/cli/main.js'))) throw new Error('no build: run `npm run build` first (or `npm run bench:flagship`)');

  const scratch = mkdtempSync(join(tmpdir(), 'retrystorm-flagship-bench-'));
  console.log(`the hand loop's storm (B) before and after each run of the flagship (A): B A B A B ..., ${runs} run(s) of the flagship`);
  console.log(`A: node bin/retrystorm.js run scenarios/retry-storm.yaml --out DIR --quiet   (npm start without its build)`);
  console.log(`B: node ${reference} ${HAND_LOOP_STORM.join(' ')}`);
  console.log(`node ${process.version}; ${new Date().toISOString()}; load average before ${loadAverages()}`);
  const handLoop = () => runNode([reference, ...HAND_LOOP_STORM]);
  const a: ProcessRun[] = [];
  const b: ProcessRun[] = [handLoop()];
  try {
    for (let i = 0; i < runs; i++) {
      // A failed expectation is exit 1, which runNode refuses: the flagship must also still be right.
      a.push(runNode([cli, 'run', 'scenarios/retry-storm.yaml', '--out', join(scratch, `run-${i}`), '--quiet'], ROOT));
      b.push(handLoop());
      console.log(`  run ${i + 1}: flagship ${a[i].wallS.toFixed(1)} s wall, ${a[i].cpuS.toFixed(0)} CPU s; hand loop before and after it ${b[i].wallS.toFixed(2)} and ${b[i + 1].wallS.toFixed(2)} s`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  // Each flagship run measured in hand-loop storms: the machine's pace is what the hand loop
  // showed just before and just after it (the pace drifts over a flagship's minutes).
  const units = a.map((x, i) => x.wallS / ((b[i].wallS + b[i + 1].wallS) / 2));
  const atIssuePace = units.map((u) => u * ISSUE_MACHINE_HAND_LOOP_S);
  console.log(`\nload average after ${loadAverages()}`);
  console.log(`flagship   wall s ${spread(a.map((x) => x.wallS), 1)}, CPU s ${spread(a.map((x) => x.cpuS), 0)}, peak RSS MiB ${spread(a.map((x) => x.peakRssMiB), 0)}   median (min-max)`);
  console.log(`hand loop  wall s ${spread(b.map((x) => x.wallS), 2)}   (${ISSUE_MACHINE_HAND_LOOP_S} s on issue 16's machine)`);
  console.log(`the flagship in hand-loop storms, per run: ${units.map((u) => u.toFixed(1)).join(' ')} (median ${median(units).toFixed(1)}; target ${(TARGET_S / ISSUE_MACHINE_HAND_LOOP_S).toFixed(1)})`);
  console.log(`at the pace of issue 16's machine: about ${median(atIssuePace).toFixed(0)} s (target ${TARGET_S} s)`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`flagship benchmark: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
