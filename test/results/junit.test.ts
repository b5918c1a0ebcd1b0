/**
 * expectations.xml, read the way CI systems read it: parsed by a real XML parser
 * (fast-xml-parser), with the counts on <testsuites> and each <testsuite> that GitLab's and
 * GitHub's JUnit renderers show, checked against the testcases they hold and against the
 * expectations the experiment checked; names from user text escaped so that they parse back
 * to themselves; checks that could not be judged (a shard, a point without runs) skipped.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { buildResults } from '../../src/results/build.js';
import { expectationsJunit, unjudgedChecks } from '../../src/results/junit.js';
import type { Results } from '../../src/results/results.js';
import { FULL_YAML, cleanupFixtures, full, type Fixture } from '../report/fixtures.js';

interface Case { name: string; classname: string; failure?: Array<{ message: string; '#text'?: string }>; skipped?: Array<{ message: string }>; 'system-out'?: string[] }
interface Suite { name: string; tests: string; failures: string; errors: string; skipped: string; testcase?: Case[] }
interface Report { testsuites: Array<{ name: string; tests: string; failures: string; errors: string; skipped: string; testsuite: Suite[] }> }

/** Parses as a CI system would, refusing what is not well-formed. */
function parse(xml: string): Report['testsuites'][number] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    // Character references (&#10;) are XML's own; this parser decodes them only with this switch.
    htmlEntities: true,
    isArray: (tag, _path, _leaf, isAttribute) => !isAttribute && ['testsuites', 'testsuite', 'testcase', 'failure', 'skipped', 'system-out'].includes(tag),
  });
  const doc = parser.parse(xml) as Report;
  expect(doc.testsuites).toHaveLength(1);
  return doc.testsuites[0];
}

// XML 1.0's Char production: anything else makes a strict parser (libxml2, Java's) refuse the file.
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** The counts a renderer reads off an element, and the ones its testcases make. */
function expectCountsMatch(el: { tests: string; failures: string; errors: string; skipped: string }, cases: readonly Case[]): void {
  expect({ tests: el.tests, failures: el.failures, errors: el.errors, skipped: el.skipped }).toEqual({
    tests: String(cases.length),
    failures: String(cases.filter((c) => c.failure).length),
    errors: '0',
    skipped: String(cases.filter((c) => c.skipped).length),
  });
}

let f: Fixture;
beforeAll(async () => {
  f = await full();
});
afterAll(cleanupFixtures);

describe('expectations.xml', () => {
  it('is written beside summary.json, one testsuite per sweep point, one testcase per checked expectation, counts that add up', () => {
    const xml = readFileSync(join(f.dir, 'expectations.xml'), 'utf8');
    expect(xml).toMatch(XML_CHARS);
    const root = parse(xml);
    const ex = f.bundle.results.expectations;
    // The fixture: at 5m neither retries recovers in time nor no-retries in half its seeds (2 failures).
    expect(ex.map((e) => [e.variant, e.at['faults[0].duration'], e.passed])).toEqual([['retries', '5m', false], ['no-retries', '30s', true], ['no-retries', '2m', true], ['no-retries', '5m', false]]);
    expect(root.name).toBe('full');
    expect(root.testsuite.map((s) => s.name)).toEqual(['full at faults[0].duration=30s', 'full at faults[0].duration=2m', 'full at faults[0].duration=5m']);
    const all = root.testsuite.flatMap((s) => s.testcase ?? []);
    expectCountsMatch(root, all);
    expect(root.tests).toBe('4');
    expect(root.failures).toBe('2');
    for (const s of root.testsuite) expectCountsMatch(s, s.testcase ?? []);
    // Each checked expectation is one testcase, named as the terminal names the check, failed exactly when it failed.
    for (const e of ex) {
      const where = ` at faults[0].duration=${e.at['faults[0].duration']}`;
      const suite = root.testsuite.find((s) => s.name === `full${where}`)!;
      const c = suite.testcase!.find((t) => t.classname === `full/${e.variant}` && t.name === `${e.check}${where}`);
      expect(c, `${e.name} has its testcase`).toBeDefined();
      expect(!!c!.failure).toBe(!e.passed);
      if (!e.passed) {
        expect(c!.failure![0].message).toBe(`measured ${e.actual}; expected ${e.check}`);
        expect(c!.failure![0]['#text']).toContain(`${e.measure} ${e.kind} ${e.limit}`);
      } else {
        expect(c!['system-out']![0]).toContain(`measured ${e.actual}`);
      }
    }
    const failed = all.find((c) => c.classname === 'full/retries')!;
    expect(failed.name).toBe('recovery time at most 1m at faults[0].duration=5m');
    expect(failed.failure![0].message).toMatch(/^measured not every seed recovered \(0 of 2 did\); expected recovery time at most 1m$/);
  });

  it('holds no time, date or host: the same results give the same bytes', () => {
    const xml = readFileSync(join(f.dir, 'expectations.xml'), 'utf8');
    expect(expectationsJunit(f.bundle.results, unjudgedChecks(f.x))).toBe(xml);
    expect(xml).not.toMatch(/timestamp=|hostname=|time=/);
  });

  it('escapes names from user text (quotes, <, &, line breaks) so they parse back to themselves, and drops what XML 1.0 forbids', () => {
    const nasty = 'a "quoted" <b> & \'c\'\ttab\nline\r\u0001\u001f\u007f\uFFFE\uD800 end 😀';
    const kept = 'a "quoted" <b> & \'c\'\ttab\nline\r end 😀';
    const r: Pick<Results, 'scenario' | 'expectations' | 'sweep'> = {
      scenario: nasty,
      sweep: null,
      expectations: [{ name: `${nasty}: x`, variant: nasty, at: {}, scope: {}, measure: 'recoveryTimeS', kind: 'atMost', limit: 60, value: 90, passed: false, check: nasty, actual: `1m30s ${nasty}` }],
    };
    const xml = expectationsJunit(r, [{ variant: nasty, at: {}, check: `${nasty} 2`, why: nasty }]);
    expect(xml).toMatch(XML_CHARS);
    const root = parse(xml);
    expect(root.name).toBe(kept);
    expectCountsMatch(root, root.testsuite[0].testcase!);
    const [failed, skipped] = root.testsuite[0].testcase!;
    expect(failed.name).toBe(kept);
    expect(failed.classname).toBe(`${kept}/${kept}`);
    expect(failed.failure![0].message).toBe(`measured 1m30s ${kept}; expected ${kept}`);
    // Text content keeps its line breaks; a carriage return survives as a reference.
    expect(failed.failure![0]['#text']).toContain(`1m30s ${kept} (recoveryTimeS atMost 60, value 90)`);
    expect(skipped.name).toBe(`${kept} 2`);
    expect(skipped.skipped![0].message).toBe(`not judged: ${kept}`);
  });

  it('a scenario without expectations gets one empty suite, counts zero', () => {
    const root = parse(expectationsJunit({ scenario: 's', sweep: null, expectations: [] }));
    expect(root.testsuite).toHaveLength(1);
    expectCountsMatch(root, []);
    expectCountsMatch(root.testsuite[0], []);
  });
});

describe('checks that could not be judged are skipped, saying why', () => {
  it('a shard: every check waits for the merge', async () => {
    const x = await runExperiment(loadScenario(FULL_YAML, 'fixture.yaml'), { workers: 0, shard: { index: 1, count: 2 } });
    expect(x.expectations).toEqual([]);
    const root = parse(expectationsJunit(buildResults(x), unjudgedChecks(x)));
    const all = root.testsuite.flatMap((s) => s.testcase ?? []);
    expect(all.map((c) => `${c.classname}: ${c.name}`)).toEqual([
      'full/no-retries: recovered at least 50% at faults[0].duration=30s',
      'full/no-retries: recovered at least 50% at faults[0].duration=2m',
      'full/retries: recovery time at most 1m at faults[0].duration=5m',
      'full/no-retries: recovered at least 50% at faults[0].duration=5m',
    ]);
    expect(all.every((c) => c.skipped?.[0].message === 'not judged: this is shard 1/2: expectations are checked when the shards are merged ("retrystorm merge")')).toBe(true);
    expectCountsMatch(root, all);
    expect(root.skipped).toBe('4');
    for (const s of root.testsuite) expectCountsMatch(s, s.testcase ?? []);
  });

  it('an interrupted experiment: the checks at a point where no run finished', () => {
    // The fixture's experiment as if retries' runs at 5m had not finished: that point is not checked.
    const x: ExperimentResult = {
      ...f.x,
      variants: f.x.variants.map((v) => (v.name !== 'retries' ? v : { ...v, points: v.points.map((p) => (p.point === 2 ? { ...p, runs: 0 } : p)) })),
      expectations: f.x.expectations.filter((e) => e.variant !== 'retries'),
    };
    const unjudged = unjudgedChecks(x);
    expect(unjudged).toEqual([{ variant: 'retries', at: { 'faults[0].duration': '5m' }, check: 'recovery time at most 1m', why: 'no run of this variant at this point finished (the experiment was interrupted, or its runs failed)' }]);
    const root = parse(expectationsJunit(buildResults(x), unjudged));
    expect([root.tests, root.failures, root.skipped]).toEqual(['4', '1', '1']);
    // The complete experiment leaves nothing unjudged.
    expect(unjudgedChecks(f.x)).toEqual([]);
  });

  it('a tipping point the search did not give: merge does not search, nor does an interrupted run', async () => {
    const tiny = readFileSync(fileURLToPath(new URL('../experiment/search/tiny-cliff.yaml', import.meta.url)), 'utf8');
    const loaded = loadScenario(`${tiny}expectations:\n  - { variant: base, tippingPoint: { atLeast: 50/s } }\n`, 'tiny-cliff.yaml');
    // runExperiment runs the runs only; `run` searches after them, and a merged folder never has.
    const x = await runExperiment(loaded, { workers: 0, seeds: 1 });
    const unjudged = unjudgedChecks(x);
    expect(unjudged).toEqual([{ variant: 'base', at: {}, check: 'tipping point of clients.app.arrivals.rate at least 50/s', why: 'the search did not run (an unsharded, uninterrupted "retrystorm run" runs it after the runs, "retrystorm edge" on its own)' }]);
    const root = parse(expectationsJunit(buildResults(x), unjudged));
    expect(root.testsuite.map((s) => s.name)).toEqual(['tiny-cliff']);
    expect(root.testsuite[0].testcase!.map((c) => [c.classname, c.name, !!c.skipped])).toEqual([['tiny-cliff/base', 'tipping point of clients.app.arrivals.rate at least 50/s', true]]);
    // With the search's result for the variant, the check is judged (checkTippingExpectations), not skipped.
    const searched: ExperimentResult = { ...x, search: { search: loaded.search!, seed: 1, variants: [{ variant: 'base', result: {} as never }] } };
    expect(unjudgedChecks(searched)).toEqual([]);
  });
});
