/**
 * An Envoy route's `retry_policy` (route_components.proto, RetryPolicy) as a retry layer: the
 * route is found by its `name` in a route configuration, a listener's inline route_config or
 * a whole bootstrap file; a virtual host's retry_policy applies to its routes that have none.
 * The cluster the route sends to gives the layer its budget (envoy-cluster.ts). A field that
 * does not change the load (which host a retry picks) is read past with a warning; one that
 * changes it and cannot be simulated is a problem. The mapping, field by field, with its
 * sources, is docs/real-configs.md.
 */
import { isMap, isSeq, type Node } from 'yaml';
import { durationText, entry, items, keysOf, protoDuration, scalar, type ConfigFile } from './config-file.js';
import { clusterRetryLimit } from './envoy-cluster.js';

/** Envoy's defaults (route_components.proto): 1 retry, back-off base 25 ms, max 10x base, route timeout 15 s, rate-limited max 300 s. */
const DEFAULT_RETRIES = 1, DEFAULT_BASE = 0.025, ROUTE_TIMEOUT = 15, RATE_LIMITED_MAX = 300;

/**
 * What each retry_on condition retries, in the simulator's outcomes (docs/real-configs.md);
 * Istio's retryOn is read with the same table (istio.ts).
 */
export const RETRY_ON: Record<string, Array<string | number>> = {
  // Per-try timeouts are retried only under 5xx and gateway-error (RetryStateImpl); resets under those and reset.
  '5xx': ['timeout', 'reset', '5xx'],
  'gateway-error': ['timeout', 'reset', 502, 503, 504],
  reset: ['reset'],
  'reset-before-request': ['reset'],
  'connect-failure': ['reset'],
  'refused-stream': ['reset'],
  'retriable-4xx': [409],
  'retriable-status-codes': [],
  // gRPC conditions (x-envoy-retry-grpc-on, also valid in retry_on) read the grpc-status of an
  // answer only (wouldRetryFromHeaders), never a reset or a per-try timeout. A simulated 503
  // is UNAVAILABLE and a 429 RESOURCE_EXHAUSTED, as the grpc preset reads them; the simulated
  // server never answers DEADLINE_EXCEEDED, CANCELLED or INTERNAL.
  unavailable: [503],
  'resource-exhausted': [429],
  'deadline-exceeded': [],
  cancelled: [],
  internal: [],
};
/** Conditions about things the simulated server never sends. */
const NEVER = new Set(['envoy-ratelimited', 'retriable-headers', 'http3-post-connect-failure']);

const SUPPORTED = new Set(['retry_on', 'num_retries', 'per_try_timeout', 'per_try_idle_timeout', 'retriable_status_codes', 'retry_back_off', 'rate_limited_retry_back_off']);

interface Found { route: Node; policy: Node; action: Node | undefined }

/** Every Route (a mapping with a `route` action or a `retry_policy`) and virtual host in the file, depth first. */
function findRoutes(root: Node | undefined, name: string | undefined, cfg: ConfigFile): Found | undefined {
  const candidates: Array<{ name: string | undefined; route: Node; action: Node | undefined; policy: Node | undefined }> = [];
  const walk = (n: Node | undefined, hostPolicy: Node | undefined) => {
    if (isSeq(n)) for (const x of n.items as Node[]) walk(x, hostPolicy);
    if (!isMap(n)) return;
    const routes = entry(n, 'routes')?.value;
    const vhPolicy = isSeq(routes) ? entry(n, 'retry_policy')?.value ?? hostPolicy : hostPolicy;
    const action = entry(n, 'route')?.value;
    if (isMap(action) && (entry(n, 'match') || entry(n, 'name'))) {
      candidates.push({ name: scalar(entry(n, 'name')?.value) as string | undefined, route: n, action, policy: entry(action, 'retry_policy')?.value ?? vhPolicy });
    }
    for (const k of keysOf(n)) if (k.name !== 'route') walk(k.value, vhPolicy);
  };
  walk(root, undefined);
  const named = name === undefined ? candidates.filter((c) => c.policy) : candidates.filter((c) => c.name === name);
  if (named.length === 1 && named[0].policy) return { route: named[0].route, policy: named[0].policy, action: named[0].action };
  const names = candidates.filter((c) => c.name !== undefined).map((c) => `"${c.name}"`);
  if (name !== undefined && named.length === 1) cfg.report(named[0].route, '', `route "${name}" has no retry_policy (nor has its virtual host): Envoy does not retry it`);
  else if (name !== undefined) cfg.report(root, '', `no route named "${name}"${names.length ? ` (routes: ${names.join(', ')})` : ' (no route has a name)'}`);
  else cfg.report(root, '', named.length === 0 ? 'no route with a retry_policy' : `${named.length} routes have a retry_policy: name one with from.route${names.length ? ` (routes: ${names.join(', ')})` : ''}`);
  return undefined;
}

/**
 * The layer an Envoy route's retry policy stands for, in the scenario's own terms ("25ms",
 * [timeout, reset, 5xx]). `budgetWritten`: the scenario's layer writes its own budget (a
 * kind), which wins over the cluster's, so the cluster's is not read.
 */
export function envoyLayer(cfg: ConfigFile, routeName: string | undefined, budgetWritten = false): Record<string, unknown> | undefined {
  const found = findRoutes(cfg.root, routeName, cfg);
  if (!found) return undefined;
  const p = found.policy;
  const at = (k: string) => `retry_policy.${k}`;
  for (const k of keysOf(p)) {
    if (Object.hasOwn(IGNORED_WHY, k.name)) cfg.warn(k.key, at(k.name), `${k.name} is ignored: ${IGNORED_WHY[k.name]}`);
    else if (!SUPPORTED.has(k.name)) cfg.report(k.key, at(k.name), `${k.name} is not supported: ${UNSUPPORTED_WHY[k.name] ?? 'the simulator has no equivalent'}; remove it from the policy this layer is read from, or write the layer by hand`);
  }
  const hedge = found.action ? entry(found.action, 'hedge_policy') : undefined;
  if (hedge && scalar(entry(hedge.value, 'hedge_on_per_try_timeout')?.value) === true) {
    cfg.report(entry(hedge.value, 'hedge_on_per_try_timeout')!.key, 'route.hedge_policy.hedge_on_per_try_timeout', 'hedge_on_per_try_timeout is not supported: a per-try timeout that sends a retry while the timed-out try stays out has no equivalent in a layer (its hedge is sent after a delay, and its per-try timeout ends every attempt of the try); remove it, or write the layer by hand');
  }
  const layer: Record<string, unknown> = {};

  const retries = entry(p, 'num_retries');
  const n = retries ? Number(scalar(retries.value)) : DEFAULT_RETRIES;
  if (!Number.isInteger(n) || n < 0) cfg.report(retries?.value, at('num_retries'), `expected a whole number of retries (got ${String(scalar(retries?.value))})`);
  else layer.maxAttempts = n + 1;

  const retryOn = new Set<string | number>();
  const on = entry(p, 'retry_on');
  const conditions = String(scalar(on?.value) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!on) cfg.report(p, 'retry_policy', 'retry_on is missing: Envoy retries nothing without it');
  for (const c of conditions) {
    if (Object.hasOwn(RETRY_ON, c)) for (const x of RETRY_ON[c]) retryOn.add(x);
    else if (NEVER.has(c)) cfg.report(on?.value, at('retry_on'), `retry_on "${c}" is not supported: the simulated server never ${c === 'envoy-ratelimited' ? 'sets x-envoy-ratelimited' : c === 'retriable-headers' ? 'sends the headers it would match' : 'speaks HTTP/3'}`);
    else cfg.report(on?.value, at('retry_on'), `unknown retry_on condition "${c}" (Envoy's: ${[...Object.keys(RETRY_ON), ...NEVER].join(', ')})`);
  }
  if (conditions.includes('retriable-status-codes')) {
    const codes = entry(p, 'retriable_status_codes');
    for (const c of items(codes?.value)) {
      const v = Number(scalar(c));
      if (Number.isInteger(v) && v >= 400 && v <= 599) retryOn.add(v);
      else cfg.report(c, at('retriable_status_codes'), `expected an HTTP status from 400 to 599 (got ${String(scalar(c))}): the simulator's answers are 4xx and 5xx`);
    }
  }
  layer.retryOn = [...retryOn];

  // A simulated answer comes whole, so a try is idle from the moment it is sent: the per-try
  // idle timeout ends it as a per-try timeout would (the router handles both alike,
  // onPerTryTimeoutCommon), and the shorter of the two ends it first.
  let tryTimeout = Infinity;
  for (const name of ['per_try_timeout', 'per_try_idle_timeout']) {
    const t = entry(p, name);
    if (!t) continue;
    const s = protoDuration(t.value);
    if (s === undefined || s <= 0) cfg.report(t.value, at(name), 'expected a duration above 0, such as 2s or 0.25s');
    else tryTimeout = Math.min(tryTimeout, s);
  }
  if (tryTimeout < Infinity) layer.timeout = durationText(tryTimeout);
  // The route timeout spans every try (default 15 s; 0 disables it).
  const routeTimeout = found.action ? entry(found.action, 'timeout') : undefined;
  const deadline = routeTimeout ? protoDuration(routeTimeout.value) : ROUTE_TIMEOUT;
  if (deadline === undefined) cfg.report(routeTimeout?.value, 'route.timeout', 'expected a duration, such as 15s (0s: none)');
  else layer.deadline = deadline === 0 ? 'none' : durationText(deadline);

  const back = entry(p, 'retry_back_off');
  let base = DEFAULT_BASE, max = DEFAULT_BASE * 10;
  if (back) {
    for (const k of keysOf(back.value)) if (k.name !== 'base_interval' && k.name !== 'max_interval') cfg.report(k.key, at(`retry_back_off.${k.name}`), `unknown field ${k.name} (base_interval, max_interval)`);
    const b = protoDuration(entry(back.value, 'base_interval')?.value);
    if (b === undefined || b <= 0) cfg.report(entry(back.value, 'base_interval')?.value ?? back.key, at('retry_back_off.base_interval'), 'base_interval is required and must be above 0');
    else { base = Math.max(b, 0.001); max = base * 10; }
    const m = entry(back.value, 'max_interval');
    if (m) {
      const v = protoDuration(m.value);
      if (v === undefined || v < base) cfg.report(m.value, at('retry_back_off.max_interval'), `max_interval must be a duration of at least base_interval (${durationText(base)})`);
      else max = v;
    }
  }
  layer.backoff = { kind: 'exponential', base: durationText(base), multiplier: 2, max: durationText(max), jitter: 'full' };

  const limited = entry(p, 'rate_limited_retry_back_off');
  if (limited) {
    let hint = false;
    for (const k of keysOf(limited.value)) if (k.name !== 'reset_headers' && k.name !== 'max_interval') cfg.report(k.key, at(`rate_limited_retry_back_off.${k.name}`), `unknown field ${k.name} (reset_headers, max_interval)`);
    for (const h of items(entry(limited.value, 'reset_headers')?.value)) {
      const name = String(scalar(entry(h, 'name')?.value) ?? '').toLowerCase();
      const format = String(scalar(entry(h, 'format')?.value) ?? 'SECONDS');
      if (format !== 'SECONDS' && format !== 'UNIX_TIMESTAMP') cfg.report(entry(h, 'format')?.value, at('rate_limited_retry_back_off.reset_headers.format'), `expected SECONDS or UNIX_TIMESTAMP (got ${format})`);
      // The simulated server's one wait hint is its Retry-After (or a rate limiter's reset time): either header reads it.
      if (name === 'retry-after' || name === 'x-ratelimit-reset') hint = true;
      else cfg.report(entry(h, 'name')?.value ?? h, at('rate_limited_retry_back_off.reset_headers.name'), `reset header "${name}" is never sent by the simulated server (it sends Retry-After; X-RateLimit-Reset reads the same hint)`);
    }
    const m = entry(limited.value, 'max_interval');
    const cap = m ? protoDuration(m.value) : RATE_LIMITED_MAX;
    if (cap === undefined || cap <= 0) cfg.report(m?.value, at('rate_limited_retry_back_off.max_interval'), 'expected a duration above 0, such as 300s');
    else if (hint) layer.retryAfter = { mode: 'honour' };
  } else layer.retryAfter = { mode: 'ignore' };
  // The cluster's circuit breaker bounds the retries outstanding whatever the route says.
  if (!budgetWritten) layer.budget = clusterRetryLimit(cfg, found.action);
  return layer;
}

/** Fields that choose where a retry goes, or what it carries, not whether it is sent: read past, with a warning. */
const IGNORED_WHY: Record<string, string> = {
  retry_host_predicate: 'it chooses which host a retry goes to (previous_hosts: another than the one that failed), not whether it is sent; the simulated server is one cluster balanced by its frontend, so the load is the same',
  host_selection_retry_max_attempts: 'it bounds how often Envoy re-picks a host for a retry (with retry_host_predicate), not the retries sent',
  retry_priority: 'it chooses which priority level of hosts a retry goes to, not whether it is sent; the simulated server has one',
  retry_options_predicates: 'it changes the options of a retry\'s upstream connection, not whether it is sent',
  retriable_headers: 'it matters only with retry_on retriable-headers, and the simulated server sends no such headers',
};

const UNSUPPORTED_WHY: Record<string, string> = {
  retriable_request_headers: 'it retries only the requests that carry these headers, and simulated requests carry none, so which of them Envoy would retry cannot be told',
};
