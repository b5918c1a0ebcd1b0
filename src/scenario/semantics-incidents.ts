/**
 * Checks on what incidents are written with (operator actions, automation, partial faults,
 * the retry breaker) that need the rest of the scenario: the populations, routes,
 * dependencies, stages and instances named must exist (on the service an action names, or
 * the edge), action names must be unique so that
 * `undo` and the results can tell actions apart, a timed action must fall inside the run,
 * the autoscaler's bounds must hold the starting size, a shedder of retries needs something
 * that detects them, and a retry breaker has no open state to configure.
 */
import type { Scenario, ServerSpec } from './schema.js';
import { formatDuration } from './units.js';
import { actionName } from './action-name.js';
import type { SemanticProblem } from './semantic-problem.js';

export function actionProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  // The edge's autoscaler, and each service's (a service of the graph scales on its own).
  const scaled: Array<[ServerSpec, PropertyKey[], string]> = [[s.server, ['server'], 'the server'], ...Object.entries(s.services ?? {}).map(([n, spec]): [ServerSpec, PropertyKey[], string] => [spec, ['services', n], `service ${n}`])];
  for (const [spec, path, who] of scaled) {
    const auto = spec.autoscaler;
    if (!auto) continue;
    const min = auto.min ?? spec.instances;
    if (min > spec.instances) out.push({ path: [...path, 'autoscaler', 'min'], message: `${who} starts with ${spec.instances} instance(s), fewer than the autoscaler's min (${min})` });
    if (auto.max < spec.instances) out.push({ path: [...path, 'autoscaler', 'max'], message: `${who} starts with ${spec.instances} instance(s), more than the autoscaler's max (${auto.max})` });
    if (auto.every <= 0) out.push({ path: [...path, 'autoscaler', 'every'], message: 'the evaluation interval must be longer than 0s' });
    if (auto.metric === 'utilisation' && auto.target > 1) out.push({ path: [...path, 'autoscaler', 'target'], message: `a utilisation target is a busy share between 0 and 1 (got ${auto.target})` });
  }
  s.server.stages.forEach((st, i) => {
    if (st.kind === 'shed' && st.retriesOnly && !s.server.stages.slice(0, i).some((x) => x.kind === 'retry-detection')) {
      out.push({ path: ['server', 'stages', i, 'retriesOnly'], message: 'retriesOnly sheds requests detected as retries: put a retry-detection stage before this one' });
    }
  });
  const pops = Object.keys(s.clients);
  const names = s.actions.map((a, i) => actionName(a, i));
  const list = (xs: Iterable<string>) => [...xs].join(', ') || 'none';
  const targets = new Map<string | undefined, ActionTarget | undefined>();
  const targetOf = (service: string | undefined) => {
    if (!targets.has(service)) targets.set(service, actionTarget(s, service));
    return targets.get(service);
  };

  s.actions.forEach((a, i) => {
    const at = (...p: PropertyKey[]) => ['actions', i, ...p];
    const problem = (path: PropertyKey[], message: string) => out.push({ path, message });
    if (names.indexOf(names[i]) !== i) {
      problem(a.name !== undefined ? at('name') : at('do', 'kind'), `another action is already called "${names[i]}": give each action its own name (undo and the results refer to actions by name)`);
    }
    const target = targetOf(a.service);
    if (target === undefined) {
      const services = Object.keys(s.services ?? {});
      problem(at('service'), services.length ? `no service "${a.service}" (services: ${list(services)}); leave service out to act on the server users call` : `no service "${a.service}": the scenario has no services; leave service out to act on the server users call`);
      return;
    }
    const { routes, deps, stageKinds, spec, who } = target;
    if (a.service !== undefined) {
      if (a.do.kind === 'block' || a.do.kind === 'remote-switch') problem(at('service'), `a ${a.do.kind} acts on the users' requests, at the server they call: leave service out`);
      if (a.when.signal === 'load') problem(at('when', 'signal'), "signal load is the users' rate against their declared one, read at the server they call: for a service, watch its queue, utilisation or error-ratio");
    }

    const t = a.when;
    if (t.at !== undefined && t.at >= s.horizon) problem(at('when', 'at'), `the action is at ${formatDuration(t.at)}, at or after the horizon (${formatDuration(s.horizon)})`);
    if (t.every !== undefined && t.every <= 0) problem(at('when', 'every'), 'the check interval must be longer than 0s');
    if (t.route !== undefined && !routes.has(t.route)) problem(at('when', 'route'), `no route "${t.route}" (routes: ${list(routes)})`);
    if (t.signal === 'quota') {
      const withQuota = deps.filter(([, d]) => d.quota !== undefined).map(([n]) => n);
      if (t.dependency !== undefined && !withQuota.includes(t.dependency)) {
        problem(at('when', 'dependency'), `no dependency "${t.dependency}" with a quota (with a quota: ${list(withQuota)})`);
      } else if (t.dependency === undefined && withQuota.length !== 1) {
        problem(at('when', 'signal'), withQuota.length === 0 ? `signal quota needs a dependency with a quota, and ${who} has none` : `several dependencies have a quota (${list(withQuota)}): say which with dependency`);
      }
    }

    const e = a.do;
    const needPopulation = (name: string | undefined, key: string) => {
      if (name !== undefined && !pops.includes(name)) problem(at('do', key), `no client population "${name}" (the populations are: ${list(pops)})`);
    };
    const needStage = (kind: string | undefined, key: string) => {
      if (kind !== undefined && !stageKinds.has(kind)) problem(at('do', key), `no stage of kind ${kind} in the pipeline (${a.service === undefined ? 'server' : `services.${a.service}`}.stages has: ${list(spec.stages.map((st) => st.kind))}; an add-stage action can add one)`);
    };
    switch (e.kind) {
      case 'block':
        needPopulation(e.population, 'population');
        if (e.versionBelow !== undefined && !Object.values(s.clients).some((p) => p.identity?.version !== undefined)) {
          problem(at('do', 'versionBelow'), 'no population sends a version (identity.version), so a version block would block nothing');
        }
        break;
      case 'disable-route':
        if (!routes.has(e.route)) problem(at('do', 'route'), `no route "${e.route}" (routes: ${list(routes)})`);
        break;
      case 'add-stage':
        needStage(e.before, 'before');
        break;
      case 'remove-stage':
      case 'replace-stage':
        needStage(e.stage, 'stage');
        break;
      case 'fallback': {
        const dep = deps.find(([n]) => n === e.dependency);
        if (!dep) problem(at('do', 'dependency'), `no dependency "${e.dependency}" (dependencies: ${list(deps.map(([n]) => n))})`);
        (e.routes ?? []).forEach((r, k) => {
          if (!routes.has(r)) problem(at('do', 'routes', k), `no route "${r}" (routes: ${list(routes)})`);
        });
        break;
      }
      case 'remote-switch':
        needPopulation(e.population, 'population');
        break;
      case 'undo':
        if (!names.includes(e.action)) problem(at('do', 'action'), `no action called "${e.action}" (actions: ${list(names)})`);
        else if (e.action === names[i]) problem(at('do', 'action'), 'an action cannot undo itself');
        break;
    }
  });
  return out;
}

/** What an action acts on: the edge (service undefined) or a service of the graph, with what it may name. */
interface ActionTarget {
  spec: ServerSpec;
  who: string;
  routes: Set<string>;
  deps: Array<[string, NonNullable<ServerSpec['dependencies']>[string]]>;
  /** Stage kinds its pipeline has, or that an action on it adds. */
  stageKinds: Set<string>;
}

function actionTarget(s: Scenario, service: string | undefined): ActionTarget | undefined {
  const spec = service === undefined ? s.server : s.services && Object.hasOwn(s.services, service) ? s.services[service] : undefined;
  if (spec === undefined) return undefined;
  // The routes requests reach it on: the users' (the edge), or the calls into it (a service), and its own routes' settings.
  const reaching = service === undefined
    ? Object.values(s.clients).map((p) => p.identity.route)
    : [s.server, ...Object.values(s.services ?? {})].flatMap((caller) => Object.values(caller.routes ?? {}).flatMap((r) => (r.services ?? []).filter((c) => c.service === service).map((c) => c.route)));
  return {
    spec,
    who: service === undefined ? 'the server' : `service ${service}`,
    routes: new Set<string>([...reaching, ...Object.keys(spec.routes ?? {})]),
    deps: Object.entries(spec.dependencies ?? {}),
    stageKinds: new Set<string>([
      ...spec.stages.map((st) => st.kind),
      ...s.actions.filter((a) => a.service === service).flatMap((a) => (a.do.kind === 'add-stage' ? [a.do.stage.kind] : a.do.kind === 'replace-stage' ? [a.do.with.kind] : [])),
    ]),
  };
}

/**
 * The partial faults name a dependency or an instance that must exist; the errors of the
 * server's error-rate faults share one status and retryable flag (the response contract of a run
 * has one per cause); a warm-up takes time.
 */
export function partialFaultProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  // Per server (the edge, or a service of the graph): its error-rate faults' one contract.
  const contracts = new Map<string, { status: number; retryable: boolean; index: number }>();
  s.faults.forEach((f, i) => {
    const at = (...p: PropertyKey[]) => ['faults', i, ...p];
    const service = 'service' in f ? f.service : undefined;
    // A fault on a service nobody declared is the graph checks' to report (service-graph.ts).
    const server = service === undefined ? s.server : s.services && Object.hasOwn(s.services, service) ? s.services[service] : undefined;
    if (server === undefined) return;
    const deps = Object.keys(server.dependencies ?? {});
    const who = service === undefined ? 'the server' : `service ${service}`;
    let contract = contracts.get(service ?? '');
    if ((f.kind === 'error-rate' || f.kind === 'latency') && f.dependency !== undefined && !deps.includes(f.dependency)) {
      out.push({ path: at('dependency'), message: `no dependency "${f.dependency}" (dependencies: ${deps.join(', ') || 'none'})` });
    }
    if (f.kind === 'error-rate') {
      if (f.dependency !== undefined) {
        for (const key of ['status', 'retryable'] as const) {
          if (f[key] !== undefined) out.push({ path: at(key), message: `${key} is for errors of the server itself; a failing call to ${f.dependency} fails its request as a dependency failure (503, retryable)` });
        }
      } else {
        const mine = { status: f.status ?? 500, retryable: f.retryable ?? true, index: i };
        if (!contract) contracts.set(service ?? '', (contract = mine));
        else if (contract.status !== mine.status || contract.retryable !== mine.retryable) {
          out.push({ path: at(f.status !== undefined ? 'status' : 'retryable'), message: `every error-rate fault on ${who} answers the same status and retryable flag: faults[${contract.index}] says ${contract.status}${contract.retryable ? '' : ', not retryable'}` });
        }
      }
    }
    if ((f.kind === 'crash' || f.kind === 'pause') && f.instance !== undefined && f.instance >= server.instances) {
      out.push({ path: at('instance'), message: `no instance ${f.instance}: ${who} has ${server.instances} instance(s), numbered from 0 to ${server.instances - 1}` });
    }
    if (f.kind === 'crash' && f.warmup !== undefined && f.warmup.duration <= 0) out.push({ path: at('warmup', 'duration'), message: 'a warm-up must last longer than 0s' });
  });
  s.actions.forEach((a, i) => {
    if (a.do.kind !== 'restart') return;
    // The service it restarts (an unknown one is actionProblems' to report).
    const server = a.service === undefined ? s.server : s.services && Object.hasOwn(s.services, a.service) ? s.services[a.service] : undefined;
    if (server !== undefined && a.do.instance !== undefined && a.do.instance >= server.instances) {
      const who = a.service === undefined ? 'the server' : `service ${a.service}`;
      out.push({ path: ['actions', i, 'do', 'instance'], message: `no instance ${a.do.instance}: ${who} has ${server.instances} instance(s), numbered from 0 to ${server.instances - 1}` });
    }
  });
  return out;
}

/** A breaker in mode retries has no open state: the keys that configure one are mistakes. */
export function retryBreakerProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  for (const [name, pop] of Object.entries(s.clients)) {
    const layers: Array<[PropertyKey[], NonNullable<typeof pop.retry>]> = pop.layers
      ? Object.entries(pop.layers).map(([l, spec]) => [['clients', name, 'layers', l], spec])
      : pop.retry ? [[['clients', name, 'retry'], pop.retry]] : [];
    for (const [path, layer] of layers) {
      const b = layer.breaker;
      if (b?.mode !== 'retries') continue;
      for (const key of ['openFor', 'halfOpenCalls', 'whenOpen'] as const) {
        if (b[key] !== undefined) out.push({ path: [...path, 'breaker', key], message: `a breaker in mode retries never opens: it only stops retries while the failure ratio is at or above the threshold, so ${key} does not apply` });
      }
    }
  }
  return out;
}
