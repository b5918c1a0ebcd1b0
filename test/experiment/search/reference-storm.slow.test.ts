/**
 * The search against a dense grid on a small version of the benchmark's reference model
 * (scenarios/reference-storm.yaml: every client retries up to 4 times with a 1 s timeout and
 * full jitter into an unbounded queue, exponential 100 ms service; here 10 slots instead of
 * 100, a 5-minute horizon and a 30 s outage, so a run takes a fraction of a second). Searching
 * the arrival rate must find an interval that contains the 50% crossing of a grid run here,
 * 10 seeds at every 5/s from 40/s to 80/s, and spend fewer runs than that grid.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../src/scenario/load.js';
import { runSearch } from '../../../src/experiment/search/run-search.js';
import { runTasks } from '../../../src/experiment/pool.js';
import { fittedCrossing } from '../../../src/experiment/search/isotonic.js';
import type { RunTask } from '../../../src/experiment/worker.js';

const SEEDS = 10;
const GRID = [40, 45, 50, 55, 60, 65, 70, 75, 80];

describe('the search on the small reference model', () => {
  it('brackets the 50% crossing of a dense grid, in fewer runs than the grid', async () => {
    const loaded = loadScenario(readFileSync(join(import.meta.dirname, 'tiny-cliff.yaml'), 'utf8').replace('budget: 40', 'budget: 80'), 'tiny-cliff.yaml');
    const search = loaded.search!;
    // The grid, on the same seeds as the search's (seed + i), with the same recovery measure.
    const tasks: RunTask[] = GRID.flatMap((rate, p) => Array.from({ length: SEEDS }, (_, i) => ({
      index: p * SEEDS + i, variant: 'base', point: p, seed: loaded.base.seed + i, scenario: loaded.scenarioAt('base', search, rate),
    })));
    const recovered = new Array<number>(GRID.length).fill(0);
    await runTasks(tasks, 2, new AbortController().signal, {
      onResult: (task, result) => { if (result.summary.measures.recovered === 1) recovered[task.point]++; },
      onError: (task, error) => { throw new Error(`grid run ${task.index}: ${error.message}`); },
    });
    const grid = GRID.map((value, p) => ({ value, recovered: recovered[p], runs: SEEDS }));
    const crossing = fittedCrossing(grid, 'falling', 0.5);
    expect(crossing, `grid: ${grid.map((g) => `${g.value}/s ${g.recovered}/${g.runs}`).join(', ')}`).not.toBeNull();

    const outcome = await runSearch(loaded, search, { workers: 2 });
    const r = outcome.variants[0].result;
    const found = `search: ${r.interval.lo}..${r.interval.hi} (estimate ${r.estimate}) in ${r.runs} runs; grid crossing ${crossing} from ${grid.map((g) => `${g.value}/s ${g.recovered}/${g.runs}`).join(', ')}`;
    console.log(found);
    expect(r.crossing, found).toBe('within');
    expect(r.interval.lo!, found).toBeLessThanOrEqual(crossing!);
    expect(r.interval.hi!, found).toBeGreaterThanOrEqual(crossing!);
    expect(r.runs, found).toBeLessThan(GRID.length * SEEDS);
  });
});
