// Runs of the shipped signup-flood scenario (story 003), shared by the attack's test file
// (signup-flood-attack.slow.test.ts) and the story's ending (the 4.5-hour manual-switch variant).
import { loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/summarize.js';
import { measureSettings } from '../../src/experiment/settings.js';
import type { RunRecord } from '../../src/model/series.js';

export const loaded = loadScenarioFile('scenarios/signup-flood.yaml');
const scenario = (name: string) => loaded.variants.find((v) => v.name === name)!.scenario;
const done = new Map<string, { record: RunRecord; summary: ReturnType<typeof summarize> }>();
/** Each variant is simulated once per file (seed 1). */
export const run = (name: string) => {
  let r = done.get(name);
  if (!r) {
    const record = simulate(scenario(name), 1);
    done.set(name, (r = { record, summary: summarize(record, measureSettings(scenario(name))) }));
  }
  return r;
};

/** Success ratio of a route's user actions that ended inside [fromS, toS). */
export function routeSuccess(r: RunRecord, route: string, fromS: number, toS: number): number {
  const i = r.routes.indexOf(route);
  const s = r.series;
  let ok = 0, failed = 0;
  for (let b = Math.ceil(fromS / s.bucketS); b < Math.floor(toS / s.bucketS); b++) {
    ok += s.routeActionsOk[i][b];
    failed += s.routeActionsFailed[i][b];
  }
  return ok / (ok + failed);
}

