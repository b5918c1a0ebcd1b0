/**
 * Finished runs one experiment may take from another instead of simulating them again.
 *
 * Why it is sound: the simulator is deterministic (docs/DESIGN.md: the same scenario and seed
 * give the same bytes), and a run's result depends on nothing else but the measures computed
 * from it. So a run whose scenario and seed equal those of a finished run of the other
 * experiment, computed with the same measures, would give that run's result; it takes it.
 * Why it is here: `retrystorm diff BASE HEAD` runs both sides, and a pull request usually
 * changes one policy, so most of the head's runs (its unchanged variants) are the base's.
 *
 * The key is the run's scenario as data, every number told apart (Infinity, NaN, -0), without
 * the fields no run reads: the experiment's own (sweep, search, variants, seeds, the base
 * seed), the checks on its results (expectations, compare) and the prose (question,
 * description). A change anywhere else, however small, makes a different key, and the run is
 * simulated.
 */
import type { Scenario } from '../scenario/schema.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { MeasureRegistry } from '../measures/registry.js';
import type { RunResult } from './run-one.js';
import type { RunSpec } from './expand.js';

/** Top-level scenario fields that no run reads (the model and the measures never look at them). */
const NOT_READ_BY_A_RUN: ReadonlySet<string> = new Set(['$schema', 'question', 'description', 'seed', 'seeds', 'sweep', 'search', 'expectations', 'compare', 'variants']);

/** The run's scenario and seed as one string: equal strings, equal runs. */
export function runKey(scenario: Scenario, seed: number): string {
  const read = Object.fromEntries(Object.entries(scenario).filter(([k]) => !NOT_READ_BY_A_RUN.has(k)));
  return `${seed}\n${JSON.stringify(read, (_k, v: unknown) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? `\u0000${Object.is(v, -0) ? '-0' : v}` : v))}`;
}

export class FinishedRuns {
  private readonly byKey = new Map<string, RunResult>();

  private constructor(readonly measures: MeasureRegistry) {}

  /** The finished runs of an experiment (what ExperimentResult holds): each run's scenario, seed and result. */
  static of(x: { loaded: LoadedScenario; runs: readonly RunSpec[]; results: ReadonlyArray<RunResult | undefined>; measures: MeasureRegistry }): FinishedRuns {
    const finished = new FinishedRuns(x.measures);
    const points = new Map(x.loaded.variants.map((v) => [v.name, v.points]));
    for (const run of x.runs) {
      const result = x.results[run.index];
      if (result) finished.byKey.set(runKey(points.get(run.variant)![run.point], run.seed), result);
    }
    return finished;
  }

  /** The result `run` would give, from a finished run of the same scenario and seed; undefined when there is none. */
  resultOf(run: RunSpec, scenario: Scenario): RunResult | undefined {
    const result = this.byKey.get(runKey(scenario, run.seed));
    return result && { ...result, variant: run.variant, point: run.point };
  }
}
