/**
 * What goes wrong, and when: each fault is a window [at, at + duration) that switches a
 * server condition on and off. Overlapping faults compose: the dependency is down while
 * any dependency fault is active; the slots left are the fewest any active cut leaves.
 */
import type { Engine } from '../engine/engine.js';
import type { Fault } from '../scenario/schema.js';
import type { FaultWindow } from './series.js';
import type { Server } from './server.js';

export function faultWindows(faults: Fault[], horizonS: number): FaultWindow[] {
  return faults.map((f) => ({ kind: f.kind, startS: f.at, endS: Math.min(f.at + f.duration, horizonS) }));
}

export function scheduleFaults(engine: Engine, server: Server, faults: Fault[], baseSlots: number): void {
  const active = new Set<number>();
  const apply = () => {
    let down = false;
    let slots = baseSlots;
    for (const i of active) {
      const f = faults[i];
      if (f.kind === 'dependency-down') down = true;
      else slots = Math.min(slots, f.slots);
    }
    server.setDependencyDown(down);
    server.setSlots(slots);
  };
  const kStart = engine.on((i) => { active.add(i); apply(); });
  const kEnd = engine.on((i) => { active.delete(i); apply(); });
  faults.forEach((f, i) => {
    engine.at(f.at, kStart, i);
    engine.at(f.at + f.duration, kEnd, i);
  });
}
