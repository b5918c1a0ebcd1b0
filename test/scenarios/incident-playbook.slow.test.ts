// scenarios/incident-playbook.yaml: a storm outlives its outage, and each variant is one
// response from the playbook, written as operator actions (docs/incidents.md). What ends
// the storm, how fast, and whom the response hurts.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/summarize.js';
import type { MeasureValues } from '../../src/measures/registry.js';
import { measureSettings } from '../../src/experiment/settings.js';
import type { RunRecord } from '../../src/model/series.js';

const loaded = loadScenarioFile('scenarios/incident-playbook.yaml');
const cache = new Map<string, { record: RunRecord; summary: MeasureValues }>();
function run(name: string, seed = 1) {
  const key = `${name}/${seed}`;
  if (!cache.has(key)) {
    const s = loaded.variants.find((v) => v.name === name)!.scenario;
    const record = simulate(s, seed);
    cache.set(key, { record, summary: summarize(record, measureSettings(s)).measures });
  }
  return cache.get(key)!;
}
const MINUTE = 60;

/** Success ratio of a route's actions that ended in [fromS, toS) (30 s buckets). */
function routeSuccess(r: RunRecord, route: string, fromS: number, toS: number): number {
  const i = r.routes.indexOf(route);
  let ok = 0, failed = 0;
  for (let b = fromS / 30; b < toS / 30; b++) {
    ok += r.series.routeActionsOk[i][b];
    failed += r.series.routeActionsFailed[i][b];
  }
  return ok / (ok + failed);
}

describe('scenarios/incident-playbook.yaml', () => {
  it.each([1, 2, 3])('as-is, seed %i: the storm outlives the 7-minute outage to the horizon', (seed) => {
    const { summary } = run('as-is', seed);
    expect(summary.recovered).toBe(0);
    expect(summary.perceivedOutageS).toBeGreaterThanOrEqual(45 * MINUTE);
  });

  it.each([1, 2, 3])('admission control on a load alert and shedding detected retries on queue length end it within minutes, seed %i', (seed) => {
    for (const name of ['admission-on-load', 'shed-old-retries']) {
      const { summary } = run(name, seed);
      expect(summary.recovered, name).toBe(1);
      expect(summary.recoveryTimeS!, name).toBeLessThanOrEqual(5 * MINUTE);
    }
  });

  it('admission goes in on the load alert, is tightened and taken out at the times written', () => {
    const { record } = run('admission-on-load');
    expect(record.actions.map((a) => a.kind)).toEqual(['add-stage', 'replace-stage', 'remove-stage']);
    expect(record.actions[0].trigger).toMatchObject({ kind: 'signal', signal: 'load', above: 3 });
    expect(record.actions.slice(1).map((a) => a.atS)).toEqual([40 * MINUTE, 50 * MINUTE]);
  });

  it('more capacity ends it too: two more instances on a utilisation alert, or an autoscaler', () => {
    for (const name of ['scale-on-utilisation', 'autoscaler']) {
      const { summary, record } = run(name);
      expect(summary.recovered, name).toBe(1);
      expect(Math.max(...record.actions.map((a) => a.instances ?? 0)), name).toBeGreaterThanOrEqual(3);
    }
  });

  it('responses that only look like one: a restart, switching the export off, a spread Retry-After', () => {
    for (const name of ['restart-on-queue', 'export-off', 'spread-retry-after']) {
      const { summary, record } = run(name);
      expect(record.actions.length, name).toBeGreaterThan(0);
      expect(summary.recovered, name).toBe(0);
    }
    // The restart threw away the queue (requests nobody was waiting for), and it refilled.
    const restart = run('restart-on-queue').record;
    expect(restart.totals.lostAttempts).toBeGreaterThan(100);
  });

  it('blocking the busiest address hurts the partner, who was not the problem', () => {
    const { record } = run('block-busiest-address');
    const asIs = run('as-is').record;
    expect(routeSuccess(record, 'partner', 26 * MINUTE, 60 * MINUTE)).toBe(0);
    expect(routeSuccess(asIs, 'partner', 26 * MINUTE, 60 * MINUTE)).toBeGreaterThan(0);
    expect(run('block-busiest-address').summary.recovered).toBe(0);
  });

  it('blocking the old app on an alert brings the current app back, at the price of the old app\'s users', () => {
    const { record, summary } = run('block-old-app');
    const block = record.actions[0];
    expect(block.trigger).toMatchObject({ kind: 'signal', signal: 'success', below: 0.5, forS: 120, afterS: 600 });
    const after = block.atS + 3 * MINUTE;
    expect(routeSuccess(record, 'app', after, 60 * MINUTE)).toBeGreaterThan(0.6);
    expect(routeSuccess(run('as-is').record, 'app', after, 60 * MINUTE)).toBeLessThan(0.5);
    expect(routeSuccess(record, 'partner', after, 60 * MINUTE)).toBeGreaterThan(0.95);
    // A third of the actions (the old app's) keep failing: users as a whole still see an outage.
    expect(summary.perceivedOutageS).toBeGreaterThanOrEqual(40 * MINUTE);
  });

  it('dropping half the old app\'s addresses on an error-ratio alert (checked every 30 s) helps the others, and ends nothing', () => {
    const { record, summary } = run('drop-half-old-app');
    expect(record.actions).toHaveLength(1);
    expect(record.actions[0].trigger).toMatchObject({ kind: 'signal', signal: 'error-ratio', everyS: 30 });
    expect(summary.successRatio!).toBeGreaterThan(run('as-is').summary.successRatio!);
    expect(summary.recovered).toBe(0);
  });
});
