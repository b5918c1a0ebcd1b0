/**
 * Test helpers for the client model.
 *
 * `run(yaml)` simulates a whole scenario. `drive(yaml, respond)` runs the same `Clients`
 * as `simulate` does, but in front of a scripted fake server instead of the real one:
 * `respond` decides, per attempt, after how long it is answered, with which outcome and
 * which Retry-After (the real server never sends one). Every attempt sent is logged with
 * its action, number and time, so tests can check timelines exactly. Only the public
 * surface of Clients is used (constructor, start, send, answer).
 */
import { Engine } from '../../../src/engine/engine.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate, bucketWidth } from '../../../src/model/simulate.js';
import { Actions, Attempts } from '../../../src/model/records.js';
import { Recorder } from '../../../src/model/recorder.js';
import { Clients } from '../../../src/model/client/clients.js';
import { FAILURE_CAUSES, type FailureCause, type RunRecord, type BucketSeries } from '../../../src/model/series.js';
import type { Scenario } from '../../../src/scenario/schema.js';

export function scenarioOf(yaml: string): Scenario {
  return loadScenario(yaml, 'x.yaml').base;
}

export function run(yaml: string, seed = 1): RunRecord {
  return simulate(scenarioOf(yaml), seed);
}

export const sum = (a: ArrayLike<number>, from = 0, to = a.length): number => {
  let s = 0;
  for (let i = Math.max(0, from); i < Math.min(to, a.length); i++) s += a[i];
  return s;
};

export function failures(s: BucketSeries, cause: FailureCause): number {
  return sum(s.failures[FAILURE_CAUSES.indexOf(cause)]);
}

/** The attempts-per-action histogram as {attempts: actions}, only the non-empty entries. */
export function histogram(r: RunRecord): Record<number, number> {
  const out: Record<number, number> = {};
  r.attemptsPerAction.forEach((n, k) => { if (n > 0) out[k] = n; });
  return out;
}

export interface Sent {
  /** Index of the user action, in the order of their first attempts. */
  action: number;
  /** Attempt number within the action (1 = first). */
  n: number;
  t: number;
}

export interface Answer {
  /** Seconds until the answer (0: at once, still through an event). */
  after: number;
  /** Outcome code (src/model/outcomes.ts). */
  outcome: number;
  /** Retry-After in seconds, or NaN for none. */
  retryAfter?: number;
}

export interface Driven {
  sent: Sent[];
  /** Attempts sent by each action, in order. */
  byAction: Sent[][];
  series: BucketSeries;
  histogram: number[];
  clients: Clients;
}

/** Runs the scenario's clients to its horizon against `respond` (called once per attempt sent). */
export function drive(yaml: string, respond: (s: Sent) => Answer, seed = 1): Driven {
  const s = scenarioOf(yaml);
  const engine = new Engine();
  const actions = new Actions();
  const attempts = new Attempts();
  const rec = new Recorder({ horizonS: s.horizon, bucketS: bucketWidth(s), routeOfPopulation: Object.keys(s.clients).map(() => 0) });
  const clients = new Clients(engine, actions, attempts, rec, Object.entries(s.clients), seed, undefined, s.faults);
  const sent: Sent[] = [];
  const byAction: Sent[][] = [];
  const current = new Map<number, number>(); // action record id -> action index
  const pending = new Map<string, Answer>();
  const kAnswer = engine.on((a, gen) => {
    const ans = pending.get(`${a}/${gen}`)!;
    pending.delete(`${a}/${gen}`);
    if (attempts.isAwaited(a, gen)) clients.answer(a, ans.outcome, ans.retryAfter ?? NaN);
  });
  clients.send = (a) => {
    const id = attempts.action[a];
    const n = attempts.number[a];
    if (n === 1) {
      current.set(id, byAction.length);
      byAction.push([]);
    }
    const entry: Sent = { action: current.get(id)!, n, t: engine.now };
    sent.push(entry);
    byAction[entry.action].push(entry);
    const ans = respond(entry);
    pending.set(`${a}/${attempts.gen[a]}`, ans);
    engine.after(ans.after, kAnswer, a, attempts.gen[a]);
  };
  clients.start();
  engine.run(s.horizon);
  rec.finish();
  return { sent, byAction, series: rec.series, histogram: rec.attemptsPerAction, clients };
}

/** Relative send times of an action's attempts (from its first attempt). */
export const offsets = (xs: Sent[]): number[] => xs.map((x) => x.t - xs[0].t);

export const close = (a: number[], b: number[], eps = 1e-9): boolean => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= eps);
