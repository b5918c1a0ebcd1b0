/**
 * Instances crashing, restarting, warming up and pausing, as faults make them: a crash loses
 * what the instance holds (its slots, its queue, the requests its stages hold), takes it out
 * of the balancer and its capacity for the time it is down; it then restarts, its share of
 * slots growing through an optional warm-up. A stop-the-world pause freezes it in place.
 *
 * Why a module of its own: the per-instance life state (the token that outdates a restart
 * or warm-up step a new crash overtook, each warm-up's shape, the attempts lost) belongs to
 * none of the balancer, the capacity or the instance; this is the one place that changes
 * all of them, in order, when an instance's life changes.
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { Instance } from './instance.js';
import type { Balancer } from './balancer.js';
import type { Capacity } from './capacity.js';
import type { HeldRequests } from './held-requests.js';

/** What a crash fault says: answer lost requests with a reset?, time down, and the warm-up after it. */
export interface CrashOptions {
  reset: boolean;
  downS: number;
  warmup?: { duration: number; capacity: number };
}

export class Lifecycle {
  /** Per instance: a token that a new crash changes, so a restart or warm-up step it outdated does nothing. */
  private readonly lifeToken: Int32Array;
  // Per instance, its last crash's warm-up: the share of slots it restarts with, how long it
  // takes to reach all of them, and when it restarts.
  private readonly warmFrom: Float64Array;
  private readonly warmDurationS: Float64Array;
  private readonly warmStartS: Float64Array;
  private readonly kRestart: number;
  private readonly kWarm: number;
  /** Attempts lost to crashes and restarts (in service, queued or held by a stage when the instance went down). */
  lostAttempts = 0;

  constructor(
    private readonly engine: Engine,
    private readonly rec: Recorder,
    private readonly instances: readonly Instance[],
    private readonly capacity: Capacity,
    private readonly balancer: Balancer,
    private readonly held: HeldRequests,
  ) {
    const n = instances.length;
    this.lifeToken = new Int32Array(n);
    this.warmFrom = new Float64Array(n);
    this.warmDurationS = new Float64Array(n);
    this.warmStartS = new Float64Array(n);
    this.kRestart = engine.on((i, token) => this.restart(i, token));
    this.kWarm = engine.on((i, token) => this.warmStep(i, token));
  }

  /** Instances `which` (every instance behind the balancer when undefined) crash now, stay down `downS`, then restart with an optional warm-up. */
  crash(which: number | undefined, opts: CrashOptions): void {
    const now = this.engine.now;
    for (const i of this.indices(which)) {
      const inst = this.instances[i];
      const lost = inst.crash(opts.reset) + this.held.lose(i, opts.reset);
      this.rec.lost(now, lost);
      this.lostAttempts += lost;
      const token = ++this.lifeToken[i];
      this.balancer.markDown(i);
      this.capacity.setShare(i, 0);
      this.warmFrom[i] = opts.warmup?.capacity ?? 1;
      this.warmDurationS[i] = opts.warmup?.duration ?? 0;
      this.warmStartS[i] = now + opts.downS;
      this.engine.at(now + opts.downS, this.kRestart, i, token);
    }
    this.capacity.apply();
  }

  private restart(i: number, token: number): void {
    if (token !== this.lifeToken[i]) return; // crashed again meanwhile
    this.balancer.markUp(i);
    this.warmStep(i, token);
  }

  /**
   * Warm-up: the share of slots grows linearly from `from` to 1 over the duration; whole
   * slots, so the next step is scheduled when the next slot comes (at most ~1,000 steps).
   */
  private warmStep(i: number, token: number): void {
    if (token !== this.lifeToken[i]) return;
    const from = this.warmFrom[i], durationS = this.warmDurationS[i], startS = this.warmStartS[i];
    const now = this.engine.now;
    const t = now - startS;
    const share = durationS > 0 && t < durationS ? from + (1 - from) * (t / durationS) : 1;
    this.capacity.setShare(i, share);
    this.capacity.apply();
    if (share >= 1) return;
    const full = this.capacity.slotsPerInstance;
    if (full === 0) {
      // No slots to grow through (a capacity cut to 0): the share still grows with time, in
      // 1,000 steps over the warm-up, so a cut that ends mid-warm-up finds it where it would be.
      this.engine.at(now + durationS / 1000, this.kWarm, i, token);
      return;
    }
    const step = Math.max(1, Math.ceil(full / 1000));
    const nextSlots = Math.min(full, Math.floor(full * share + 1e-9) + step);
    const nextT = startS + ((nextSlots / full - from) / (1 - from)) * durationS;
    this.engine.at(Math.max(nextT, now), this.kWarm, i, token);
  }

  /** Stop-the-world pause of instances `which` (every instance behind the balancer when undefined), and its end. */
  pause(which: number | undefined, paused: boolean): void {
    for (const i of this.indices(which)) {
      if (paused) this.instances[i].pause();
      else this.instances[i].resume();
    }
  }

  private indices(which: number | undefined): number[] {
    if (which !== undefined) return which < this.instances.length ? [which] : [];
    return Array.from({ length: this.capacity.instanceCount }, (_, i) => i);
  }
}
