/**
 * A gRPC service config (JSON, gRFC A6): the `retryPolicy` or the `hedgingPolicy` of the
 * methodConfig that names a service (and method), and the channel's `retryThrottling`, as a
 * retry layer (a hedging policy is a layer that sends one try and hedges it). Values follow
 * the `grpc` preset's reading of gRFC A6 (src/model/client/presets.ts) so that the preset and
 * a service config with the same numbers are the same layer. docs/real-configs.md has the
 * mapping, field by field.
 */
import type { Node } from 'yaml';
import { durationText, entry, items, keysOf, protoDuration, scalar, type ConfigFile } from './config-file.js';

/** gRPC clients treat maxAttempts above 5 as 5 (gRFC A6, "Limits on Retries and Hedges"). */
export const GRPC_MAX_ATTEMPTS = 5;

/** What each retryable status code stands for among the simulator's outcomes (as the grpc preset reads UNAVAILABLE). */
const STATUS: Record<string, Array<string | number>> = {
  UNAVAILABLE: ['reset', 503],
  RESOURCE_EXHAUSTED: [429],
  DEADLINE_EXCEEDED: ['timeout'],
};
/** Valid status codes the simulated server never answers with: accepted, and they add nothing. */
const NEVER_SENT = ['CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'DATA_LOSS', 'UNAUTHENTICATED'];

const POLICY_FIELDS = new Set(['maxAttempts', 'initialBackoff', 'maxBackoff', 'backoffMultiplier', 'retryableStatusCodes', 'perAttemptRecvTimeout']);
/** methodConfig fields read. */
const METHOD_FIELDS = new Set(['name', 'retryPolicy', 'hedgingPolicy', 'timeout']);
/** methodConfig fields that do not change the attempts sent: read past, with a warning. */
const METHOD_IGNORED: Record<string, string> = {
  waitForReady: 'it makes an RPC wait for a ready connection rather than fail at once; the simulated channel is always ready',
  maxRequestMessageBytes: 'it bounds message sizes, and simulated messages have none',
  maxResponseMessageBytes: 'it bounds message sizes, and simulated messages have none',
};
/** Service config fields that do not change the attempts sent: read past, with a warning. */
const CONFIG_IGNORED: Record<string, string> = {
  loadBalancingConfig: 'it chooses which backend an RPC goes to, not whether it is sent; the simulated server is one cluster balanced by its frontend',
  loadBalancingPolicy: 'it chooses which backend an RPC goes to, not whether it is sent; the simulated server is one cluster balanced by its frontend',
  healthCheckConfig: 'client-side health checks choose backends, not the attempts sent',
};
const HEDGING_FIELDS = new Set(['maxAttempts', 'hedgingDelay', 'nonFatalStatusCodes']);

function nameMatches(nameList: Node | undefined, service: string | undefined, method: string | undefined): boolean {
  return items(nameList).some((n) => {
    const s = scalar(entry(n, 'service')?.value), m = scalar(entry(n, 'method')?.value);
    return (service === undefined || s === service || s === undefined || s === '') && (method === undefined || m === method || m === undefined);
  });
}

export function grpcLayer(cfg: ConfigFile, service: string | undefined, method: string | undefined): Record<string, unknown> | undefined {
  const configs = items(entry(cfg.root, 'methodConfig')?.value);
  const matching = configs.filter((c) => (entry(c, 'retryPolicy') || entry(c, 'hedgingPolicy')) && nameMatches(entry(c, 'name')?.value, service, method));
  if (matching.length !== 1) {
    const what = service === undefined ? 'a methodConfig with a retryPolicy or a hedgingPolicy' : `a methodConfig with a retryPolicy or a hedgingPolicy for ${service}${method ? `/${method}` : ''}`;
    cfg.report(entry(cfg.root, 'methodConfig')?.key ?? cfg.root, 'methodConfig', matching.length === 0 ? `no ${what}` : `${matching.length} methodConfigs match: name the service (and method) with from.service and from.method`);
    return undefined;
  }
  const mc = matching[0];
  for (const k of keysOf(cfg.root)) {
    if (Object.hasOwn(CONFIG_IGNORED, k.name)) cfg.warn(k.key, k.name, `${k.name} is ignored: ${CONFIG_IGNORED[k.name]}`);
    // A misspelt retryThrottling would drop the throttle silently.
    else if (k.name !== 'methodConfig' && k.name !== 'retryThrottling') cfg.report(k.key, k.name, `unknown service config field ${k.name} (methodConfig, retryThrottling, ${Object.keys(CONFIG_IGNORED).join(', ')})`);
  }
  for (const k of keysOf(mc)) {
    if (Object.hasOwn(METHOD_IGNORED, k.name)) cfg.warn(k.key, `methodConfig.${k.name}`, `${k.name} is ignored: ${METHOD_IGNORED[k.name]}`);
    else if (!METHOD_FIELDS.has(k.name)) cfg.report(k.key, `methodConfig.${k.name}`, `unknown methodConfig field ${k.name}`);
  }
  const hedging = entry(mc, 'hedgingPolicy');
  if (hedging && entry(mc, 'retryPolicy')) {
    cfg.report(hedging.key, 'methodConfig.hedgingPolicy', 'a methodConfig has a retryPolicy or a hedgingPolicy, not both (gRFC A6: "Only one of retryPolicy or hedgingPolicy may be set"): remove one');
    return undefined;
  }
  const layer: Record<string, unknown> = hedging ? hedgingLayer(cfg, hedging.value) : retryLayer(cfg, entry(mc, 'retryPolicy')!.value);
  const timeout = entry(mc, 'timeout');
  if (timeout) {
    const s = protoDuration(timeout.value);
    if (s === undefined || s <= 0) cfg.report(timeout.value, 'methodConfig.timeout', 'expected a duration above 0, written like "10s"');
    else layer.deadline = durationText(s);
  }
  // Server pushback (grpc-retry-pushback-ms) is waited exactly, as the grpc preset models it.
  layer.retryAfter = { mode: 'exact' };

  const throttling = entry(cfg.root, 'retryThrottling');
  if (throttling) {
    for (const k of keysOf(throttling.value)) if (k.name !== 'maxTokens' && k.name !== 'tokenRatio') cfg.report(k.key, `retryThrottling.${k.name}`, `${k.name} is not a retryThrottling field (maxTokens, tokenRatio)`);
    const tokens = Number(scalar(entry(throttling.value, 'maxTokens')?.value));
    const ratio = Number(scalar(entry(throttling.value, 'tokenRatio')?.value));
    if (!(Number.isFinite(tokens) && tokens > 0 && tokens <= 1000)) cfg.report(entry(throttling.value, 'maxTokens')?.value ?? throttling.key, 'retryThrottling.maxTokens', 'maxTokens must be a number in (0, 1000] (gRFC A6)');
    else if (!(Number.isFinite(ratio) && ratio > 0)) cfg.report(entry(throttling.value, 'tokenRatio')?.value ?? throttling.key, 'retryThrottling.tokenRatio', 'tokenRatio must be a number above 0 (gRFC A6)');
    else layer.budget = { kind: 'grpc-throttle', maxTokens: tokens, tokenRatio: ratio };
  }
  return layer;
}

/** The status codes of a retryableStatusCodes or nonFatalStatusCodes list, as the outcomes they stand for. */
function statusCodes(cfg: ConfigFile, codes: Node | undefined, at: string): Array<string | number> {
  const out = new Set<string | number>();
  for (const c of items(codes)) {
    const v = String(scalar(c)).toUpperCase();
    if (Object.hasOwn(STATUS, v)) for (const x of STATUS[v]) out.add(x);
    else if (!NEVER_SENT.includes(v)) cfg.report(c, at, `unknown status code "${String(scalar(c))}" (gRPC's: ${[...Object.keys(STATUS), ...NEVER_SENT].join(', ')})`);
  }
  if (codes && items(codes).length === 0) cfg.report(codes, at, `${at.split('.').at(-1)} must not be empty (gRFC A6)`);
  return [...out];
}

/**
 * A hedgingPolicy (gRFC A6, "Hedging Policy"): the original RPC at once and up to
 * maxAttempts - 1 hedges, hedgingDelay apart, while none has succeeded; the first success
 * wins and the others are cancelled. As a layer: one try (maxAttempts 1: an RPC is hedged
 * or retried, not both) whose innermost-layer `hedge` sends maxAttempts - 1 hedges (at most
 * 4, as clients cap maxAttempts at 5) `hedgingDelay` apart (0s, or unset: all at once). gRPC
 * has no per-try hedge budget, so the layer's is the largest the layer takes (budget 1: one
 * hedge per try earned, ten held). nonFatalStatusCodes become the layer's retryOn, what the
 * layer counts as worth another attempt. What the simulated hedge does not do, said in
 * docs/real-configs.md: a non-fatal answer does not send the next hedge at once, and a fatal
 * one does not cancel the others (a failed attempt waits for the rest of its try).
 */
function hedgingLayer(cfg: ConfigFile, p: Node | undefined): Record<string, unknown> {
  const at = (k: string) => `methodConfig.hedgingPolicy.${k}`;
  for (const k of keysOf(p)) if (!HEDGING_FIELDS.has(k.name)) cfg.report(k.key, at(k.name), `${k.name} is not a hedgingPolicy field (gRFC A6: ${[...HEDGING_FIELDS].join(', ')})`);
  const layer: Record<string, unknown> = { maxAttempts: 1 };
  const maxEntry = entry(p, 'maxAttempts');
  if (!maxEntry) cfg.report(p ?? cfg.root, 'methodConfig.hedgingPolicy', 'maxAttempts is required (gRFC A6)');
  const maxNode = maxEntry?.value;
  const max = Number(scalar(maxNode));
  let delay = 0;
  const delayNode = entry(p, 'hedgingDelay')?.value;
  if (delayNode) {
    const s = protoDuration(delayNode);
    if (s === undefined || s < 0 || !/s$/.test(String(scalar(delayNode)))) cfg.report(delayNode, at('hedgingDelay'), `hedgingDelay must be a duration in seconds, 0 or more, written like "0.5s" (got ${String(scalar(delayNode))})`);
    else delay = s;
  }
  if (maxNode && (!Number.isInteger(max) || max < 2)) cfg.report(maxNode, at('maxAttempts'), `maxAttempts must be a whole number, 2 or more (got ${String(scalar(maxNode))})`);
  else if (maxNode) layer.hedge = { delay: durationText(delay), maxHedges: Math.min(max, GRPC_MAX_ATTEMPTS) - 1, budget: 1 };
  const codesEntry = entry(p, 'nonFatalStatusCodes');
  if (!codesEntry) cfg.report(p ?? cfg.root, 'methodConfig.hedgingPolicy', 'nonFatalStatusCodes is required (gRFC A6)');
  layer.retryOn = statusCodes(cfg, codesEntry?.value, at('nonFatalStatusCodes'));
  return layer;
}

/** A retryPolicy (gRFC A6, "Retry Policy"), as the `grpc` preset reads it. */
function retryLayer(cfg: ConfigFile, p: Node | undefined): Record<string, unknown> {
  const at = (k: string) => `methodConfig.retryPolicy.${k}`;
  for (const k of keysOf(p)) if (!POLICY_FIELDS.has(k.name)) cfg.report(k.key, at(k.name), `${k.name} is not a retryPolicy field (gRFC A6: ${[...POLICY_FIELDS].join(', ')})`);
  const layer: Record<string, unknown> = {};
  const required = (k: string): Node | undefined => {
    const e = entry(p, k);
    if (!e) cfg.report(p, 'methodConfig.retryPolicy', `${k} is required (gRFC A6)`);
    return e?.value;
  };

  const maxNode = required('maxAttempts');
  const max = Number(scalar(maxNode));
  if (maxNode && (!Number.isInteger(max) || max < 2)) cfg.report(maxNode, at('maxAttempts'), `maxAttempts must be a whole number, 2 or more (got ${String(scalar(maxNode))})`);
  else if (maxNode) layer.maxAttempts = Math.min(max, GRPC_MAX_ATTEMPTS);

  const seconds = (k: string): number | undefined => {
    const n = required(k);
    if (!n) return undefined;
    const s = protoDuration(n);
    if (s === undefined || s <= 0 || !/s$/.test(String(scalar(n)))) { cfg.report(n, at(k), `${k} must be a duration in seconds above 0, written like "0.1s" (got ${String(scalar(n))})`); return undefined; }
    return s;
  };
  const base = seconds('initialBackoff'), maxBackoff = seconds('maxBackoff');
  const multNode = required('backoffMultiplier');
  const mult = Number(scalar(multNode));
  if (multNode && (!Number.isFinite(mult) || mult <= 0)) cfg.report(multNode, at('backoffMultiplier'), 'backoffMultiplier must be a number above 0');
  else if (multNode && mult < 1) cfg.report(multNode, at('backoffMultiplier'), `a backoffMultiplier below 1 (${mult}) shrinks the wait at each retry: the simulator's backoff only grows (multiplier 1 or more)`);
  if (base !== undefined && maxBackoff !== undefined && mult >= 1) {
    // gRFC A6 as updated in 2024 (and the grpc preset): the capped wait times uniform(0.8, 1.2).
    layer.backoff = { kind: 'exponential', base: durationText(base), multiplier: mult, max: durationText(maxBackoff), jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 };
  }

  layer.retryOn = statusCodes(cfg, required('retryableStatusCodes'), at('retryableStatusCodes'));

  const perAttempt = entry(p, 'perAttemptRecvTimeout');
  if (perAttempt) {
    const s = protoDuration(perAttempt.value);
    if (s === undefined || s <= 0) cfg.report(perAttempt.value, at('perAttemptRecvTimeout'), 'expected a duration above 0, written like "1s"');
    else layer.timeout = durationText(s);
  }
  return layer;
}
