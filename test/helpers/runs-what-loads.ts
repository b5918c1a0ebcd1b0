/**
 * The validator and the runner agree: every mutant of the shipped scenarios that the loader
 * accepts (test/helpers/mutants.ts) runs, each variant at its first sweep point for the first
 * seconds of its afternoon, to its end or to a run budget's clear refusal
 * (RunBudgetExceeded), never to another error. A scenario `validate` passes and every run of
 * which then fails is the bug this looks for (issue 39: a dependency's latency distribution
 * once passed validation and failed every run). Mutants whose first seconds would simulate
 * more than MOST_ACTIONS actions are left out, to keep the test's work bounded.
 */
import { describe, expect, it } from 'vitest';
import { mutant, shippedScenarios } from './mutants.js';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { RunBudgetExceeded } from '../../src/engine/budget.js';
import { populationRates } from '../../src/scenario/arrival-profile.js';

const SEED = 'runs';
const HORIZON_S = 20;
const MOST_ACTIONS = 200_000;

/** What the first seconds of each variant of one loaded scenario came to. */
export interface FirstSeconds { ran: number; stopped: number; skipped: number; errors: { variant: string; error: unknown }[] }

/**
 * Runs each variant of a loaded scenario at its first sweep point for its first HORIZON_S
 * seconds (one seed), under a memory budget: a run ends, stops on the budget's clear
 * refusal (RunBudgetExceeded), or fails with another error, which is the bug. A variant
 * whose first seconds would simulate more than MOST_ACTIONS actions is skipped.
 */
export function runFirstSeconds(loaded: LoadedScenario): FirstSeconds {
  const out: FirstSeconds = { ran: 0, stopped: 0, skipped: 0, errors: [] };
  for (const v of loaded.variants) {
    const scenario = { ...v.points[0], horizon: Math.min(v.points[0].horizon, HORIZON_S) };
    const actions = [...populationRates(scenario.clients, scenario.horizon).values()].reduce((n, r) => n + r * scenario.horizon, 0);
    if (!(actions <= MOST_ACTIONS)) { out.skipped++; continue; }
    try {
      simulate(scenario, 1, { budget: { memoryBytes: 256 * 1024 ** 2 } });
      out.ran++;
    } catch (e) {
      if (e instanceof RunBudgetExceeded) { out.stopped++; continue; }
      out.errors.push({ variant: v.name, error: e });
    }
  }
  return out;
}

export function runsWhatLoads(count: number): void {
  describe(`the runner on the loader's accepted mutants (${count.toLocaleString('en')} mutants)`, () => {
    it('every accepted mutant runs its first seconds, or stops on a run budget with its reason: no other error', () => {
      const shipped = shippedScenarios();
      let ran = 0, skipped = 0;
      const bad: string[] = [];
      for (let i = 0; i < count; i++) {
        const m = mutant(shipped, SEED, i);
        let loaded: LoadedScenario;
        try {
          loaded = loadScenario(m.text, 'm.yaml');
        } catch {
          continue; // refused: the fuzz suite checks how
        }
        const first = runFirstSeconds(loaded);
        ran += first.ran;
        skipped += first.skipped;
        for (const { variant, error: e } of first.errors) {
          if (bad.length < 5) bad.push(`mutant ${i} of ${m.from}, variant ${variant}: ${e instanceof Error ? e.stack : String(e)}\n${m.text}`);
        }
      }
      expect(bad, bad.join('\n\n')).toEqual([]);
      // The property proves something only if many accepted mutants ran.
      expect(ran).toBeGreaterThan(count / 20);
      expect(skipped).toBeLessThan(ran);
    });
  });
}
