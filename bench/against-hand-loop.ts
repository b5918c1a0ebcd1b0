/**
 * A long command timed against the hand-written loop's storm, so that its time can be read
 * on any machine: issue 16's time targets (the flagship in 90 s, the quick suite in 150 s)
 * were set on one machine, and the machines these figures come from differ by up to 2x from
 * one day to the next (the same flagship build took 122 s on one and 238 s on another).
 *
 * The hand loop (../shared/bench/reference-loop.js, the engine benchmark's yardstick) does
 * the same work on every machine, so a command's time in hand-loop storms is a property of
 * the command, not of the machine; the issue's machine ran that storm in 4.66 s. The
 * scaling is an estimate (the hand loop is one thread of JavaScript; the flagship uses both
 * cores, the suite also starts processes and a browser); the wall time is printed beside it.
 *
 * Each run of the command has a run of the hand loop just before and just after it, and is
 * measured against their mean: the machine's pace drifts over minutes, and one hand-loop
 * run on one side moved the ratio by up to 20%.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { handLoopArgs, ROOT } from './reference-model.js';
import { loadAverages, median, runNode, spread, type ProcessRun } from './whole-process.js';

/** The hand loop's storm on the machine issue 16 was measured on, in seconds. */
const ISSUE_MACHINE_HAND_LOOP_S = 4.66;

/** The hand loop's storm: the engine benchmark's storm-1h case. */
const HAND_LOOP_STORM = handLoopArgs({ horizonS: 3600, outage: true });

export interface TimedCommand {
  /** What is timed, as the summary names it ("flagship", "quick suite"). */
  name: string;
  /** The command line, as printed. */
  shown: string;
  /** Issue 16's target for it on the issue's machine, in seconds. */
  targetS: number;
  /** Runs it once (the i-th time); throws when it fails, since a wrong result is no benchmark. */
  run: (i: number) => ProcessRun;
  runs: number;
  /** The hand loop's file. */
  reference: string;
  /** The npm script that builds and runs this benchmark, named when the CLI is not built. */
  npmScript: string;
}

export function againstHandLoop(c: TimedCommand): void {
  // Both commands run the CLI from its bundle (the suite's tests spawn it too).
  if (!existsSync(join(ROOT, 'dist/bundle/cli/main.js'))) throw new Error(`no build: run \`npm run build\` first (or \`npm run ${c.npmScript}\`)`);
  const handLoop = () => runNode([c.reference, ...HAND_LOOP_STORM]);
  console.log(`the hand loop's storm (B) before and after each run of the ${c.name} (A): B A B A B ..., ${c.runs} run(s) of the ${c.name}`);
  console.log(`A: ${c.shown}`);
  console.log(`B: node ${c.reference} ${HAND_LOOP_STORM.join(' ')}`);
  console.log(`node ${process.version}; ${new Date().toISOString()}; load average before ${loadAverages()}`);
  const a: ProcessRun[] = [];
  const b: ProcessRun[] = [handLoop()];
  for (let i = 0; i < c.runs; i++) {
    a.push(c.run(i));
    b.push(handLoop());
    const cpu = Number.isNaN(a[i].cpuS) ? '' : `, ${a[i].cpuS.toFixed(0)} CPU s`;
    console.log(`  run ${i + 1}: ${c.name} ${a[i].wallS.toFixed(1)} s wall${cpu}; hand loop before and after it ${b[i].wallS.toFixed(2)} and ${b[i + 1].wallS.toFixed(2)} s`);
  }
  // Each run measured in hand-loop storms: the machine's pace is what the hand loop showed
  // just before and just after it.
  const units = a.map((x, i) => x.wallS / ((b[i].wallS + b[i + 1].wallS) / 2));
  const atIssuePace = units.map((u) => u * ISSUE_MACHINE_HAND_LOOP_S);
  console.log(`\nload average after ${loadAverages()}`);
  const figures = (label: string, xs: number[]) => (xs.some(Number.isNaN) ? '' : `, ${label} ${spread(xs, 0)}`);
  const extra = figures('CPU s', a.map((x) => x.cpuS)) + figures('peak RSS MiB', a.map((x) => x.peakRssMiB));
  console.log(`${c.name}   wall s ${spread(a.map((x) => x.wallS), 1)}${extra}   median (min-max)`);
  console.log(`hand loop  wall s ${spread(b.map((x) => x.wallS), 2)}   (${ISSUE_MACHINE_HAND_LOOP_S} s on issue 16's machine)`);
  console.log(`the ${c.name} in hand-loop storms, per run: ${units.map((u) => u.toFixed(1)).join(' ')} (median ${median(units).toFixed(1)}; target ${(c.targetS / ISSUE_MACHINE_HAND_LOOP_S).toFixed(1)})`);
  console.log(`at the pace of issue 16's machine: about ${median(atIssuePace).toFixed(0)} s (target ${c.targetS} s)`);
}
