/**
 * Automation as policy: a target-tracking autoscaler, as cloud providers run them. At the end
 * of each evaluation interval it reads its metric (utilisation over the interval, or attempts
 * queued per instance) and computes desired = ceil(instances x metric / target), kept between
 * min and max. When that is more than the instances running plus those already ordered, it
 * orders the difference; they take traffic `provisioning` later. When it is fewer than those
 * running (and nothing is on order) it removes the excess at once; a removed instance
 * finishes what it holds. After any decision it waits `cooldown` before the next one.
 *
 * Why it is its own module and not a pair of alert actions: it acts again and again, in both
 * directions, with a memory of what it ordered; an alert fires once. It records every change
 * of capacity among the run's actions (name "autoscaler", or "autoscaler <service>" for a
 * service of the graph, which scales on its own recorder and instances; kind "scale").
 */
import type { Engine } from '../../engine/engine.js';
import type { Scenario } from '../../scenario/schema.js';
import type { FiredAction } from '../series.js';
import type { Recorder } from '../recorder.js';
import type { Frontend } from '../server/frontend.js';
import { signalReader, type SignalReader } from './signals.js';

type AutoscalerSpec = NonNullable<Scenario['server']['autoscaler']>;

/** The edge's autoscaler is named so in the results; a service's carries the service's name. */
export const AUTOSCALER = 'autoscaler';

export class Autoscaler {
  private readonly kCheck: number;
  private readonly kArrive: number;
  private readonly utilisation?: SignalReader;
  private readonly min: number;
  /** Instances ordered and not yet taking traffic. */
  private pending = 0;
  private quietUntil = 0;
  /** The metric's value and decision time behind each order in flight, by order index. */
  private readonly orders: Array<{ value: number; decidedAtS: number; count: number }> = [];

  constructor(
    private readonly engine: Engine,
    private readonly spec: AutoscalerSpec,
    s: Scenario,
    /** The server it scales: the edge, or a service of the graph (src/model/graph/), with its own recorder. */
    private readonly server: Frontend,
    rec: Recorder,
    private readonly record: (f: FiredAction) => void,
    /** The instances that server starts with (its min by default). */
    startInstances: number,
    /** Its name among the run's actions. */
    private readonly name: string = AUTOSCALER,
  ) {
    this.min = spec.min ?? startInstances;
    if (spec.metric === 'utilisation') this.utilisation = signalReader({ signal: 'utilisation' }, { rec, server, scenario: s });
    this.kCheck = engine.on(() => this.evaluate());
    this.kArrive = engine.on((order) => this.arrive(order));
  }

  start(): void {
    this.engine.at(this.spec.every, this.kCheck);
  }

  private evaluate(): void {
    const now = this.engine.now;
    this.engine.at(now + this.spec.every, this.kCheck);
    // Read every interval, cooldown or not, so that utilisation always covers one interval.
    const running = this.server.instanceCount;
    const value = this.utilisation ? this.utilisation.read(now) : this.server.instances.reduce((x, i) => x + i.queued, 0) / running;
    if (now < this.quietUntil || Number.isNaN(value)) return;
    const desired = Math.max(this.min, Math.min(this.spec.max, Math.ceil(running * value / this.spec.target - 1e-9)));
    if (desired > running + this.pending) {
      const count = desired - running - this.pending;
      this.pending += count;
      this.orders.push({ value, decidedAtS: now, count });
      this.engine.at(now + this.spec.provisioning, this.kArrive, this.orders.length - 1);
      this.quietUntil = now + this.spec.cooldown;
    } else if (this.spec.scaleIn && this.pending === 0 && desired < running) {
      this.server.scaleTo(desired);
      this.note(now, value, now);
      this.quietUntil = now + this.spec.cooldown;
    }
  }

  private arrive(order: number): void {
    const o = this.orders[order];
    this.pending -= o.count;
    this.server.scaleTo(Math.min(this.spec.max, this.server.instanceCount + o.count));
    this.note(this.engine.now, o.value, o.decidedAtS);
  }

  private note(atS: number, value: number, decidedAtS: number): void {
    this.record({
      name: this.name,
      kind: 'scale',
      atS,
      trigger: { kind: 'autoscaler', metric: this.spec.metric, value, decidedAtS },
      instances: this.server.instanceCount,
    });
  }
}
