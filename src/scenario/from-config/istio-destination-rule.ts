/**
 * The retry limit an Istio DestinationRule sets for the host a VirtualService route sends
 * to, as the layer's budget: `trafficPolicy.connectionPool.http.maxRetries` is Envoy's
 * max_retries circuit breaker for that host's cluster (envoy-cluster.ts says how it binds).
 * The rule is read from the same file (a kubectl file holds several resources, `---`
 * apart). Without one, Istio's default is no limit (2^32 - 1), and the layer has no budget.
 *
 * Whose retries one breaker counts: a route bound to the mesh runs in each caller's sidecar,
 * one Envoy per client (`scope: client`); a route bound only to gateways runs in the gateway,
 * one Envoy for every client of the population (`scope: population`).
 *
 * Source: istio.io's DestinationRule reference (networking/v1, ConnectionPoolSettings.
 * HTTPSettings.maxRetries: "Maximum number of retries that can be outstanding to all hosts in
 * a cluster at a given time. Defaults to 2^32-1."; a subset's trafficPolicy overrides the
 * host's) and VirtualService (gateways: "The reserved word mesh is used to imply all the
 * sidecars in the mesh. When this field is omitted, the default gateway (mesh) will be used").
 */
import type { Node } from 'yaml';
import { entry, items, keysOf, scalar, type ConfigFile } from './config-file.js';

/** ConnectionPoolSettings fields that bound connections and requests, not retries: warnings. */
const NOT_RETRIES = 'it bounds connections or requests, not retries, and is not modelled; where a storm would reach it, the sidecar answers 503 at once and the simulation does not';

/** Whether two Istio host names name one service: equal, or one is the other's short name. */
function sameHost(a: string, b: string): boolean {
  return a === b || (!a.includes('.') && b.split('.')[0] === a) || (!b.includes('.') && a.split('.')[0] === b);
}

/** The retry limit of one trafficPolicy (undefined: it sets none); what it reads past is said. */
function maxRetriesOf(cfg: ConfigFile, policy: Node | undefined, at: string): number | undefined {
  let max: number | undefined;
  for (const k of keysOf(policy)) {
    if (k.name === 'connectionPool') {
      for (const c of keysOf(k.value)) {
        if (c.name !== 'http') { cfg.warn(c.key, `${at}.connectionPool.${c.name}`, `connectionPool.${c.name} is ignored: ${NOT_RETRIES}`); continue; }
        for (const h of keysOf(c.value)) {
          if (h.name !== 'maxRetries') { cfg.warn(h.key, `${at}.connectionPool.http.${h.name}`, `connectionPool.http.${h.name} is ignored: ${NOT_RETRIES}`); continue; }
          const v = Number(scalar(h.value));
          if (!Number.isInteger(v) || v < 0) cfg.report(h.value, `${at}.connectionPool.http.maxRetries`, `expected a whole number of retries (got ${String(scalar(h.value))})`);
          else max = v;
        }
      }
    } else if (k.name === 'outlierDetection') {
      cfg.warn(k.key, `${at}.outlierDetection`, 'outlierDetection is ignored: it takes failing hosts out of the balancing, and the simulated server is one cluster balanced by its frontend; the retries sent are the same');
    } else if (k.name === 'portLevelSettings' && items(k.value).some((p) => entry(entry(entry(p, 'connectionPool')?.value, 'http')?.value, 'maxRetries'))) {
      cfg.report(k.key, `${at}.portLevelSettings`, 'a retry limit per port (portLevelSettings[].connectionPool.http.maxRetries) is not supported: the layer has one; write budget: on the layer, or set it on the trafficPolicy');
    } else {
      cfg.warn(k.key, `${at}.${k.name}`, `${k.name} is ignored: it does not change the retries sent`);
    }
  }
  return max;
}

/**
 * The budget of a route's destinations from the file's DestinationRules: undefined when no
 * rule sets maxRetries (Istio's default: no limit). A route split across several hosts or
 * subsets, each a cluster with its own breaker, is refused when a rule limits their retries.
 */
export function destinationRuleBudget(cfg: ConfigFile, virtualService: Node | undefined, route: Node): Record<string, unknown> | undefined {
  const rules = cfg.documents.filter((d) => scalar(entry(d, 'kind')?.value) === 'DestinationRule');
  const destinations = items(entry(route, 'route')?.value).map((r) => entry(r, 'destination')?.value);
  const targets = [...new Map(destinations.map((d) => {
    const host = String(scalar(entry(d, 'host')?.value) ?? ''), subset = scalar(entry(d, 'subset')?.value) as string | undefined;
    return [`${host}/${subset ?? ''}`, { host, subset }] as const;
  })).values()];
  const limits = targets.map(({ host, subset }) => {
    const rule = rules.find((r) => sameHost(String(scalar(entry(entry(r, 'spec')?.value, 'host')?.value) ?? ''), host));
    if (!rule) return undefined;
    const spec = entry(rule, 'spec')?.value;
    const name = String(scalar(entry(entry(rule, 'metadata')?.value, 'name')?.value) ?? host);
    const top = maxRetriesOf(cfg, entry(spec, 'trafficPolicy')?.value, `DestinationRule ${name}.spec.trafficPolicy`);
    const sub = items(entry(spec, 'subsets')?.value).find((s) => subset !== undefined && scalar(entry(s, 'name')?.value) === subset);
    // A subset's trafficPolicy overrides the host's.
    const own = sub ? maxRetriesOf(cfg, entry(sub, 'trafficPolicy')?.value, `DestinationRule ${name}.spec.subsets[${subset}].trafficPolicy`) : undefined;
    return own ?? top;
  });
  if (limits.every((l) => l === undefined)) {
    if (targets.length > 0 && !targets.some(({ host }) => rules.some((r) => sameHost(String(scalar(entry(entry(r, 'spec')?.value, 'host')?.value) ?? ''), host)))) {
      cfg.warn(entry(route, 'route')?.key ?? route, 'route', `no DestinationRule for ${targets.map((t) => t.host).join(', ')} in this file: Istio's default is assumed, no limit on the retries outstanding (maxRetries 2^32-1); put the rule in the same file (after ---), or write budget: on the layer`);
    }
    return undefined;
  }
  if (targets.length > 1) {
    cfg.report(entry(route, 'route')?.key ?? route, 'route', `the route splits its requests across ${targets.length} destinations (${targets.map((t) => (t.subset ? `${t.host} subset ${t.subset}` : t.host)).join(', ')}), each a cluster with its own retry limit, and a layer has one: write budget: on the layer, or read a route to one destination`);
    return undefined;
  }
  const gateways = items(entry(entry(virtualService, 'spec')?.value, 'gateways')?.value).map((g) => String(scalar(g)));
  const sidecar = gateways.length === 0 || gateways.includes('mesh');
  if (!sidecar) cfg.sharedLimiter = `the gateways' cluster of ${targets[0].host}${targets[0].subset ? ` subset ${targets[0].subset}` : ''}`;
  return { kind: 'envoy-max-retries', maxRetries: limits[0], scope: sidecar ? 'client' : 'population' };
}
