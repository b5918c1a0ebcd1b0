/** summaryMarkdown: the verdict for PR comments and CI step summaries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryMarkdown } from '../../src/report/markdown.js';
import { cleanupFixtures, full, small, type Fixture } from './fixtures.js';

let f: Fixture, s: Fixture;
beforeAll(async () => {
  [f, s] = await Promise.all([full(), small()]);
});
afterAll(cleanupFixtures);

describe('summaryMarkdown', () => {
  it('gives the question and one row per variant, with "not recovered" for a storm', () => {
    const md = summaryMarkdown(s.bundle);
    expect(md).toContain('**Question:** Does it come back?');
    expect(md).toMatch(/^\| \*\*retries\*\* \| no \| not recovered \|/m);
    expect(md).toMatch(/^\| \*\*no-retries\*\* \| yes \| \d+(m\d+s|m|s) \|/m);
    expect(md).not.toContain('Partial');
    expect(md).not.toContain('Expectations');
  });

  it('lists failed expectations first, with what was measured', () => {
    const md = summaryMarkdown(f.bundle);
    const failed = f.bundle.results.expectations.filter((e) => !e.passed);
    expect(failed.length).toBeGreaterThan(0);
    expect(md).toContain(`**Expectations: ${failed.length} of ${f.bundle.results.expectations.length} failed**`);
    expect(md).toContain('- ❌ retries at faults[0].duration=5m: recovery time at most 1m: not every seed recovered (0 of 2 did)');
    expect(md.indexOf('❌')).toBeLessThan(md.indexOf('✅'));
  });

  it('puts the ranking first, with the objective that decided each place', () => {
    const md = summaryMarkdown(f.bundle);
    const at = (x: string) => md.indexOf(x);
    expect(at('### Ranking')).toBeGreaterThan(0);
    expect(at('### Ranking')).toBeLessThan(at('### Comparison'));
    expect(md).toContain('**At faults[0].duration = 2m**');
    expect(md).toContain('| rank | variant | recovered | recovery time | perceived outage | outage saved vs retries | peak load | wasted work | attempts per action | new users served | retry waves | decided by | recovers up to |');
    const entries = f.bundle.results.ranking!.points[0].entries;
    expect(entries.map((e) => e.variant)).toEqual(['short-queue', 'no-retries', 'retries']);
    const retries = md.split('\n').find((l) => l.startsWith('| 3 | **retries** |'))!.split(' | ');
    expect(retries.slice(2, 4)).toEqual(['0 of 2 seeds', 'not recovered']);
    expect(retries[5]).toBe('baseline');
    expect(retries.slice(-2)).toEqual(['recovered', 'none |']);
  });

  it('shows outcomes per population, attackers marked, dead letters counted', () => {
    const md = summaryMarkdown(f.bundle);
    expect(md).toContain('### Per population (at faults[0].duration = 2m)');
    expect(md).toMatch(/^\| retries \| scraper \(attacker\) \|/m);
    const worker = md.split('\n').find((l) => l.startsWith('| retries | worker |'))!;
    const header = md.split('\n').find((l) => l.startsWith('| variant | population |'))!.split(' | ');
    const deadLetters = Number(worker.split(' | ')[header.indexOf('dead letters')].replace(/,/g, ''));
    expect(deadLetters).toBeGreaterThan(0);
  });
});
