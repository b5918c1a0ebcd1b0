/**
 * A server's capacity: the slots per instance (as set, and what a capacity cut leaves), the
 * instances behind the balancer, and each instance's share of its slots (0 while down after
 * a crash, rising through a warm-up). It sets every instance's slots from them, and drains
 * an instance taken out of the balancer before its slots go to 0.
 *
 * Why a module of its own: scale actions, the autoscaler, capacity faults and the lifecycle
 * (lifecycle.ts) all change these numbers, and each change must end in the same arithmetic;
 * keeping the numbers and that arithmetic here means there is one place that decides an
 * instance's slot count.
 */
import type { Engine } from '../../engine/engine.js';
import { Overridable } from '../overridable.js';
import type { Instance } from './instance.js';

export class Capacity {
  /** Slots per instance as set, the slots a capacity cut leaves, and instances in the balancer. */
  private baseSlots: number;
  private cutSlots = Infinity;
  private active: number;
  /** What operator actions change and undo (overridable.ts): each writes its field above when it changes hands. */
  private readonly slotsSetting: Overridable<number>;
  private readonly instancesSetting: Overridable<number>;
  /** Per instance: the share of its slots it may use (0 while down after a crash, rising during a warm-up). */
  private readonly share: Float64Array;
  private readonly kDrain: number;
  private drainScheduled = false;

  constructor(private readonly engine: Engine, private readonly instances: readonly Instance[], slots: number, count: number) {
    this.baseSlots = slots;
    this.active = count;
    this.slotsSetting = new Overridable(this.baseSlots, (n) => { this.baseSlots = n; this.apply(); });
    this.instancesSetting = new Overridable(this.active, (n) => { this.active = n; this.apply(); });
    this.share = new Float64Array(instances.length).fill(1);
    this.kDrain = engine.on(() => this.drainCheck());
  }

  /** The slots per instance a capacity cut leaves (Infinity: no cut). */
  setCut(slots: number): void {
    this.cutSlots = slots;
    this.apply();
  }

  /** Slots per instance, as a scale action sets them; returns the undo. */
  setBaseSlots(n: number): () => void {
    return this.slotsSetting.override(Math.min(n, this.instances[0].maxSlots));
  }

  /** Instances behind the balancer, as a scale action sets them; returns the undo. */
  setInstances(n: number): () => void {
    return this.instancesSetting.override(this.instanceCountFor(n));
  }

  /** Instances behind the balancer, as the autoscaler decides them: no undo, and it supersedes the actions before it. */
  scaleTo(n: number): void {
    this.instancesSetting.set(this.instanceCountFor(n));
  }

  private instanceCountFor(n: number): number {
    return Math.max(1, Math.min(n, this.instances.length));
  }

  get instanceCount(): number {
    return this.active;
  }

  get slotsPerInstance(): number {
    return Math.min(this.baseSlots, this.cutSlots);
  }

  /** Instance i's share of its slots from now on; takes effect at the next `apply`. */
  setShare(i: number, share: number): void {
    this.share[i] = share;
  }

  /**
   * Sets every instance's slots from the capacity state. An instance taken out of the
   * balancer keeps its slots until it has finished what it holds (connection draining),
   * checked every second.
   */
  apply(): void {
    const slots = this.slotsPerInstance;
    let draining = false;
    this.instances.forEach((inst, i) => {
      if (i < this.active) inst.setSlots(Math.floor(slots * this.share[i] + 1e-9));
      else if (inst.outstanding === 0) inst.setSlots(0);
      else draining = true;
    });
    if (draining && !this.drainScheduled) {
      this.drainScheduled = true;
      this.engine.after(1, this.kDrain);
    }
  }

  private drainCheck(): void {
    this.drainScheduled = false;
    this.apply();
  }
}
