// 10,000 mutants of the shipped scenarios, with a fixed seed: the loader meets every one
// with a scenario or with problems that are positioned and in its own words (no zod
// wording), and none takes more than 2 s of CPU (per mutant, as CPU time, so a loaded
// machine does not fail it; a typical mutant takes about 15 ms). In ten chunks of 1,000, so
// that each stays well inside the suite's hang guard on a busy machine. `npm run fuzz --
// N SEED` runs the same check on more mutants and other seeds.
import { afterAll, describe, expect, it } from 'vitest';
import { checkMutant, mutant, shippedScenarios } from '../helpers/mutants.js';

const CHUNKS = 10;
const PER_CHUNK = 1_000;
const SEED = 'ci';

describe('loader under 10,000 mutants of the shipped scenarios', () => {
  const shipped = shippedScenarios();
  let loaded = 0, refused = 0, problems = 0, tried = 0;

  it.each(Array.from({ length: CHUNKS }, (_, c) => [c * PER_CHUNK, (c + 1) * PER_CHUNK]))(
    'mutants %i to %i: a scenario or positioned problems in its own words, each within 2 s of CPU',
    (from, to) => {
      expect(shipped.length).toBeGreaterThanOrEqual(8);
      const bad: string[] = [];
      let slowestMs = 0;
      for (let i = from; i < to; i++) {
        const m = mutant(shipped, SEED, i);
        const o = checkMutant(m.text);
        tried++;
        if (o.loaded) loaded++; else refused++;
        problems += o.problems.length;
        slowestMs = Math.max(slowestMs, o.cpuMs);
        const faults = [...o.faults, ...(o.cpuMs > 2000 ? [`slow: ${o.cpuMs.toFixed(0)} ms of CPU`] : [])];
        if (faults.length > 0 && bad.length < 5) bad.push(`mutant ${i} of ${m.from}: ${faults.join('; ')}\n${m.text}`);
      }
      expect(bad, bad.join('\n\n')).toEqual([]);
      expect(slowestMs).toBeLessThan(2000);
    },
  );

  afterAll(() => {
    // Both outcomes, and many problems, or the property proves little.
    if (tried === CHUNKS * PER_CHUNK) {
      expect(loaded).toBeGreaterThan(500);
      expect(refused).toBeGreaterThan(5000);
      expect(problems).toBeGreaterThan(10_000);
    }
  });
});
