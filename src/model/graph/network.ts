/**
 * The network between two tiers of the graph: a call's `networkDelay`, a one-way latency
 * paid by each attempt on its way to the called service and again by its answer on the way
 * back (two draws per round trip, from the call's own stream). It sits between the called
 * service's callers (a Clients) and its Frontend, so neither knows about it: the caller's
 * timeouts, deadlines and hedges count the wire time as a real client library does, and the
 * service sees the request only when it arrives.
 *
 * What a delay cannot outlive: an attempt whose caller stopped waiting while it was on the
 * wire (a timeout, a cancelled call, a hedge that lost) is not delivered, as if the closed
 * connection reached the service first; an answer whose caller stopped waiting on its way
 * back is dropped. Both are read from the attempt's generation, which the caller's release
 * bumps (records.ts), so a record reused meanwhile is never taken for the one sent.
 */
import type { Engine } from '../../engine/engine.js';
import type { Actions, Attempts } from '../records.js';
import type { AnswerSink } from '../server/frontend.js';

/** A one-way delay per caller population (undefined: none), drawn once per crossing. */
export type DelayOf = Array<(() => number) | undefined>;

export class NetworkLinks {
  private readonly kArrive: number;
  private readonly kAnswer: number;
  // Answers on their way back: attempt, generation, outcome, Retry-After; slots reused through `free`.
  private readonly aAttempt: number[] = [];
  private readonly aGen: number[] = [];
  private readonly aOutcome: number[] = [];
  private readonly aRetryAfter: number[] = [];
  private readonly free: number[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly attempts: Attempts,
    private readonly actions: Actions,
    private readonly delayOf: DelayOf,
    /** Where a request goes when it arrives: the called service's frontend. */
    private readonly deliver: (attempt: number) => void,
    /** Where an answer goes when it arrives: the callers' clients. */
    private readonly answerSink: AnswerSink,
  ) {
    this.kArrive = engine.on((a, gen) => {
      if (this.attempts.isAwaited(a, gen)) this.deliver(a);
    });
    this.kAnswer = engine.on((slot) => this.arrived(slot));
  }

  private delay(a: number): (() => number) | undefined {
    return this.delayOf[this.actions.population[this.attempts.action[a]]];
  }

  /** The callers send attempt `a`: it reaches the service after its population's delay. */
  readonly send = (a: number): void => {
    const d = this.delay(a);
    if (d === undefined) return this.deliver(a);
    this.engine.after(d(), this.kArrive, a, this.attempts.gen[a]);
  };

  /** The service answers attempt `a`: the answer reaches its caller after the delay back. */
  readonly answer = (a: number, outcome: number, retryAfter: number): void => {
    const d = this.delay(a);
    if (d === undefined) return this.answerSink(a, outcome, retryAfter);
    const slot = this.free.length > 0 ? this.free.pop()! : this.aAttempt.length;
    this.aAttempt[slot] = a;
    this.aGen[slot] = this.attempts.gen[a];
    this.aOutcome[slot] = outcome;
    this.aRetryAfter[slot] = retryAfter;
    this.engine.after(d(), this.kAnswer, slot);
  };

  private arrived(slot: number): void {
    const a = this.aAttempt[slot];
    const awaited = this.attempts.isAwaited(a, this.aGen[slot]);
    this.free.push(slot);
    if (awaited) this.answerSink(a, this.aOutcome[slot], this.aRetryAfter[slot]);
  }
}
