/**
 * The stages of the server's pipeline, each a policy with one hook — SimPy's resource
 * idea: `check(request, now)` answers PASS, a delay before the request may go on, or a
 * refusal with its outcome. Stages run in the order the scenario lists them, before the
 * queue, and a refusal costs the server nothing but the answer.
 *
 * This file holds the hook's contract and the stages that are a few lines each; the rate
 * limit, with its store, tiers and clocks, is in rate-limit-stage.ts, and make-stage.ts makes
 * a stage from its spec.
 */
import type { Recorder } from '../recorder.js';
import type { Actions } from '../records.js';
import type { RequestView, Identities } from './request.js';
import type { Instance } from './instance.js';
import { OUTCOME_SHED, OUTCOME_UNSUPPORTED_VERSION, OUTCOME_CHALLENGED } from '../outcomes.js';
import { compareVersions } from '../version.js';
import { makeConcurrencyLimit, type ConcurrencyLimit } from './concurrency-limits.js';
import { mix } from './hash.js';
import { Sightings } from './sightings.js';
import type { z } from 'zod';
import type { stageSchema } from '../../scenario/schema-server.js';

export type StageSpec = z.output<typeof stageSchema>;

export const PASS = 0;

export interface Stage {
  /** PASS (0), a delay > 0 before going on, or -outcome to refuse (after req.refusalDelay, when the stage sets it). */
  check(req: RequestView, now: number): number;
}

/**
 * Retry detection as story 000 describes it: a fingerprint of client + route +
 * idempotency key (or body hash) remembered for a window, plus the attempt number a
 * client declares. Two different actions with the same body inside the window are a false
 * positive. The table's peak size is what a real server would have to hold.
 */
export class RetryDetection implements Stage {
  private readonly sightings: Sightings;
  // Bodies per (client, route): the widest population's, so body keys of two populations never overlap.
  private readonly bodies: number;

  constructor(
    private readonly window: number,
    private readonly useHeader: boolean,
    private readonly ids: Identities,
    private readonly actions: Actions,
    private readonly rec: Recorder,
  ) {
    this.sightings = new Sightings(window);
    this.bodies = Math.max(1, ...ids.pops.map((p) => p.distinctBodies));
  }

  /** The most fingerprints held at once. */
  get peakEntries(): number {
    return this.sightings.peak;
  }

  check(req: RequestView, now: number): number {
    const last = this.sightings.see(this.fingerprint(req), now);
    let detected = last >= 0 && now - last <= this.window;
    if (this.useHeader && req.declaredAttempt > 1) detected = true;
    if (detected) {
      req.detectedRetry = true;
      this.rec.detectedRetry(now, !req.isRetry);
    }
    return PASS;
  }

  private fingerprint(req: RequestView): number {
    const id = this.ids.pops[req.population];
    const act = req.action;
    const gen = this.actions.gen[act];
    if (id.idempotencyKeys) return -1 - (act * 1048576 + (gen & 0xfffff)); // one key per action
    // Without a key, the body identifies the request: a hash of the action picks one of the client's bodies.
    const body = mix(act * 65599 + gen) % id.distinctBodies;
    // Exact (no two bodies share a key) while it fits in 2^53; above (10^7 clients x 10^9
    // bodies), a 53-bit hash. Multiplying by large primes instead lost the low bits for
    // client ids above ~9,000 and merged neighbouring bodies into one key.
    const exact = (req.client * this.ids.routes.length + req.route) * this.bodies + body;
    if (exact <= Number.MAX_SAFE_INTEGER) return exact;
    const h = mix(req.client ^ mix(req.route + 1));
    return h * 2097152 + (mix(body ^ mix(h + 1)) & 0x1fffff);
  }
}

/** Admission control: refuse above capacity, and refuse detected retries above the originals' reserve. */
export class Admission implements Stage {
  private readonly retryLimit: number;
  constructor(private readonly capacity: number, reserve: number, private readonly instances: Instance[]) {
    // Rounded up to whole requests, with a tolerance: 100 x (1 - 0.7) is 30.000000000000004
    // in floats, which let a 31st retry in.
    this.retryLimit = Math.ceil(capacity * (1 - reserve) - 1e-9);
  }
  check(req: RequestView): number {
    const inFlight = this.instances[req.instance].outstanding;
    if (inFlight >= this.capacity) return -OUTCOME_SHED;
    if (req.detectedRetry && inFlight >= this.retryLimit) return -OUTCOME_SHED;
    return PASS;
  }
}

/**
 * A minimum supported client version (story 000): requests from apps older than the
 * minimum get 426 Upgrade Required, not retryable, before any work. Versions are per
 * population, so the verdict is computed once per population, not per request. A
 * population that sends no version passes: the server cannot refuse what it cannot see.
 */
export class MinVersion implements Stage {
  private readonly refused: Uint8Array;
  constructor(minimum: string, ids: Identities) {
    this.refused = Uint8Array.from(ids.pops, (p) => (p.version !== undefined && compareVersions(p.version, minimum) < 0 ? 1 : 0));
  }
  check(req: RequestView): number {
    return this.refused[req.population] ? -OUTCOME_UNSUPPORTED_VERSION : PASS;
  }
}

/** Netflix-style adaptive concurrency limit, one limiter per instance, fed by its completions. */
export class AdaptiveConcurrency implements Stage {
  readonly limits: ConcurrencyLimit[];
  /** What stops each instance feeding this stage's limiter (empty while detached). */
  private unlisten: Array<() => void> = [];
  constructor(spec: Extract<StageSpec, { kind: 'adaptive-concurrency' }>, private readonly instances: Instance[], rng: () => number) {
    this.limits = instances.map(() => makeConcurrencyLimit(spec, rng));
    this.attach();
  }
  /** Feeds each instance's completions to its limiter (again, after an operator put the stage back). */
  attach(): void {
    this.detach();
    this.unlisten = this.instances.map((inst, i) => {
      const limit = this.limits[i];
      return inst.listenToCompletions((now, rtt, inflight, dropped) => limit.onSample(now, rtt, inflight, dropped));
    });
  }
  /** Stops feeding this stage's limiters, and only them: the stage left the pipeline. */
  detach(): void {
    for (const stop of this.unlisten) stop();
    this.unlisten = [];
  }
  check(req: RequestView): number {
    return this.instances[req.instance].outstanding >= this.limits[req.instance].limit ? -OUTCOME_SHED : PASS;
  }
}

/**
 * Load shedding on a signal of the instance a request is routed to: the length of its
 * queue, or how long its oldest queued attempt has waited (a latency signal, the one users
 * feel). While the signal is above its threshold a share of requests is refused before it
 * queues, optionally only those detected as retries. It is a stage rather than an operator
 * action because shedding has to follow the signal request by request; an alert checked
 * every few seconds is too slow and too coarse for it.
 */
export class Shed implements Stage {
  private readonly queueAbove: number;
  private readonly waitAbove: number;
  private readonly share: number;
  private readonly retriesOnly: boolean;
  constructor(spec: Extract<StageSpec, { kind: 'shed' }>, private readonly instances: Instance[], private readonly rng: () => number) {
    this.queueAbove = spec.queueAbove ?? Infinity;
    this.waitAbove = spec.waitAbove ?? Infinity;
    this.share = spec.share;
    this.retriesOnly = spec.retriesOnly;
  }
  check(req: RequestView, now: number): number {
    const inst = this.instances[req.instance];
    if (!(inst.queued > this.queueAbove || inst.oldestWait(now) > this.waitAbove)) return PASS;
    if (this.retriesOnly && !req.detectedRetry) return PASS;
    if (this.share < 1 && this.rng() >= this.share) return PASS;
    return -OUTCOME_SHED;
  }
}

/**
 * A bot challenge at the edge, as story 003 asks for ("a barrier against bots, a captcha or
 * an invisible challenge, before any external call: the automated request dies at your edge
 * and spends nobody's quota"). Automated clients (role attacker) are answered 403 with a
 * challenge unless they pass (share `bots`). People pass an invisible challenge, except a
 * share `people` of their actions, challenged on the first try: a person who solves it sends
 * the request again, and a try of that action at least `solveTime` after the challenge passes
 * (the clearance lasts the action); a sooner one, a library retrying on its own, is challenged
 * again. Which actions are challenged is drawn per action from the stage's own stream.
 *
 * The challenged actions are held in a Sightings table that forgets them after CHALLENGE_FORGET_S:
 * someone who has not come back in ten minutes has left.
 */
/** How long a challenged action waits for its person to come back before it is forgotten. */
export const CHALLENGE_FORGET_S = 600;

export class Challenge implements Stage {
  private readonly routes: Uint8Array | null;
  private readonly automated: Uint8Array;
  private readonly waiting = new Sightings(CHALLENGE_FORGET_S);
  private readonly people: number;
  private readonly bots: number;
  private readonly solveTime: number;

  constructor(spec: Extract<StageSpec, { kind: 'challenge' }>, ids: Identities, private readonly actions: Actions, private readonly rng: () => number) {
    this.routes = spec.routes ? Uint8Array.from(ids.routes, (r) => (spec.routes!.includes(r) ? 1 : 0)) : null;
    this.automated = Uint8Array.from(ids.pops, (p) => (p.automated ? 1 : 0));
    this.people = spec.people;
    this.bots = spec.bots;
    this.solveTime = spec.solveTime;
  }

  check(req: RequestView, now: number): number {
    if (this.routes && !this.routes[req.route]) return PASS;
    if (this.automated[req.population]) return this.bots > 0 && this.rng() < this.bots ? PASS : -OUTCOME_CHALLENGED;
    const key = req.action * 1048576 + (this.actions.gen[req.action] & 0xfffff);
    const challenged = this.waiting.last(key, now);
    // Solved: this try came at least solveTime after the challenge (the entry stays, harmless, until forgotten).
    if (challenged >= 0) return now - challenged < this.solveTime ? -OUTCOME_CHALLENGED : PASS;
    // A retry of an action whose first try passed keeps its clearance.
    if (req.isRetry || this.people === 0 || this.rng() >= this.people) return PASS;
    this.waiting.see(key, now);
    return -OUTCOME_CHALLENGED;
  }
}
