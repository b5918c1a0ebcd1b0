// Runs of the shipped signup-flood scenario (story 003), shared by the attack's test file
// (signup-flood-attack.slow.test.ts), the story's ending (the 4.5-hour manual-switch variant)
// and the quick check of the guard without the flood (signup-flood.test.ts).
import { readFileSync } from 'node:fs';
import { loadScenario, loadScenarioFile } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { summarize } from '../../src/measures/summarize.js';
import { measureSettings } from '../../src/experiment/settings.js';
import type { RunRecord } from '../../src/model/series.js';
import type { Scenario } from '../../src/scenario/schema.js';

const FILE = 'scenarios/signup-flood.yaml';
export const loaded = loadScenarioFile(FILE);
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

/** A variant changed by `change` (seed 1), simulated each time it is asked for. */
export const runChanged = (name: string, change: (s: Scenario) => Scenario): RunRecord => simulate(change(scenario(name)), 1);

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


const FLOOD = '{ kind: surge, at: 10m, duration: 40m, population: botnet, rate: 200/s }';

/**
 * One variant of the scenario with the attacker silent (the flood's rate 0, so the run sees
 * what the defences cost real users with no attack at all), seed 1. `short`: a 5-minute run
 * whose silent flood goes from 1m to 4m, for the quick suite.
 */
export function withoutFlood(variant: string, short = false) {
  const source = readFileSync(FILE, 'utf8');
  if (!source.includes(FLOOD)) throw new Error(`${FILE} no longer says "${FLOOD}"`);
  const silent = short ? '{ kind: surge, at: 1m, duration: 3m, population: botnet, rate: 0/s }' : FLOOD.replace('rate: 200/s', 'rate: 0/s');
  let text = source.replace(FLOOD, silent);
  if (short) text = text.replace(/^horizon: 1h$/m, 'horizon: 5m');
  const sc = loadScenario(text, FILE).variants.find((v) => v.name === variant)!.scenario;
  const record = simulate(sc, 1);
  return { record, summary: summarize(record, measureSettings(sc)) };
}

/** Success ratio of one population's actions that ended inside [fromS, toS). */
export function populationSuccessIn(r: RunRecord, name: string, fromS: number, toS: number): number {
  const p = r.series.populations[r.populations.findIndex((x) => x.name === name)];
  let ok = 0, failed = 0;
  for (let b = Math.ceil(fromS / r.series.bucketS); b < Math.floor(toS / r.series.bucketS); b++) {
    ok += p.actionsOk[b];
    failed += p.actionsFailed[b];
  }
  return ok / (ok + failed);
}

/** A population's success ratio in a run's summary. */
export const populationSuccess = (summary: ReturnType<typeof summarize>, name: string) =>
  summary.populations.find((p) => p.name === name)!.measures.successRatio!;

/** One of a population's measures in a run's summary. */
export const populationMeasure = (summary: ReturnType<typeof summarize>, name: string, key: string): number | null =>
  (summary.populations.find((p) => p.name === name)!.measures as Record<string, number | null>)[key];
