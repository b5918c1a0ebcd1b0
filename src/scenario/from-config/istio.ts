/**
 * An Istio VirtualService's HTTP route `retries` (and its `timeout`) as a retry layer. Istio
 * programs Envoy with it, so the conditions mean what Envoy's retry_on means (envoy.ts), plus
 * gRPC status names and bare HTTP codes; a DestinationRule in the same file gives the retry
 * limit (istio-destination-rule.ts). docs/real-configs.md has the mapping.
 */
import type { Node } from 'yaml';
import { entry, items, keysOf, protoDuration, scalar, durationText, type ConfigFile } from './config-file.js';
import { destinationRuleBudget } from './istio-destination-rule.js';
import { RETRY_ON } from './envoy.js';

/** Istio's default when a route sets no retries (attempts 2, these conditions, with 503 as the retriable status code). */
const DEFAULT_ATTEMPTS = 2;
const DEFAULT_RETRY_ON = 'connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes';
/** Envoy's conditions (envoy.ts), but for retriable-status-codes: Istio sets retriable_status_codes [503] with it. */
const ENVOY: Record<string, Array<string | number>> = { ...RETRY_ON, 'retriable-status-codes': [503] };

/** `budgetWritten`: the scenario's layer writes its own budget, which wins: no DestinationRule is read. */
export function istioLayer(cfg: ConfigFile, routeName: string | undefined, budgetWritten = false): Record<string, unknown> | undefined {
  // The file may hold several resources (---): the VirtualServices among them, and the DestinationRules read below.
  const services = cfg.documents.filter((d) => scalar(entry(d, 'kind')?.value) === 'VirtualService');
  if (services.length === 0) {
    cfg.report(entry(cfg.root, 'kind')?.value ?? cfg.root, 'kind', 'expected an Istio resource of kind VirtualService');
    return undefined;
  }
  const routes = services.flatMap((vs) => items(entry(entry(vs, 'spec')?.value, 'http')?.value).map((route) => ({ vs, route })));
  const named = routeName === undefined ? routes : routes.filter((r) => scalar(entry(r.route, 'name')?.value) === routeName);
  if (named.length !== 1) {
    const names = routes.map((r) => scalar(entry(r.route, 'name')?.value)).filter((n) => n !== undefined).map((n) => `"${n}"`);
    cfg.report(entry(services[0], 'spec')?.key ?? services[0], 'spec.http', routeName === undefined ? `${routes.length} http routes: name one with from.route${names.length ? ` (routes: ${names.join(', ')})` : ''}` : `no http route named "${routeName}"${names.length ? ` (routes: ${names.join(', ')})` : ''}`);
    return undefined;
  }
  const { vs, route } = named[0] as { vs: Node | undefined; route: Node };
  const retries = entry(route, 'retries')?.value;
  for (const k of keysOf(retries)) {
    if (k.name === 'retryRemoteLocalities') cfg.warn(k.key, 'retries.retryRemoteLocalities', 'retryRemoteLocalities is ignored: it lets a retry go to another locality, not whether it is sent; the simulated server has no localities, so the load is the same');
    else if (!['attempts', 'perTryTimeout', 'retryOn'].includes(k.name)) cfg.report(k.key, `retries.${k.name}`, `unknown field ${k.name} (attempts, perTryTimeout, retryOn, retryRemoteLocalities)`);
  }
  const layer: Record<string, unknown> = {};
  const attempts = entry(retries, 'attempts');
  const n = attempts ? Number(scalar(attempts.value)) : DEFAULT_ATTEMPTS;
  if (!Number.isInteger(n) || n < 0) cfg.report(attempts?.value, 'retries.attempts', 'expected a whole number of retries');
  else layer.maxAttempts = n + 1;
  const on = entry(retries, 'retryOn');
  const retryOn = new Set<string | number>();
  for (const c of String(scalar(on?.value) ?? DEFAULT_RETRY_ON).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (/^\d{3}$/.test(c) && Number(c) >= 400 && Number(c) <= 599) retryOn.add(Number(c));
    else if (Object.hasOwn(ENVOY, c)) for (const x of ENVOY[c]) retryOn.add(x);
    else cfg.report(on?.value, 'retries.retryOn', `retryOn "${c}" is not supported (supported: ${Object.keys(ENVOY).join(', ')}, or an HTTP status such as 503)`);
  }
  layer.retryOn = [...retryOn];
  const perTry = entry(retries, 'perTryTimeout');
  if (perTry) {
    const s = protoDuration(perTry.value);
    if (s === undefined || s <= 0) cfg.report(perTry.value, 'retries.perTryTimeout', 'expected a duration above 0, such as 2s');
    else layer.timeout = durationText(s);
  }
  const timeout = entry(route, 'timeout');
  if (timeout) {
    const s = protoDuration(timeout.value);
    if (s === undefined) cfg.report(timeout.value, 'timeout', 'expected a duration, such as 10s (0s: none)');
    else layer.deadline = s === 0 ? 'none' : durationText(s);
  }
  // Istio leaves Envoy's back-off at its default: 25 ms base, 250 ms max, full jitter.
  layer.backoff = { kind: 'exponential', base: '25ms', multiplier: 2, max: '250ms', jitter: 'full' };
  layer.retryable = 'ignore';
  const budget = budgetWritten ? undefined : destinationRuleBudget(cfg, vs, route);
  if (budget) layer.budget = budget;
  return layer;
}
