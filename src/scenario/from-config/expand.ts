/**
 * Layers read from deployed configs: every retry layer (of a client population, or of a
 * service's call to another) that says `from: { envoy: … }`,
 * `{ grpc: … }` or `{ istio: … }` gets the fields that config means, laid under what the
 * scenario wrote for the layer (the scenario's own fields win, as over a preset). It runs on
 * the raw scenario before validation, so a layer read from a config is validated, merged into
 * variants and swept like any other; `from` itself stays, so the scenario diff can say where
 * a value came from. A config that cannot be read, or that says what the simulator cannot
 * express, is a problem positioned in the config file; what it says that does not change the
 * load, or what is assumed for what it leaves out, is a warning there. A config file is
 * named as the scenario file is (relative to the working folder when that one is), not as
 * the scenario wrote it, so that an editor opens it from a message.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { InputRead, ScenarioInputs } from '../input-files.js';
import { STDIN_NAME } from '../read-source.js';
import type { Problem } from '../problems.js';
import { formatPath } from '../problems.js';
import { LIMITS } from '../limits.js';
import { readConfig } from './config-file.js';
import { envoyLayer } from './envoy.js';
import { grpcLayer } from './grpc.js';
import { istioLayer } from './istio.js';

type Path = Array<string | number>;
type Locate = (path: ReadonlyArray<PropertyKey>, key?: string) => { line: number; col: number };

const KINDS = ['envoy', 'grpc', 'istio'] as const;

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Every layer object of the raw scenario, with its path and its owner's (a population, a call): the base's and each overlay's. */
function layers(raw: Record<string, unknown>): Array<{ path: Path; owner: Path; layer: Record<string, unknown> }> {
  const out: Array<{ path: Path; owner: Path; layer: Record<string, unknown> }> = [];
  const inClients = (clients: unknown, at: Path) => {
    if (!isObject(clients)) return;
    for (const [p, pop] of Object.entries(clients)) {
      if (!isObject(pop)) continue;
      const owner = [...at, p];
      if (isObject(pop.retry)) out.push({ path: [...owner, 'retry'], owner, layer: pop.retry });
      if (isObject(pop.layers)) for (const [l, layer] of Object.entries(pop.layers)) if (isObject(layer)) out.push({ path: [...owner, 'layers', l], owner, layer });
    }
  };
  // A service's calls to another go through layers too (schema-services.ts): a gRPC service
  // config is most often what sets them, on the calling service's channel.
  const inCalls = (server: unknown, at: Path) => {
    if (!isObject(server) || !isObject(server.routes)) return;
    for (const [r, route] of Object.entries(server.routes)) {
      if (!isObject(route) || !Array.isArray(route.services)) continue;
      route.services.forEach((call: unknown, i) => {
        if (!isObject(call)) return;
        const cat: Path = [...at, 'routes', r, 'services', i];
        if (isObject(call.retry)) out.push({ path: [...cat, 'retry'], owner: cat, layer: call.retry });
        if (isObject(call.layers)) for (const [l, layer] of Object.entries(call.layers)) if (isObject(layer)) out.push({ path: [...cat, 'layers', l], owner: cat, layer });
      });
    }
  };
  const inScenario = (root: Record<string, unknown>, at: Path) => {
    inClients(root.clients, [...at, 'clients']);
    inCalls(root.server, [...at, 'server']);
    if (isObject(root.services)) for (const [n, svc] of Object.entries(root.services)) inCalls(svc, [...at, 'services', n]);
  };
  inScenario(raw, []);
  if (isObject(raw.variants)) {
    for (const [v, decl] of Object.entries(raw.variants)) if (isObject(decl) && isObject(decl.overlay)) inScenario(decl.overlay, ['variants', v, 'overlay']);
  }
  return out;
}

/** Lays `from`'s fields under the written ones (mappings merge one level, as an overlay would). */
function layUnder(layer: Record<string, unknown>, fromConfig: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(fromConfig)) {
    if (layer[k] === undefined) layer[k] = v;
    else if (isObject(layer[k]) && isObject(v)) layer[k] = { ...v, ...(layer[k] as Record<string, unknown>) };
  }
}

/** Why a config file cannot be read, in the words of the problem said at `from`. */
function unreadableConfig(rel: string, base: string, read: Extract<InputRead, { ok: false }>): string {
  switch (read.why) {
    case 'refused': return `cannot read ${rel}: ${read.detail}`;
    case 'missing': return `cannot read ${rel}: no such file (a path is relative to the scenario file's folder: ${base})`;
    case 'not-a-file': return `cannot read ${rel}: it is ${read.detail}, not a file (give the file that holds the route or service config)`;
    case 'too-large': return `${rel} is larger than ${LIMITS.fileBytes} bytes: give the file that holds the route or service config`;
    case 'unreadable': return `cannot read ${rel} (${read.detail})`;
  }
}

/** What reading the configs found: problems refuse the scenario, warnings are said. */
export interface ConfigLayersRead {
  problems: Problem[];
  warnings: Problem[];
}

/**
 * The path of a file the scenario names, as messages show it: beside the scenario file as the
 * scenario file's own path shows it (the path given on the command line), as trace and
 * observed files are shown (read-traces.ts, observed-read.ts).
 */
function shown(scenarioFile: string, written: string): string {
  return scenarioFile === STDIN_NAME || isAbsolute(written) ? written : join(dirname(scenarioFile), written);
}

/** Expands every `from` in place; returns the problems (none when every config was read) and the warnings. */
export function expandConfigLayers(raw: Record<string, unknown>, scenarioFile: string, locate: Locate, inputs: ScenarioInputs): ConfigLayersRead {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const here = (path: Path, message: string, key?: string) => {
    const { line, col } = locate(path, key);
    problems.push({ file: scenarioFile, line, col, path: formatPath(key === undefined ? path : [...path, key]), message });
  };
  const cache = new Map<string, { fields: Record<string, unknown>; limiter?: string } | undefined>();
  // Which population (or service call) of the base reads a shared budget from which Envoy or
  // Istio file: Envoy holds one breaker per cluster for all of them, the simulation one per
  // population. (A sidecar's, per client, is not shared.)
  const sharedBy = new Map<string, string[]>();
  for (const { path, owner, layer } of layers(raw)) {
    const from = layer.from;
    if (from === undefined) continue;
    const at = [...path, 'from'];
    if (!isObject(from)) continue; // the schema says what a `from` is
    const kinds = KINDS.filter((k) => typeof from[k] === 'string');
    if (kinds.length !== 1) continue; // likewise
    if (layer.preset !== undefined) { here(path, 'give preset or from, not both: a layer starts from a library\'s defaults or from a deployed config', 'from'); continue; }
    const kind = kinds[0];
    const rel = from[kind] as string;
    // A budget the scenario writes whole (its kind) wins over the cluster's: that is not read.
    const budgetWritten = isObject(layer.budget) && layer.budget.kind !== undefined;
    // Where the path points, whether it may be read, and the record of it: input-files.ts.
    const key = JSON.stringify([inputs.key(rel), kind, from.route, from.service, from.method, budgetWritten]);
    const readFor = (p: Problem) => ({ ...p, message: `${p.message} (read for ${formatPath(at)})` });
    if (!cache.has(key)) {
      const read = inputs.read(rel, LIMITS.fileBytes);
      if (!read.ok) { here(at, unreadableConfig(rel, inputs.folder, read), kind); cache.set(key, undefined); continue; }
      const cfg = readConfig(read.text, shown(scenarioFile, rel));
      // Only an Istio file holds several resources (a VirtualService and its DestinationRules).
      if (kind !== 'istio' && cfg.documents.length > 1) cfg.report(cfg.documents[1], '', `this file holds ${cfg.documents.length} YAML documents (---): ${kind === 'envoy' ? 'an Envoy bootstrap or route configuration' : 'a gRPC service config'} is one; give the file of the one this layer reads`);
      const fields = cfg.problems.length ? undefined
        : kind === 'envoy' ? envoyLayer(cfg, from.route as string | undefined, budgetWritten)
        : kind === 'grpc' ? grpcLayer(cfg, from.service as string | undefined, from.method as string | undefined)
        : istioLayer(cfg, from.route as string | undefined, budgetWritten);
      problems.push(...cfg.problems.map(readFor));
      warnings.push(...cfg.warnings.map(readFor));
      cache.set(key, cfg.problems.length || !fields ? undefined : { fields, limiter: cfg.sharedLimiter });
    }
    const read = cache.get(key);
    if (!read) continue;
    layUnder(layer, read.fields);
    const budget = layer.budget;
    if (read.limiter && path[0] !== 'variants' && isObject(budget) && budget.scope === 'population') {
      const limiter = JSON.stringify([inputs.key(rel), read.limiter]);
      const owners = sharedBy.get(limiter) ?? [];
      sharedBy.set(limiter, owners);
      const who = formatPath(owner);
      if (owners.length > 0 && !owners.includes(who)) {
        const { line, col } = locate(at, kind);
        warnings.push({
          file: scenarioFile, line, col, path: formatPath([...at, kind]),
          message: `${owners[0]} also reads its retry limit from ${read.limiter} in ${rel}: the proxy holds one circuit breaker for every request through it, the simulation one per population, so here each is bounded alone (together they may have more retries outstanding than the proxy allows)`,
        });
      }
      if (!owners.includes(who)) owners.push(who);
    }
  }
  return { problems, warnings };
}
