/**
 * The retry limit of the cluster an Envoy route sends to, as the layer's budget: Envoy counts
 * retries against the cluster's circuit breaker, not the route, so a route's retry_policy
 * says how a request retries and the cluster says how many retries may be outstanding at once
 * across every request through that Envoy (per priority). The cluster is found by name in the
 * same file (a bootstrap's static_resources.clusters, or a CDS response's resources).
 *
 * Sources (Envoy 1.39): api/envoy/config/cluster/v3/circuit_breaker.proto (max_retries
 * "If not specified, the default is 3"; RetryBudget budget_percent "Defaults to 20%",
 * min_retry_concurrency "Defaults to 3", "If this field is set, the retry budget will override
 * any configured retry circuit breaker"; the first Thresholds of a priority is used, and the
 * defaults when none is), source/common/upstream/upstream_impl.cc (getRetryBudgetParams: the
 * same defaults), source/common/router/retry_state_impl.cc (shouldRetry takes a retry from
 * the breaker when it decides to retry, through the back-off, until that retry's outcome is
 * known). The model's limit is EnvoyRetryLimit (src/model/client/budgets.ts).
 */
import { isMap, isSeq, type Node } from 'yaml';
import { entry, items, keysOf, scalar, type ConfigFile } from './config-file.js';

/** Envoy's defaults: max_retries 3; a retry_budget's budget_percent 20 and min_retry_concurrency 3. */
const MAX_RETRIES = 3, BUDGET_PERCENT = 20, MIN_RETRY_CONCURRENCY = 3;
const PRIORITIES = ['DEFAULT', 'HIGH'] as const;

/** Threshold fields about connections and requests, not retries: not modelled, said as warnings. */
const NOT_RETRIES: Record<string, string> = {
  max_connections: 'connections to the cluster',
  max_pending_requests: 'requests waiting for a connection',
  max_requests: 'requests in flight to the cluster',
  max_connection_pools: 'connection pools',
};

/** Every cluster defined in the file, by name: items of a `clusters` list, or CDS resources typed as a Cluster. */
function clustersIn(root: Node | undefined): Map<string, Node> {
  const out = new Map<string, Node>();
  const add = (n: Node) => {
    const name = scalar(entry(n, 'name')?.value);
    if (typeof name === 'string' && !out.has(name)) out.set(name, n);
  };
  const walk = (n: Node | undefined) => {
    if (isSeq(n)) for (const x of n.items as Node[]) walk(x);
    if (!isMap(n)) return;
    if (/envoy\.config\.cluster\.v3\.Cluster$/.test(String(scalar(entry(n, '@type')?.value) ?? ''))) add(n);
    for (const k of keysOf(n)) {
      // A route's weighted_clusters lists clusters by name, not their definitions.
      if (k.name === 'weighted_clusters') continue;
      if (k.name === 'clusters' && isSeq(k.value)) for (const c of k.value.items as Node[]) if (isMap(c)) add(c);
      walk(k.value);
    }
  };
  walk(root);
  return out;
}

/** A whole number from 0 to 2^32 - 1 (a UInt32Value, which YAML writes as a bare number), or undefined. */
function uint32(n: Node | undefined): number | undefined {
  const v = Number(scalar(n));
  return Number.isInteger(v) && v >= 0 && v <= 0xffffffff ? v : undefined;
}

/** A RoutingPriority as written (its name, or its number in the enum; DEFAULT when absent). */
function priorityName(n: Node | undefined): string | undefined {
  const v = scalar(n);
  return v === undefined || v === null ? 'DEFAULT' : typeof v === 'number' ? PRIORITIES[v] : String(v);
}

/** The route's priority (RouteAction.priority, DEFAULT unless set). */
function priorityOf(cfg: ConfigFile, action: Node | undefined): string | undefined {
  const p = entry(action, 'priority');
  if (!p) return 'DEFAULT';
  const name = priorityName(p.value);
  if (name === undefined || !(PRIORITIES as readonly string[]).includes(name)) {
    const v = scalar(p.value);
    cfg.report(p.value, 'route.priority', `expected DEFAULT or HIGH (got ${String(v)})`);
    return undefined;
  }
  return name;
}

/** The budget a cluster's circuit_breakers give for a priority (Envoy's defaults where it says nothing). */
function limitOf(cfg: ConfigFile, cluster: Node, name: string, priority: string): Record<string, unknown> {
  const at = (k: string) => `clusters[${name}].circuit_breakers.${k}`;
  const breakers = entry(cluster, 'circuit_breakers')?.value;
  for (const k of keysOf(breakers)) {
    if (k.name === 'per_host_thresholds') cfg.warn(k.key, at(k.name), 'per_host_thresholds is not modelled and is ignored: it bounds connections and requests per host, not retries (the simulated server is one cluster)');
    else if (k.name !== 'thresholds') cfg.report(k.key, at(k.name), `unknown field ${k.name} (thresholds, per_host_thresholds)`);
  }
  const thresholds = items(entry(breakers, 'thresholds')?.value);
  // The first Thresholds of the route's priority is used; without one, Envoy's defaults.
  const mine = thresholds.find((t) => priorityName(entry(t, 'priority')?.value) === priority);
  if (!mine) return { kind: 'envoy-max-retries', maxRetries: MAX_RETRIES };
  const i = thresholds.indexOf(mine);
  const here = (k: string) => at(`thresholds[${i}].${k}`);
  for (const k of keysOf(mine)) {
    if (Object.hasOwn(NOT_RETRIES, k.name)) cfg.warn(k.key, here(k.name), `${k.name} is ignored: it bounds ${NOT_RETRIES[k.name]}, not retries, and is not modelled (nor is its default where it is not set); where a storm would reach it, Envoy answers 503 at once and the simulation does not`);
    else if (k.name === 'track_remaining') cfg.warn(k.key, here(k.name), 'track_remaining is ignored: it publishes stats and changes no request');
    else if (!['priority', 'max_retries', 'retry_budget'].includes(k.name)) cfg.report(k.key, here(k.name), `unknown field ${k.name} (priority, max_connections, max_pending_requests, max_requests, max_retries, retry_budget, track_remaining, max_connection_pools)`);
  }
  const budget = entry(mine, 'retry_budget');
  if (budget) {
    // A retry budget overrides max_retries (circuit_breaker.proto).
    for (const k of keysOf(budget.value)) if (k.name !== 'budget_percent' && k.name !== 'min_retry_concurrency') cfg.report(k.key, here(`retry_budget.${k.name}`), `unknown field ${k.name} (budget_percent, min_retry_concurrency)`);
    const pct = entry(budget.value, 'budget_percent');
    let budgetPercent = BUDGET_PERCENT;
    if (pct) {
      // A type.v3.Percent: { value: 25.0 }.
      const v = Number(scalar(entry(pct.value, 'value')?.value));
      if (!isMap(pct.value) || !Number.isFinite(v) || v < 0 || v > 100) cfg.report(pct.value, here('retry_budget.budget_percent'), 'expected a percent, written { value: 25.0 }, from 0 to 100');
      else budgetPercent = v;
    }
    const min = entry(budget.value, 'min_retry_concurrency');
    const minRetryConcurrency = min ? uint32(min.value) : MIN_RETRY_CONCURRENCY;
    if (minRetryConcurrency === undefined) cfg.report(min?.value, here('retry_budget.min_retry_concurrency'), `expected a whole number of retries (got ${String(scalar(min?.value))})`);
    return { kind: 'envoy-budget', budgetPercent, minRetryConcurrency: minRetryConcurrency ?? MIN_RETRY_CONCURRENCY };
  }
  const max = entry(mine, 'max_retries');
  const maxRetries = max ? uint32(max.value) : MAX_RETRIES;
  if (maxRetries === undefined) cfg.report(max?.value, here('max_retries'), `expected a whole number of retries (got ${String(scalar(max?.value))})`);
  return { kind: 'envoy-max-retries', maxRetries: maxRetries ?? MAX_RETRIES };
}

/**
 * The layer's budget for a route's action: the circuit breaker of the cluster it sends to,
 * for the route's priority, shared by the whole population (`scope: population`: one Envoy in
 * front of every client of it). A cluster that is not in the file is assumed to have Envoy's
 * defaults, with a warning.
 */
export function clusterRetryLimit(cfg: ConfigFile, action: Node | undefined): Record<string, unknown> {
  const priority = priorityOf(cfg, action);
  const shared = (limit: Record<string, unknown>) => ({ ...limit, scope: 'population' });
  const assumed = `Envoy's default for a cluster without circuit_breakers is assumed: at most ${MAX_RETRIES} retries outstanding, shared by every request through this Envoy; write budget: on the layer if the cluster says otherwise`;
  const single = entry(action, 'cluster');
  const weighted = items(entry(entry(action, 'weighted_clusters')?.value, 'clusters')?.value);
  const names = single ? [String(scalar(single.value))] : weighted.map((c) => String(scalar(entry(c, 'name')?.value)));
  if (names.length === 0) {
    const how = keysOf(action).find((k) => ['cluster_header', 'cluster_specifier_plugin', 'inline_cluster_specifier_plugin'].includes(k.name));
    cfg.warn(how?.key ?? action, `route.${how?.name ?? 'cluster'}`, `the route picks its cluster per request, so its circuit breaker cannot be read: ${assumed}`);
    return shared({ kind: 'envoy-max-retries', maxRetries: MAX_RETRIES });
  }
  if (names.length > 1) {
    cfg.report(entry(action, 'weighted_clusters')!.key, 'route.weighted_clusters', `the route splits its requests across ${names.length} clusters (${names.join(', ')}), each with its own retry circuit breaker, and a layer has one: write budget: on the layer (its kind, and for instance the clusters' max_retries summed), or read a route to one cluster`);
    return shared({ kind: 'envoy-max-retries', maxRetries: MAX_RETRIES });
  }
  cfg.sharedLimiter = `cluster ${names[0]}${priority === 'HIGH' ? ' (priority HIGH)' : ''}`;
  const cluster = clustersIn(cfg.root).get(names[0]);
  if (!cluster) {
    cfg.warn(single?.value ?? weighted[0], single ? 'route.cluster' : 'route.weighted_clusters', `cluster "${names[0]}" is not defined in this file (it comes from elsewhere, such as CDS): ${assumed}`);
    return shared({ kind: 'envoy-max-retries', maxRetries: MAX_RETRIES });
  }
  return shared(priority ? limitOf(cfg, cluster, names[0], priority) : { kind: 'envoy-max-retries', maxRetries: MAX_RETRIES });
}
