/**
 * loadResults: the one adapter between saved results and the report. It must read the
 * oldest and the newest summary.json alike, and refuse a folder that is not a results
 * folder with one line that says why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadResults, ResultsError, featuredPoint, atFeatured } from '../../src/report/html/results.js';
import { cleanupFixtures, fullShape, oldShape, tempDir } from './fixtures.js';

describe('loadResults', () => {
  afterAll(cleanupFixtures);
  it('reads the oldest summary.json shape, with faults from scenario.yaml', () => {
    const r = loadResults(oldShape());
    expect(r.variants.map((v) => v.name)).toEqual(['retries', 'no-retries']);
    expect(r.variants[0].points).toHaveLength(1);
    expect(r.variants[0].points[0].measures.recoveryTimeS).toBeNull();
    expect(r.variants[1].points[0].measures.recoveryTimeS).toBe(30);
    expect(r.variants[0].scenarioFaults).toEqual([{ kind: 'dependency-down', startS: 300, endS: 420 }]);
    expect(r.expectations).toBeNull();
    expect(r.ranking).toBeNull();
    expect(r.variants[0].points[0].measures).toMatchObject({ relapses: null, retryWaves: null, originalSuccessAfterFault: null, retryShareAtPeak: null });
    expect(r.sweep).toBeNull();
    expect(r.description).toBe('Two variants, one fault.');
    expect(r.series?.length).toBe(2 * 1200);
  });

  it('reads sweep points, intervals, histograms, expectations and fault windows when present', () => {
    const r = loadResults(fullShape());
    expect(r.sweep).toEqual({ parameters: ['faults[0].duration'] });
    const p = r.variants[0].points[1];
    expect(p.values).toEqual({ 'faults[0].duration': '5m' });
    expect(p.measures.intervals.perceivedOutageS).toEqual({ lo: 100, hi: 140 });
    expect(p.measures.attemptsHistogram).toEqual([{ attempts: 1, count: 700 }, { attempts: 2, count: 200 }, { attempts: 3, count: 100 }]);
    expect(p.faults).toEqual([{ kind: 'dependency-down', startS: 300, endS: 600 }]);
    expect(r.expectations?.map((e) => [e.variant, e.passed])).toEqual([['retries', false], ['no-retries', true]]);
    expect(r.partial).toBe(true);
    expect(p.measures).toMatchObject({ relapses: 1.5, retryWaves: 3, originalSuccessAfterFault: 0.12, retryShareAtPeak: 0.85 });
  });

  it('reads the ranking: baseline, `at`, the ranked points and their entries', () => {
    const k = loadResults(fullShape()).ranking!;
    expect(k).toMatchObject({ baseline: 'retries', at: { 'faults[0].duration': '5m' }, longestRecoveredParameter: 'faults[0].duration' });
    expect(k.points.map((p) => [p.point, p.values])).toEqual([[1, { 'faults[0].duration': '5m' }]]);
    expect(k.points[0].entries.map((e) => [e.rank, e.variant, e.recoveryTimeS, e.outageSavedS, e.longestRecovered])).toEqual([
      [1, 'no-retries', 60, 660, '10m'],
      [1, 'short-queue', 60, 660, '10m'],
      [3, 'retries', null, 0, '1m'],
    ]);
  });

  it('accepts a sweep block with per-variant results and measures written as { mean, ci95 }', () => {
    const dir = tempDir('rs-sweep-');
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({
      scenario: 's', horizonS: 600, variants: [{ name: 'a' }],
      sweep: { parameter: 'load', points: [
        { value: 0.5, variants: { a: { recoveryTimeS: { mean: 10, ci95: [8, 12] }, recoveredFraction: 1 } } },
        { value: 1.2, variants: [{ name: 'a', recoveryTimeS: null, recoveredFraction: 0.5 }] },
      ] },
    }));
    const r = loadResults(dir);
    expect(r.variants[0].points.map((p) => [p.values, p.measures.recoveryTimeS, p.measures.intervals.recoveryTimeS ?? null])).toEqual([
      [{ load: 0.5 }, 10, { lo: 8, hi: 12 }],
      [{ load: 1.2 }, null, null],
    ]);
  });

  it('refuses folders that are not results folders, in one line', () => {
    const empty = tempDir('rs-empty-');
    const bad = (setup: (dir: string) => void) => {
      const dir = tempDir('rs-bad-');
      setup(dir);
      return dir;
    };
    const cases: Array<[string, RegExp]> = [
      [join(empty, 'nope'), /no such folder/],
      [empty, /has no summary\.json/],
      [bad((d) => writeFileSync(join(d, 'summary.json'), '{ nope')), /is not valid JSON/],
      [bad((d) => writeFileSync(join(d, 'summary.json'), '{"variants": 3}')), /not a retrystorm summary/],
      [bad((d) => { writeFileSync(join(d, 'summary.json'), '{"horizonS": 60, "variants": []}'); writeFileSync(join(d, 'timeseries.csv'), 'variant,t_s\na,0,9\n'); }), /timeseries\.csv:2: 3 cells, but the header has 2/],
    ];
    for (const [dir, message] of cases) {
      let caught: unknown;
      try { loadResults(dir); } catch (e) { caught = e; }
      expect(caught, dir).toBeInstanceOf(ResultsError);
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).not.toContain('\n');
    }
  });
});

describe('featuredPoint: the sweep point the single-point charts draw', () => {
  afterAll(cleanupFixtures);
  it('is the point the ranking reads when compare.at names one, else the first point', () => {
    const r = loadResults(fullShape());
    expect(featuredPoint(r)?.values).toEqual({ 'faults[0].duration': '5m' });
    expect(atFeatured(r.variants[2], featuredPoint(r))?.index).toBe(1);
    const unranked = { ...r, ranking: r.ranking && { ...r.ranking, at: null } };
    expect(featuredPoint(unranked)?.index).toBe(0);
    expect(featuredPoint({ ...r, ranking: null })?.index).toBe(0);
  });
});
