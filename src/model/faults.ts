/**
 * What goes wrong, and when: each fault is a window [at, at + duration) that switches a
 * server condition on and off. Overlapping faults compose: the dependency is down while
 * any dependency fault is active; the slots left are the fewest any active cut leaves.
 * A surge changes no server condition: the arrival processes read it (src/model/arrivals.ts).
 */
import type { Engine } from '../engine/engine.js';
import type { Fault, Scenario } from '../scenario/schema.js';
import type { FaultWindow } from './series.js';
import type { Frontend } from './server/frontend.js';
import { offlineWindow } from './client/offline.js';
import { stream } from '../engine/rng.js';
import { sampler } from '../engine/distributions.js';
import { toDistributionSpec } from '../scenario/distribution-spec.js';
import type { ServiceFaults } from './server/service-faults.js';

/**
 * The windows the measures treat as faults: the scenario's faults, and the windows in
 * which a population's devices are offline (their reconnect is a trigger like a
 * dependency coming back: recovery is measured from it).
 */
export function faultWindows(s: Scenario): FaultWindow[] {
  const cap = (t: number) => Math.min(t, s.horizon);
  const windows: FaultWindow[] = s.faults.map((f) => ({ kind: f.kind, startS: f.at, endS: cap(f.at + f.duration) }));
  for (const [name, pop] of Object.entries(s.clients)) {
    // Listed even when tied to a fault (then the same window): the report says who was offline.
    const off = offlineWindow(pop.behaviour?.offline, s.faults);
    if (off) windows.push({ kind: `offline:${name}`, startS: off.from, endS: cap(off.to) });
  }
  return windows;
}

/**
 * Switches each fault on at its start and off at its end. On every change the effect of all
 * active faults is recomputed: overlapping error rates combine as independent failures
 * (1 - product of (1 - p)), slowdowns multiply their factors and add their added latencies,
 * a paused instance stays paused while any pause covers it. Crashes act at their start; the
 * restart (and warm-up) is the frontend's to schedule. Surges are drawn by the arrivals.
 */
export function scheduleFaults(engine: Engine, server: Frontend, faults: Fault[], seed: number): void {
  const active = new Set<number>();
  const adds = faults.map((f, i) => (f.kind === 'latency' && f.add ? sampler(toDistributionSpec(f.add), stream(seed, `faults/${i}/latency`)) : undefined));
  const serverErrorRng = stream(seed, 'faults/error-rate');
  const dependencyErrorRng = new Map(server.dependencies.map((d) => [d.name, stream(seed, `faults/${d.name}/error-rate`)]));
  const apply = () => {
    let down = false;
    let cut = Infinity;
    let resetBefore = 0, resetAfter = 0;
    const targets = new Map<string, { ok: number; factor: number; adds: Array<() => number>; slow: boolean }>();
    const target = (name: string) => {
      let t = targets.get(name);
      if (!t) targets.set(name, (t = { ok: 1, factor: 1, adds: [], slow: false }));
      return t;
    };
    const paused = new Set<number>();
    for (const i of active) {
      const f = faults[i];
      if (f.kind === 'dependency-down') down = true;
      else if (f.kind === 'capacity-cut') cut = Math.min(cut, f.slots);
      else if (f.kind === 'error-rate') target(f.dependency ?? '').ok *= 1 - f.probability;
      else if (f.kind === 'latency') {
        const t = target(f.dependency ?? '');
        t.slow = true;
        t.factor *= f.factor ?? 1;
        if (adds[i]) t.adds.push(adds[i]!);
      } else if (f.kind === 'reset') {
        if (f.when === 'after') resetAfter = 1 - (1 - resetAfter) * (1 - f.probability);
        else resetBefore = 1 - (1 - resetBefore) * (1 - f.probability);
      } else if (f.kind === 'pause') {
        for (let k = 0; k < server.instances.length; k++) if (f.instance === undefined || f.instance === k) paused.add(k);
      }
    }
    server.setDependencyDown(down);
    server.setCut(cut);
    server.setResets(resetBefore, resetAfter);
    const hooks = (name: string, rng: () => number): ServiceFaults | undefined => {
      const t = targets.get(name);
      if (!t) return undefined;
      const add = t.adds.length === 0 ? undefined : t.adds.length === 1 ? t.adds[0] : () => t.adds.reduce((x, a) => x + a(), 0);
      return { errorRate: 1 - t.ok, errorRng: rng, slow: t.slow, factor: t.factor, add };
    };
    const onServer = hooks('', serverErrorRng);
    for (const inst of server.instances) inst.faults = onServer;
    for (const d of server.dependencies) d.faults = hooks(d.name, dependencyErrorRng.get(d.name)!);
    server.instances.forEach((inst, k) => {
      if (paused.has(k) !== inst.isPaused) server.pause(k, paused.has(k));
    });
  };
  const kStart = engine.on((i) => {
    const f = faults[i];
    if (f.kind === 'crash') {
      server.crash(f.instance, { reset: (f.answer ?? 'reset') === 'reset', downS: f.duration, warmup: f.warmup });
      return;
    }
    active.add(i);
    apply();
  });
  const kEnd = engine.on((i) => { active.delete(i); apply(); });
  faults.forEach((f, i) => {
    if (f.kind === 'surge') return; // drawn by the arrival processes, not switched here
    engine.at(f.at, kStart, i);
    if (f.kind !== 'crash') engine.at(f.at + f.duration, kEnd, i);
  });
}
