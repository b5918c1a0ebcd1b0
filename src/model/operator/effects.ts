/**
 * What an operator's action does to the world, one effect kind each, and how to take it
 * back. Each effect is applied through the part of the model that owns the thing changed
 * (the edge, the pipeline, the capacity, a dependency, a population's remote switch) and
 * returns the function that undoes it, so `undo` needs no knowledge of what it undoes.
 */
import type { Effect } from '../../scenario/schema-actions.js';
import type { Frontend } from '../server/frontend.js';
import type { Clients } from '../client/clients.js';
import type { Recorder } from '../recorder.js';
import type { ServerSpec } from '../../scenario/schema.js';

export interface World {
  server: Frontend;
  clients: Clients;
  /** The services of the graph (src/model/graph/), when there are any: what an action or an autoscaler naming a service acts on. */
  services?: ReadonlyArray<ServiceTarget>;
}

/** A service of the graph as operators and automation reach it: its frontend, its own recorder, its spec. */
export interface ServiceTarget {
  name: string;
  spec: ServerSpec;
  rec: Recorder;
  frontend: Frontend;
}

export type Undo = () => void;

/** Applies an effect other than `undo` (the operator handles that one); returns its undo. */
export function applyEffect(e: Exclude<Effect, { kind: 'undo' }>, world: World): Undo {
  const { server, clients } = world;
  switch (e.kind) {
    case 'block':
      return server.edge.block(e);
    case 'disable-route':
      return server.edge.disableRoute(e.route, e.answer);
    case 'add-stage':
      return server.addStage(e.stage, e.before);
    case 'remove-stage':
      return server.removeStage(e.stage);
    case 'replace-stage':
      return server.replaceStage(e.stage, e.with);
    case 'retry-after':
      return server.setRetryAfter(e.retryAfter);
    case 'scale': {
      const undoSlots = e.slots !== undefined ? server.setBaseSlots(e.slots) : undefined;
      const undoInstances = e.instances !== undefined ? server.setInstances(e.instances) : undefined;
      return () => { undoInstances?.(); undoSlots?.(); };
    }
    case 'fallback': {
      const dep = server.dependencies.find((d) => d.name === e.dependency);
      return dep ? dep.forceFallback(e.routes) : () => {};
    }
    case 'remote-switch':
      return clients.setRemoteSwitch(e.population, { maxAttempts: e.maxAttempts, minWait: e.minWait });
    case 'restart':
      server.crash(e.instance, { reset: true, downS: 0, warmup: e.warmup });
      return () => {}; // what was lost stays lost
  }
}
