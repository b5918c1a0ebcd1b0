/**
 * The flagship's benchmark: `npm start`'s run (scenarios/retry-storm.yaml, 240 runs of 4 h
 * on every core, its report written) timed as a whole process, paired with the hand-written
 * loop's storm (the engine benchmark's yardstick) so that the figure can be read on any
 * machine.
 *
 * Why the pairing (against-hand-loop.ts): issue 16 asks for the flagship in under 90 s on
 * 2 quiet cores, and the machines these figures come from differ by up to 2x from day to day.
 * The issue's machine ran the hand loop's storm in 4.66 s, so 90 s there is about 19.3 of them.
 *
 * Usage (after `npm run build`; `npm run bench:flagship --` builds first and passes the flags on):
 *   node dist/bench/flagship.bench.js [--runs 2] [--reference ../shared/bench/reference-loop.js]
 * Each run of the flagship (about 2 to 4 minutes on 2 cores) has a run of the hand loop's
 * storm (about 5 s) just before and just after it. The flagship's build is not included:
 * `npm start` runs `npm run build` first, under 2 s when dist/ is fresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handLoopPath, ROOT } from './reference-model.js';
import { flag, wholeNumber } from './args.js';
import { runNode } from './whole-process.js';
import { againstHandLoop } from './against-hand-loop.js';

function main(): void {
  const args = process.argv.slice(2);
  const cli = join(ROOT, 'bin/retrystorm.js');
  const scratch = mkdtempSync(join(tmpdir(), 'retrystorm-flagship-bench-'));
  try {
    againstHandLoop({
      name: 'flagship',
      shown: 'node bin/retrystorm.js run scenarios/retry-storm.yaml --out DIR --quiet   (npm start without its build)',
      targetS: 90,
      // A failed expectation is exit 1, which runNode refuses: the flagship must also still be right.
      run: (i) => runNode([cli, 'run', 'scenarios/retry-storm.yaml', '--out', join(scratch, `run-${i}`), '--quiet'], ROOT),
      runs: wholeNumber(args, '--runs', 2),
      reference: handLoopPath(flag(args, '--reference')),
    npmScript: 'bench:flagship',
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`flagship benchmark: ${(e as Error).message}\n`);
  process.exitCode = 2;
}
