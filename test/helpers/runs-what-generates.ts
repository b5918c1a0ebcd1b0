/**
 * The validator and the runner agree, on scenarios generated from the format itself
 * (test/helpers/schema-scenarios.ts) rather than mutated from the shipped ones
 * (runs-what-loads.ts): two properties over the same fixed-seed stream of generated files.
 *
 * - The loader never throws anything but a ScenarioError on a generated file: it accepts
 *   it, or refuses it with the problem machinery's one clear error.
 * - Every generated file the loader accepts runs each variant at its first sweep point for
 *   its first seconds (runFirstSeconds), to its end or to a run budget's clear refusal.
 *
 * A generator that made only refused files would prove nothing, so the share accepted is
 * asserted, and the counts are printed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { schemaScenarios } from './schema-scenarios.js';
import { runFirstSeconds } from './runs-what-loads.js';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';

const SEED = 39;
/** At least this share of generated files must be accepted (about a quarter when written). */
const LEAST_ACCEPTED_SHARE = 0.2;

export function runsWhatGenerates(count: number): void {
  describe(`the loader and the runner on ${count.toLocaleString('en')} scenarios generated from the schema`, () => {
    it('a generated file is accepted or refused with a ScenarioError; an accepted one runs its first seconds, or stops on a run budget: no other error', () => {
      let generated = 0, accepted = 0, ran = 0, stopped = 0, skipped = 0;
      fc.assert(fc.property(schemaScenarios(), (text) => {
        generated++;
        let loaded;
        try {
          loaded = loadScenario(text, 'generated.yaml');
        } catch (e) {
          if (e instanceof ScenarioError) return;
          throw new Error(`the loader threw ${e instanceof Error ? e.stack : String(e)}, not a ScenarioError`);
        }
        accepted++;
        const first = runFirstSeconds(loaded);
        ran += first.ran; stopped += first.stopped; skipped += first.skipped;
        const [bad] = first.errors;
        if (bad) throw new Error(`variant ${bad.variant} of an accepted scenario failed: ${bad.error instanceof Error ? bad.error.stack : String(bad.error)}`);
      }), { seed: SEED, numRuns: count, endOnFailure: false });
      console.log(`generated ${generated}, accepted ${accepted} (${(100 * accepted / generated).toFixed(0)}%), variants ran ${ran}, stopped on a budget ${stopped}, skipped as too large ${skipped}`);
      expect(generated).toBe(count);
      expect(accepted).toBeGreaterThanOrEqual(Math.ceil(count * LEAST_ACCEPTED_SHARE));
      expect(ran).toBeGreaterThanOrEqual(accepted / 2);
    });
  });
}
