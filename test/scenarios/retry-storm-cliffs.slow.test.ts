// The shipped retry-storm-cliffs scenario: the flagship's world searched for each defence's
// cliff in outage length. As deployed, the service tips between the flagship's 4 and 8
// minutes; each defence survives the longest outage searched. Its expectations say so, and
// must pass. (About 200 runs of 1h30m: a few minutes on two cores.)
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runSearch } from '../../src/experiment/search/run-search.js';
import { checkTippingExpectations, resolveMeasureReferences } from '../../src/experiment/expectations.js';
import { MEASURES } from '../../src/measures/registry.js';

describe('scenarios/retry-storm-cliffs.yaml', () => {
  it('finds as-is tipping between 4 and 8 minutes of outage and every defence beyond 30, as its expectations say', async () => {
    const loaded = loadScenarioFile('scenarios/retry-storm-cliffs.yaml');
    const outcome = await runSearch(loaded, loaded.search!, { workers: 2 });
    const byName = Object.fromEntries(outcome.variants.map((v) => [v.variant, v.result]));
    const asIs = byName['as-is'];
    expect(asIs.crossing).toBe('within');
    expect(asIs.interval.lo!).toBeGreaterThanOrEqual(4 * 60);
    expect(asIs.interval.hi!).toBeLessThanOrEqual(8 * 60);
    // Where the flagship's grid saw it: 1m to 4m recover, 8m does not.
    expect(asIs.tried.find((t) => t.value === 60)).toMatchObject({ side: 'before' });
    for (const name of ['client-ceiling', 'admission-reserve', 'all-defences']) {
      expect(byName[name], name).toMatchObject({ crossing: 'above-range', interval: { lo: 30 * 60, hi: null } });
      for (const t of byName[name].tried) expect(t.recovered, `${name} at ${t.value}s`).toBe(t.runs);
    }
    const checks = checkTippingExpectations(resolveMeasureReferences(loaded, MEASURES).expectations, outcome);
    expect(checks).toHaveLength(5);
    for (const c of checks) expect(c.passed, `${c.name}: ${c.actual}`).toBe(true);
  });
});
