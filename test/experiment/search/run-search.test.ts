/**
 * The search on real runs, where it can go wrong: a run that fails (here, every run, past a
 * tiny memory budget) stops every variant's search with the run named, instead of a search
 * that decides without it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../src/scenario/load.js';
import { runSearch, SearchRunFailed } from '../../../src/experiment/search/run-search.js';

describe('runSearch', () => {
  it('stops with the failed run named when a run fails', async () => {
    const text = readFileSync(join(import.meta.dirname, 'tiny-cliff.yaml'), 'utf8') + 'variants:\n  a: {}\n  b: {}\n';
    const loaded = loadScenario(text, 'tiny-cliff.yaml');
    const search = runSearch(loaded, loaded.search!, { workers: 0, runBudget: { memoryBytes: 1024 } });
    await expect(search).rejects.toThrow(SearchRunFailed);
    await expect(search).rejects.toThrow(/^variant "a" at 20\/s, seed 1: .*memory/);
  });
});
