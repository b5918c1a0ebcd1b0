/**
 * When a population's devices are offline. `behaviour.offline` gives the window either as
 * fixed times (from, to) or as one of the scenario's faults (fault: N): a phone loses its
 * network while the outage lasts and flushes its queue when it ends.
 *
 * The fault form is resolved here, when the model is built, and not by the schema: a sweep
 * of `faults[0].at` or `faults[0].duration` is applied to the raw scenario and validated
 * point by point, so only the scenario a run receives knows the fault's actual window.
 * Both the clients (queue, flush) and the measures' fault windows read it from here, so
 * they cannot disagree.
 */
import type { Behaviour, Fault } from '../../scenario/schema.js';

type OfflineSpec = NonNullable<Behaviour['offline']>;

export interface OfflineWindow {
  /** Devices are offline during [from, to), in seconds from the start of the run. */
  from: number;
  to: number;
  flush: OfflineSpec['flush'];
}

export function offlineWindow(offline: Behaviour['offline'], faults: readonly Fault[]): OfflineWindow | undefined {
  if (!offline) return undefined;
  if (offline.fault === undefined) return { from: offline.from!, to: offline.to!, flush: offline.flush };
  const f = faults[offline.fault];
  // The loader reports a missing fault with its position (semantics.ts); this only guards
  // callers that build a Scenario by hand.
  if (!f) throw new Error(`behaviour.offline.fault: there is no faults[${offline.fault}] (the scenario has ${faults.length} fault(s))`);
  return { from: f.at, to: f.at + f.duration, flush: offline.flush };
}
