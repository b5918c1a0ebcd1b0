/**
 * Expectations on a tipping point: read in the searched parameter's unit, refused where they
 * cannot mean anything, and checked against the search, including beyond the range's ends.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../../../src/scenario/load.js';
import { ScenarioError } from '../../../src/scenario/problems.js';
import { MEASURES } from '../../../src/measures/registry.js';
import { checkTippingExpectations, resolveMeasureReferences } from '../../../src/experiment/expectations.js';
import type { SearchOutcome } from '../../../src/experiment/search/run-search.js';
import type { SearchResult } from '../../../src/experiment/search/design.js';

const TINY = readFileSync(join(import.meta.dirname, 'tiny-cliff.yaml'), 'utf8');

function problems(text: string): string[] {
  try {
    resolveMeasureReferences(loadScenario(text, 's.yaml'), MEASURES);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

const line = TINY.split('\n').length + 1; // the appended expectation's line (after "expectations:")

describe('tippingPoint expectations', () => {
  it.each([
    ['{ variant: base, tippingPoint: { atLeast: 5m } }', `${line}:38 expectations[0].tippingPoint.atLeast: the tipping point of clients.app.arrivals.rate is a rate: write the bound as one (got a duration)`],
    ['{ variant: base, population: app, tippingPoint: { atLeast: 50/s } }', `${line}:39 expectations[0].tippingPoint: tippingPoint is the whole variant's: it takes no population, route, tier or at`],
    ['{ variant: base, tippingPoint: { atLeast: fifty } }', `${line}:38 expectations[0].tippingPoint.atLeast: "fifty" is neither a duration ("5m"), a rate ("800/s") nor a number`],
  ])('refuses %s where it was written', (expectation, problem) => {
    expect(problems(`${TINY}expectations:\n  - ${expectation}\n`)).toEqual([problem]);
  });

  it('refuses a tipping point without a search block to say which parameter', () => {
    const text = TINY.replace(/search:[\s\S]*$/, '') + 'expectations:\n  - { variant: base, tippingPoint: { atLeast: 50/s } }\n';
    expect(problems(text)).toEqual([expect.stringMatching(/expectations\[0\]\.tippingPoint: tippingPoint bounds the result of a search: add a search: block/)]);
  });

  it('passes or fails on the estimate, and beyond the range only on what the range can tell', () => {
    const loaded = loadScenario(`${TINY}expectations:\n  - { variant: base, tippingPoint: { atLeast: 50/s, atMost: 60/s } }\n  - { variant: base, tippingPoint: { atLeast: 99/s } }\n`);
    const { expectations } = resolveMeasureReferences(loaded, MEASURES);
    const outcome = (result: Partial<SearchResult>): SearchOutcome => ({
      search: loaded.search!,
      seed: 1,
      variants: [{ variant: 'base', result: { level: 0.5, direction: 'falling', tried: [], runs: 40, stoppedBy: 'precision', crossing: 'within', estimate: null, interval: { lo: null, hi: null }, ...result } }],
    });
    const within = checkTippingExpectations(expectations, outcome({ estimate: 57.5, interval: { lo: 55, hi: 60 } }));
    expect(within.map((e) => [e.kind, e.limit, e.passed, e.actual])).toEqual([
      ['atMost', 60, true, '57.5/s (95%: 55/s–60/s), 40 runs'],
      ['atLeast', 50, true, '57.5/s (95%: 55/s–60/s), 40 runs'],
      ['atLeast', 99, false, '57.5/s (95%: 55/s–60/s), 40 runs'],
    ]);
    // Beyond 95/s: at least 50/s holds, at most 60/s does not, and at least 99/s cannot be told.
    const beyond = checkTippingExpectations(expectations, outcome({ crossing: 'above-range', interval: { lo: 95, hi: null } }));
    expect(beyond.map((e) => [e.kind, e.limit, e.passed, e.actual])).toEqual([
      ['atMost', 60, false, 'beyond 95/s, the largest searched'],
      ['atLeast', 50, true, 'beyond 95/s, the largest searched'],
      ['atLeast', 99, false, 'beyond 95/s, the largest searched'],
    ]);
    // An estimate between tried values is said to four significant digits (it read "63.8333/s").
    expect(checkTippingExpectations(expectations, outcome({ estimate: 63.833333, interval: { lo: 55, hi: 70 } }))[0].actual).toBe('63.83/s (95%: 55/s–70/s), 40 runs');
    const below = checkTippingExpectations(expectations, outcome({ crossing: 'below-range', interval: { lo: null, hi: 20 } }));
    expect(below.map((e) => e.passed)).toEqual([true, false, false]);
    // Within the range but not found (the budget ended before the fit crossed the level): no
    // bound holds; an estimate made up from the range's middle once passed "at most 90/s".
    const notFound = checkTippingExpectations(expectations, outcome({ stoppedBy: 'budget', interval: { lo: 76.5, hi: null } }));
    expect(notFound.map((e) => [e.passed, e.value, e.actual])).toEqual([
      [false, null, 'not found (the fit of the tried values never crosses the level) (95%: 76.5/s–above 95/s), 40 runs'],
      [false, null, 'not found (the fit of the tried values never crosses the level) (95%: 76.5/s–above 95/s), 40 runs'],
      [false, null, 'not found (the fit of the tried values never crosses the level) (95%: 76.5/s–above 95/s), 40 runs'],
    ]);
  });
});
