/**
 * Client populations: open-loop user actions arriving as a Poisson process, each driven
 * through one retry layer (per-try timeout, max attempts, backoff with jitter, which
 * failures to retry). Every attempt knows its action and whether it is a retry: ground
 * truth the server cannot see, which the measures need.
 */
import type { Engine } from '../engine/engine.js';
import { stream } from '../engine/rng.js';
import type { Population } from '../scenario/schema.js';
import type { Recorder } from './recorder.js';
import { ArrivalProcess } from './arrivals.js';
import { backoffDelay } from './backoff.js';
import { OUTCOME_OK, type Actions, type Attempts } from './records.js';
import { FAILURE_CAUSES } from './series.js';
import type { Rng } from '../engine/rng.js';

const OUTCOME_TIMEOUT = 1 + FAILURE_CAUSES.indexOf('timeout');

interface PopulationState {
  spec: Population;
  arrivals: ArrivalProcess;
  clientRng: Rng;
  backoffRng: Rng;
  timeout: number;
  maxAttempts: number;
  /** retryable[outcome] for outcome codes 1..FAILURE_CAUSES.length. */
  retryable: boolean[];
  /** The population's timeouts share one delay, so they come due in order: a FIFO lane. */
  timeoutLane: number;
}

export class Clients {
  private readonly pops: PopulationState[];
  private readonly kArrival: number;
  private readonly kTimeout: number;
  private readonly kRetry: number;
  /** Where attempts go: set once the server exists (the server answers through `answer`). */
  send: (attempt: number) => void = () => {
    throw new Error('Clients.send used before a server was connected');
  };

  constructor(
    private readonly engine: Engine,
    private readonly actions: Actions,
    private readonly attempts: Attempts,
    private readonly rec: Recorder,
    populations: Array<[string, Population]>,
    seed: number,
  ) {
    this.pops = populations.map(([name, spec]) => ({
      spec,
      arrivals: new ArrivalProcess(spec.arrivals, stream(seed, `clients/${name}/arrivals`)),
      clientRng: stream(seed, `clients/${name}/ids`),
      backoffRng: stream(seed, `clients/${name}/backoff`),
      timeout: spec.retry.timeout === 'none' ? Infinity : spec.retry.timeout,
      maxAttempts: spec.retry.maxAttempts,
      retryable: [false, ...FAILURE_CAUSES.map((c) => spec.retry.retryOn.includes(c))],
      timeoutLane: engine.lane(),
    }));
    this.kArrival = engine.on((p) => this.arrival(p));
    this.kTimeout = engine.on((a, gen) => this.timeout(a, gen));
    this.kRetry = engine.on((act, gen) => this.retry(act, gen));
  }

  start(): void {
    this.pops.forEach((p, i) => this.scheduleArrival(i, p, 0));
  }

  private scheduleArrival(i: number, p: PopulationState, after: number): void {
    const t = p.arrivals.next(after);
    if (t < Infinity) this.engine.at(t, this.kArrival, i);
  }

  private arrival(i: number): void {
    const p = this.pops[i];
    const now = this.engine.now;
    this.scheduleArrival(i, p, now);
    const client = Math.floor(p.clientRng() * p.spec.clients);
    const act = this.actions.create(i, client, now);
    this.rec.actionStarted(now);
    this.attempt(act);
  }

  private attempt(act: number): void {
    const now = this.engine.now;
    const n = ++this.actions.attempts[act];
    const isRetry = n > 1;
    const a = this.attempts.create(act, now);
    this.rec.attempt(now, isRetry);
    const p = this.pops[this.actions.population[act]];
    if (p.timeout < Infinity) this.engine.afterInLane(p.timeoutLane, p.timeout, this.kTimeout, a, this.attempts.gen[a]);
    this.send(a);
  }

  /** The server answered an attempt whose client was still waiting. */
  readonly answer = (a: number, outcome: number): void => {
    const at = this.attempts;
    const now = this.engine.now;
    this.rec.answer(now, now - at.sentT[a], outcome);
    const act = at.action[a];
    at.release(a);
    this.settle(act, outcome);
  };

  private timeout(a: number, gen: number): void {
    const at = this.attempts;
    if (!at.isAwaited(a, gen)) return; // answered already: a stale timeout
    this.rec.timedOut(this.engine.now, OUTCOME_TIMEOUT);
    const act = at.action[a];
    // The client is done with it; the server, still holding (a, gen), will find it gone.
    at.release(a);
    this.settle(act, OUTCOME_TIMEOUT);
  }

  /** An attempt ended, from the client's view: the action succeeds, retries, or fails. */
  private settle(act: number, outcome: number): void {
    const now = this.engine.now;
    const actions = this.actions;
    if (outcome === OUTCOME_OK) {
      this.rec.actionEnded(now, true, actions.attempts[act]);
      actions.release(act);
      return;
    }
    const p = this.pops[actions.population[act]];
    const made = actions.attempts[act];
    if (made < p.maxAttempts && p.retryable[outcome]) {
      const delay = backoffDelay(p.spec.retry.backoff, made, p.backoffRng);
      this.engine.after(delay, this.kRetry, act, actions.gen[act]);
    } else {
      this.rec.actionEnded(now, false, made);
      actions.release(act);
    }
  }

  private retry(act: number, gen: number): void {
    if (this.actions.gen[act] !== gen) return;
    this.attempt(act);
  }
}
