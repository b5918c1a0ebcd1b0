/**
 * Journeys (arrivals kind after): a population that is a step of a journey starts an action
 * each time its previous step succeeds, for the same person, after the step's delay; a
 * repeated step (a session refreshed every 30 minutes) starts itself again. This module owns
 * that chaining: the journeys' shape, what each action of a journey carries (when its journey
 * started, which run of its step it is), the steps waiting out their delay, and the journey's
 * end (complete when its last step succeeded its last run, failed when a step failed), counted
 * on the population that starts it. Clients asks it at an action's start and end, and starts
 * the action it hands back when a step comes due.
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { PopulationState } from './population.js';
import { grow } from './typed-arrays.js';

/** Starts the action of step `population` for person `client`, of a journey that started at `start`, run `run` of the step. */
export type StartStep = (population: number, client: number, start: number, run: number) => void;

export class Journeys {
  /** Per population: the step that follows it (-1: none). */
  private readonly nextStep: Int32Array;
  /** Per population: the population that starts its journey (-1: not in one; itself for a first step). */
  readonly rootOf: Int32Array;
  /** Per step: its delay after the previous success, and its runs in a row (1 for a first step). */
  private readonly delay: Float64Array;
  private readonly runs: Int32Array;
  /** Per action of a journey: when its journey started, and which run of its step it is. */
  private startOf: Float64Array<ArrayBuffer> = new Float64Array(0);
  private runOf: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** Steps due but not started (their delay running): the person, the journey's start, the run; ids freed for reuse. */
  private pendingClient: Int32Array<ArrayBuffer> = new Int32Array(0);
  private pendingStart: Float64Array<ArrayBuffer> = new Float64Array(0);
  private pendingRun: Int32Array<ArrayBuffer> = new Int32Array(0);
  private readonly pendingFree: number[] = [];
  private pendingUsed = 0;
  private readonly kStep: number;

  constructor(
    private readonly engine: Engine,
    private readonly rec: Recorder,
    pops: readonly PopulationState[],
    startStep: StartStep,
  ) {
    const n = pops.length;
    this.nextStep = new Int32Array(n).fill(-1);
    this.rootOf = new Int32Array(n).fill(-1);
    this.delay = new Float64Array(n);
    this.runs = new Int32Array(n).fill(1);
    const index = new Map(pops.map((p, i) => [p.name, i]));
    const previous = new Int32Array(n).fill(-1);
    pops.forEach((p, i) => {
      const a = p.spec.arrivals;
      if (a.kind !== 'after') return;
      previous[i] = index.get(a.population)!; // the loader checked it exists, is another population and makes no circle
      this.nextStep[previous[i]] = i;
      this.delay[i] = a.delay;
      this.runs[i] = a.repeat;
    });
    for (let i = 0; i < n; i++) {
      if (previous[i] < 0 && this.nextStep[i] < 0) continue;
      let root = i;
      while (previous[root] >= 0) root = previous[root];
      this.rootOf[i] = root;
    }
    this.kStep = engine.on((i, id) => {
      const client = this.pendingClient[id], start = this.pendingStart[id], run = this.pendingRun[id];
      this.pendingFree.push(id);
      startStep(i, client, start, run);
    });
  }

  /**
   * Action `act` of population `i` (in a journey: rootOf[i] >= 0) started now: a first step
   * starts its journey; a later step carries its journey's start and its run.
   */
  started(act: number, i: number, start: number, run: number): void {
    if (act >= this.startOf.length) {
      const n = Math.max(1024, (act + 1) * 2);
      this.startOf = grow(this.startOf, n, Float64Array);
      this.runOf = grow(this.runOf, n, Int32Array);
    }
    const now = this.engine.now;
    const first = this.rootOf[i] === i;
    if (first) this.rec.journeyStarted(now, i);
    this.startOf[act] = first ? now : start;
    this.runOf[act] = run;
  }

  /** Action `act` of population `i`, person `client`, ended: the journey goes on to its next step (or run), completes, or fails. */
  ended(act: number, i: number, client: number, ok: boolean): void {
    const now = this.engine.now;
    const root = this.rootOf[i];
    if (!ok) return this.rec.journeyEnded(now, root, false, 0);
    const run = this.runOf[act];
    const next = run < this.runs[i] ? i : this.nextStep[i];
    if (next < 0) return this.rec.journeyEnded(now, root, true, now - this.startOf[act]);
    let id = this.pendingFree.pop();
    if (id === undefined) {
      id = this.pendingUsed++;
      if (id >= this.pendingClient.length) {
        const n = Math.max(64, id * 2);
        this.pendingClient = grow(this.pendingClient, n, Int32Array);
        this.pendingStart = grow(this.pendingStart, n, Float64Array);
        this.pendingRun = grow(this.pendingRun, n, Int32Array);
      }
    }
    this.pendingClient[id] = client;
    this.pendingStart[id] = this.startOf[act];
    this.pendingRun[id] = next === i ? run + 1 : 1;
    this.engine.after(this.delay[next], this.kStep, next, id);
  }
}
