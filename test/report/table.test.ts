/** The terminal table and ranking: within the terminal's width, numbers by unit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingText, summaryTable } from '../../src/report/table.js';
import { headlineMeasures } from '../../src/report/cells.js';
import { cleanupFixtures, full, type Fixture } from './fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await full();
});
afterAll(cleanupFixtures);

const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('the terminal table', () => {
  it('shows every headline column on one header line when the width allows', () => {
    const r = f.bundle.results;
    const t = summaryTable(r);
    const header = t.split('\n')[0];
    for (const m of headlineMeasures(r)) expect(header).toContain(m.label);
    expect(header).toMatch(/^variant\s+faults\[0\]\.duration\s+recovered\s+recovery time/);
    expect(t).not.toContain('more column');
    expect(widest(t)).toBeGreaterThan(120); // the case the narrow layouts are for
  });

  for (const width of [120, 100, 80]) {
    it(`fits ${width} columns, keeping the outcome columns and naming the ones left out`, () => {
      const r = f.bundle.results;
      const t = summaryTable(r, width);
      const k = rankingText(r, width);
      expect(widest(t)).toBeLessThanOrEqual(width);
      expect(widest(k)).toBeLessThanOrEqual(width);
      const [top, second] = t.split('\n');
      expect(top).toMatch(/^variant\s+faults\[0\]\.\s+recovered\s+recovery\s+perceived/);
      expect(second).toMatch(/^\s+duration\s+time\s+outage/);
      // Every measure is either a column or named in the note below the table.
      const note = t.split('\n').find((l) => l.startsWith('(')) ?? '';
      const shown = t.split('\n').slice(0, 2).join(' ');
      const left = headlineMeasures(r).filter((m) => !m.label.split(' ').every((w) => shown.includes(w)));
      expect(left.length).toBeGreaterThan(0);
      for (const m of left) expect(t.replace(/\n/g, ' ')).toContain(m.label);
      expect(note).toMatch(/more columns? in summary\.md and report\.html/);
      // The storm's rows still say so, and the ranking still reads best first.
      expect(t).toMatch(/^retries\s+30s\s+0 of 2 seeds\s+not recovered/m);
      expect(k).toMatch(/^ {4}1\. {2}short-queue\s+(recovered|back) in 0s/m);
    });
  }

  it('prints numbers by their unit, never a float\'s raw digits', () => {
    const r = f.bundle.results;
    for (const text of [summaryTable(r), rankingText(r), summaryTable(r, 80), rankingText(r, 80)]) {
      expect(text).not.toMatch(/\d\.\d{4,}/);
    }
    // A p99-like value with many digits (what was once printed as 18.333333333333332) goes through its unit too.
    const p = r.variants[0].points[0];
    const tweaked = { ...r, variants: [{ ...r.variants[0], points: [{ ...p, measures: { ...p.measures, attemptsPerAction: { value: 18.333333333333332, lo: 17.1, hi: 19.55555555 } } }] }] };
    expect(summaryTable(tweaked)).toMatch(/\s18\.33\s/);
  });
});
