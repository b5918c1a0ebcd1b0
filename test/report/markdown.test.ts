/** summaryMarkdown: the verdict for PR comments and CI step summaries. */
import { afterAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/report/html/results.js';
import { summaryMarkdown } from '../../src/report/markdown.js';
import { cleanupFixtures, fullShape, oldShape } from './fixtures.js';

describe('summaryMarkdown', () => {
  afterAll(cleanupFixtures);
  it('gives the question and one table row per variant, with "not recovered" for a storm', () => {
    const md = summaryMarkdown(loadResults(oldShape()));
    expect(md).toContain('**Question:** Does it come back?');
    // Measures the first release did not write (relapses, retry waves, retries at peak, new users served) read "—".
    expect(md).toContain('| **retries** | not recovered | no | — | — | 13m | 3.50x | 71.0% | — | 2.60 / 3 / 3 | 40.0% | — | 1.5 slot-h (80.0%) |');
    expect(md).toContain('| **no-retries** | 30s | yes | — | — | 2m | 1.02x | 0.0% | — | 1.00 / 1 / 1 | 90.0% | — | 0.0 slot-h (1.0%) |');
    expect(md).not.toContain('Partial');
    expect(md).not.toContain('Expectations');
    expect(md).not.toContain('Ranking');
  });

  it('warns about partial results and lists expectation results', () => {
    const md = summaryMarkdown(loadResults(fullShape()));
    expect(md).toContain('Partial results: the experiment was interrupted after 36 of 40 runs');
    expect(md).toContain('**Expectations: 1 of 2 failed**');
    expect(md).toContain('- ❌ retries: recovery time at most 5m (not recovered in 3 of 4 seed(s))');
    expect(md).toContain('| **retries** (faults[0].duration = 1m) | 30s (95%: 20s–40s) | 4 of 4 seeds | 0 | 0 |');
    expect(md).toContain('| **retries** (faults[0].duration = 5m) | not recovered | 1 of 4 seeds | 1.5 | 3 | 13m (95%: 1m40s–2m20s) | 3.50x (95%: 1.00x–1.10x) | 71.0% | 85.0% | 2.60 / 3 / 3 | 40.0% | 12.0% | 1.5 slot-h (80.0%) |');
  });

  it('puts the ranking first: best first, ties sharing a rank, savings against the baseline', () => {
    const md = summaryMarkdown(loadResults(fullShape()));
    const at = (s: string) => md.indexOf(s);
    expect(at('### Ranking')).toBeGreaterThan(0);
    expect(at('### Ranking')).toBeLessThan(at('### Comparison'));
    expect(md).toContain('Savings are against **retries**.');
    expect(md).toContain('**At faults[0].duration = 5m**');
    expect(md).toContain('| rank | variant | recovered | recovery time | perceived outage | outage saved vs retries | peak load | retries at peak | new users served | relapses | retry waves | recovers up to |');
    expect(md).toContain('| 1 | **no-retries** | 4 of 4 seeds | 1m | 2m | 11m (85%) | 1.02x | 5.0% | 97.0% | 0 | 0 | 10m |');
    expect(md).toContain('| 1 | **short-queue** | 4 of 4 seeds | 1m | 2m | 11m (85%) | 1.02x | 5.0% | 97.0% | 0 | 0 | 10m |');
    expect(md).toContain('| 3 | **retries** | 1 of 4 seeds | not recovered | 13m | baseline | 3.50x | 85.0% | 12.0% | 1.5 | 3 | 1m |');
    expect(at('| 1 | **short-queue**')).toBeLessThan(at('| 3 | **retries**'));
  });
});
