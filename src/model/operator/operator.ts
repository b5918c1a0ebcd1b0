/**
 * The people (and tooling) acting during a run: the scenario's `actions`, each a trigger and
 * an effect. A timed action takes effect at its time. A conditional one is an alert: its
 * signal is measured over each check interval (`every`, default 10 s) and checked at the
 * interval's end, on multiples of `every` from the start of the run; the condition has held
 * for `for` once the last ceil(for / every) checks (at least one) all found it true, and the
 * effect follows `after` later (detection, paging, a person acting). A check with no data (a
 * ratio whose interval saw nothing end) does not find the condition true: an alert needs
 * evidence. Each action takes effect at most once; `undo` takes an earlier one back. An
 * action that names a service of the graph acts on that service's frontend, and its alert
 * reads that service's recorder and instances; the others act on the edge.
 *
 * Everything is an event of the simulation, so actions are as deterministic as the rest of
 * the run; a scenario without actions schedules nothing here.
 */
import type { Engine } from '../../engine/engine.js';
import type { Scenario, ServerSpec } from '../../scenario/schema.js';
import type { ActionSpec, Trigger } from '../../scenario/schema-actions.js';
import type { ActionTrigger, FiredAction } from '../series.js';
import type { Recorder } from '../recorder.js';
import type { Frontend } from '../server/frontend.js';
import { applyEffect, type Undo, type World } from './effects.js';
import { signalReader, type SignalReader } from './signals.js';
import { actionName } from '../../scenario/action-name.js';
import { Autoscaler, AUTOSCALER } from './autoscaler.js';

const DEFAULT_EVERY_S = 10;

interface Armed {
  spec: ActionSpec;
  /** What it acts on and reads: the edge, or the service it names (undefined: a service nobody calls, which was not built). */
  target: { server: Frontend; rec: Recorder } | undefined;
  name: string;
  reader?: SignalReader;
  everyS: number;
  /** Checks in a row that found the condition true. */
  streak: number;
  needed: number;
  trigger?: ActionTrigger;
}

export class Operator {
  readonly fired: FiredAction[] = [];
  private readonly armed: Armed[];
  /** The undo of each action that took effect, by name (taken when undone). */
  private readonly undos = new Map<string, Undo>();
  private readonly kCheck: number;
  private readonly kAct: number;
  /** The autoscalers of the edge and of the services that have one: automation acting beside the people. */
  private readonly autoscalers: Autoscaler[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly s: Scenario,
    private readonly world: World,
    private readonly rec: Recorder,
  ) {
    this.armed = s.actions.map((spec, i) => {
      const everyS = spec.when.every ?? DEFAULT_EVERY_S;
      const svc = spec.service === undefined ? undefined : world.services?.find((n) => n.name === spec.service);
      const target = spec.service === undefined ? { server: world.server, rec } : svc && { server: svc.frontend, rec: svc.rec };
      return { spec, target, name: actionName(spec, i), everyS, streak: 0, needed: Math.max(1, Math.ceil((spec.when.for ?? 0) / everyS - 1e-9)) };
    });
    this.kCheck = engine.on((i) => this.check(i));
    this.kAct = engine.on((i) => this.act(i));
    const record = (f: FiredAction) => this.fired.push(f);
    const auto = s.server.autoscaler;
    if (auto) this.autoscalers.push(new Autoscaler(engine, auto, s, world.server, rec, record, s.server.instances));
    // Each service of the graph with an autoscaler of its own, in declaration order (graph.ts builds them so).
    for (const svc of world.services ?? []) {
      const a = svc.spec.autoscaler;
      if (a) this.autoscalers.push(new Autoscaler(engine, a, s, svc.frontend, svc.rec, record, svc.spec.instances, `${AUTOSCALER} ${svc.name}`));
    }
  }

  start(): void {
    for (const a of this.autoscalers) a.start();
    this.armed.forEach((a, i) => {
      const t = a.spec.when;
      if (t.at !== undefined) {
        a.trigger = { kind: 'at' };
        this.engine.at(t.at, this.kAct, i);
      } else if (a.target !== undefined) {
        a.reader = signalReader(t, { rec: a.target.rec, server: a.target.server, scenario: this.s });
        this.engine.at(a.everyS, this.kCheck, i);
      }
    });
  }

  private check(i: number): void {
    const a = this.armed[i];
    const t = a.spec.when;
    const now = this.engine.now;
    const v = a.reader!.read(now);
    // NaN compares false both ways: no data never makes a condition true.
    const holds = t.above !== undefined ? v > t.above : v < t.below!;
    a.streak = holds ? a.streak + 1 : 0;
    if (a.streak >= a.needed) {
      a.trigger = triggerRecord(t, a.everyS, now, v);
      this.engine.at(now + (t.after ?? 0), this.kAct, i);
      return; // an alert fires its action once
    }
    this.engine.at(now + a.everyS, this.kCheck, i);
  }

  private act(i: number): void {
    const a = this.armed[i];
    const e = a.spec.do;
    const record: FiredAction = { name: a.name, kind: e.kind, atS: this.engine.now, trigger: a.trigger! };
    if (e.kind === 'undo') {
      const undo = this.undos.get(e.action);
      if (undo) {
        this.undos.delete(e.action);
        undo();
      } else record.note = `nothing to undo: "${e.action}" has not taken effect (or was undone already)`;
    } else if (a.target === undefined) {
      record.note = `service "${a.spec.service}" is called by nobody in this run, so it was not built: nothing to act on`;
    } else {
      this.undos.set(a.name, applyEffect(e, { ...this.world, server: a.target.server }));
    }
    if (e.kind === 'scale' && a.target !== undefined) record.instances = a.target.server.instanceCount;
    this.fired.push(record);
  }
}

function triggerRecord(t: Trigger, everyS: number, heldAtS: number, value: number): ActionTrigger {
  return {
    kind: 'signal',
    signal: t.signal!,
    ...(t.above !== undefined ? { above: t.above } : { below: t.below }),
    forS: t.for ?? 0,
    everyS,
    afterS: t.after ?? 0,
    heldAtS,
    value,
  };
}

/** The capacity the edge may reach through its scale actions and autoscaler (the frontend lays out that many instances and slots). */
export function capacityBounds(s: Scenario): { maxInstances: number; maxSlots: number } {
  return serviceCapacityBounds(s.server, undefined, s.actions);
}

/** The capacity a server (the edge when `service` is undefined, else that service of the graph) may reach through the scale actions on it and its autoscaler. */
export function serviceCapacityBounds(spec: ServerSpec, service: string | undefined, actions: readonly ActionSpec[]): { maxInstances: number; maxSlots: number } {
  let maxInstances = Math.max(spec.instances, spec.autoscaler?.max ?? 0), maxSlots = spec.slots;
  for (const a of actions) {
    if (a.do.kind !== 'scale' || a.service !== service) continue;
    maxInstances = Math.max(maxInstances, a.do.instances ?? 0);
    maxSlots = Math.max(maxSlots, a.do.slots ?? 0);
  }
  return { maxInstances, maxSlots };
}
