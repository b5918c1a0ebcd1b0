/**
 * The load balancer in front of a server's instances: which instance a request goes to, and
 * its health check, which keeps instances that are down after a crash out of the choice.
 *
 * Why a module of its own: the policy's own state (round robin's next instance, the random
 * stream of random and power-of-two picks) and the count of instances down belong to the
 * balancer alone; the frontend asks it for an instance, and the lifecycle (lifecycle.ts)
 * tells it when an instance goes down and comes back.
 */
import { stream, type Rng } from '../../engine/rng.js';
import type { ServerSpec } from '../../scenario/schema.js';
import type { Instance } from './instance.js';

export class Balancer {
  private nextInstance = 0;
  /** Instances marked down: while none is, the choice is the one of a balancer without a health check. */
  private downCount = 0;
  private readonly rng: Rng;

  constructor(private readonly policy: ServerSpec['loadBalancer'], private readonly instances: readonly Instance[], seed: number) {
    this.rng = stream(seed, 'server/balancer');
  }

  /**
   * The instance among the first `n` (those behind the balancer) a request goes to, or -1 when
   * every one is down. Its health check keeps crashed instances out: each policy chooses among
   * the instances that are up. (A crashed instance has nothing outstanding: least-outstanding
   * chose it every time, and its neighbour took all its traffic while the others idled.) With
   * every instance up, the choice and the random draws are what they always were.
   */
  pick(n: number): number {
    if (n === 1) return this.isUp(0) ? 0 : -1;
    const someDown = this.downCount > 0;
    switch (this.policy) {
      case 'round-robin': {
        for (let k = 0; k < n; k++) {
          const i = this.nextInstance < n ? this.nextInstance : 0;
          this.nextInstance = (i + 1) % n;
          if (this.isUp(i)) return i;
        }
        return -1;
      }
      case 'random': {
        const m = someDown ? this.upCount(n) : n;
        return m === 0 ? -1 : this.nthUp(Math.floor(this.rng() * m), n);
      }
      case 'least-outstanding': {
        let best = -1;
        for (let i = 0; i < n; i++) {
          if (this.isUp(i) && (best < 0 || this.instances[i].outstanding < this.instances[best].outstanding)) best = i;
        }
        return best;
      }
      case 'power-of-two': {
        // Two distinct instances at random; the less loaded wins, the first drawn on a tie.
        const m = someDown ? this.upCount(n) : n;
        if (m <= 1) return m === 0 ? -1 : this.nthUp(0, n);
        const i = Math.floor(this.rng() * m);
        let j = Math.floor(this.rng() * (m - 1));
        if (j >= i) j++;
        const a = this.nthUp(i, n), b = this.nthUp(j, n);
        return this.instances[b].outstanding < this.instances[a].outstanding ? b : a;
      }
    }
  }

  /** Instance i went down (a crash): the health check takes it out until `markUp`. */
  markDown(i: number): void {
    const inst = this.instances[i];
    if (!inst.down) this.downCount++;
    inst.down = true;
  }

  /** Instance i is up again (it restarted). */
  markUp(i: number): void {
    const inst = this.instances[i];
    if (inst.down) this.downCount--;
    inst.down = false;
  }

  private isUp(i: number): boolean {
    return this.downCount === 0 || !this.instances[i].down;
  }

  /** How many of the first n instances are up. */
  private upCount(n: number): number {
    let m = 0;
    for (let i = 0; i < n; i++) if (!this.instances[i].down) m++;
    return m;
  }

  /** The k-th of the first n instances that is up (k itself when none is down). */
  private nthUp(k: number, n: number): number {
    if (this.downCount === 0) return k;
    for (let i = 0; i < n; i++) if (!this.instances[i].down && k-- === 0) return i;
    return -1;
  }
}
