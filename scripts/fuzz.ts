/**
 * `npm run fuzz -- [count] [seed]`: loads `count` mutants of the shipped scenarios (default
 * 100,000, seed "fuzz") and reports any the loader met badly: a crash, a problem without a
 * position, zod's generic wording, or a load slower than 2 s of CPU. The test suite runs the
 * same check on 10,000 mutants with a fixed seed (test/scenario/fuzz.slow.test.ts; the quick
 * suite runs the first 1,000); this script is for searching further, with other seeds. Exits 1 when anything was found.
 */
import { checkMutant, mutant, shippedScenarios } from '../test/helpers/mutants.js';

const count = Number(process.argv[2] ?? 100_000);
const seed = process.argv[3] ?? 'fuzz';
const shipped = shippedScenarios();
let loaded = 0, refused = 0, bad = 0, slowest = 0, problemLines = 0;
const messages = new Map<string, number>();
for (let i = 0; i < count; i++) {
  const m = mutant(shipped, seed, i);
  const o = checkMutant(m.text);
  slowest = Math.max(slowest, o.cpuMs);
  if (o.loaded) loaded++; else refused++;
  problemLines += o.problems.length;
  for (const p of o.problems) {
    const shape = p.message.replace(/"[^"]*"/g, '"…"').replace(/\d+(\.\d+)?/g, 'N').slice(0, 60);
    messages.set(shape, (messages.get(shape) ?? 0) + 1);
  }
  const faults = [...o.faults, ...(o.cpuMs > 2000 ? [`slow: ${o.cpuMs.toFixed(0)} ms of CPU`] : [])];
  if (faults.length > 0) {
    bad++;
    if (bad <= 20) console.log(`--- mutant ${i} of ${m.from} (seed ${seed}):\n${faults.join('\n')}\n--- text ---\n${m.text}`);
  }
  if ((i + 1) % 1000 === 0) process.stderr.write(`${i + 1}/${count} mutants, ${bad} bad, slowest ${slowest.toFixed(0)} ms\n`);
}
console.log(`${count} mutants (seed ${seed}): ${loaded} loaded, ${refused} refused with ${problemLines} problem lines; ${bad} bad; slowest ${slowest.toFixed(0)} ms of CPU`);
console.log('most frequent messages:');
for (const [m, n] of [...messages].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${String(n).padStart(6)}  ${m}`);
process.exitCode = bad > 0 ? 1 : 0;
