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

export function scheduleFaults(engine: Engine, server: Frontend, faults: Fault[]): void {
  const active = new Set<number>();
  const apply = () => {
    let down = false;
    let cut = Infinity;
    for (const i of active) {
      const f = faults[i];
      if (f.kind === 'dependency-down') down = true;
      else if (f.kind === 'capacity-cut') cut = Math.min(cut, f.slots);
    }
    server.setDependencyDown(down);
    server.setCut(cut);
  };
  const kStart = engine.on((i) => { active.add(i); apply(); });
  const kEnd = engine.on((i) => { active.delete(i); apply(); });
  faults.forEach((f, i) => {
    if (f.kind === 'surge') return; // drawn by the arrival processes, not switched here
    engine.at(f.at, kStart, i);
    engine.at(f.at + f.duration, kEnd, i);
  });
}
