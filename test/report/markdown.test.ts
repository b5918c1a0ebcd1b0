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
    expect(md).toContain('| **retries** | not recovered | no | 13m | 3.50x | 71.0% | 2.60 / 3 / 3 | 40.0% | 1.5 slot-h (80.0%) |');
    expect(md).toContain('| **no-retries** | 30s | yes | 2m | 1.02x | 0.0% | 1.00 / 1 / 1 | 90.0% | 0.0 slot-h (1.0%) |');
    expect(md).not.toContain('Partial');
    expect(md).not.toContain('Expectations');
  });

  it('warns about partial results and lists expectation results', () => {
    const md = summaryMarkdown(loadResults(fullShape()));
    expect(md).toContain('Partial results: the experiment was interrupted after 36 of 40 runs');
    expect(md).toContain('**Expectations: 1 of 2 failed**');
    expect(md).toContain('- ❌ retries: recovery time at most 5m (not recovered in 3 of 4 seed(s))');
    expect(md).toContain('| **retries** (faults[0].duration = 1m) | 30s (95%: 20s–40s) | 4 of 4 seeds |');
  });
});
