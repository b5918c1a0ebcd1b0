// Retry layers read from the configs a team deploys, with test vectors from the projects' own
// documentation (the files in test/scenario/from-config/ say where each comes from): each
// resolves to the layer fields the docs say it means, and what the simulator cannot express
// is refused at its file:line:col.
import { describe, expect, it } from 'vitest';
import { join, relative, resolve } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { resolveLayer } from '../../src/model/client/resolve-layer.js';
import { makeBudget } from '../../src/model/client/budgets.js';
import { budgetSchema } from '../../src/scenario/schema-clients.js';
import { diffScenarios, changeText } from '../../src/results/diff/scenario-diff.js';

const DIR = resolve(import.meta.dirname, 'from-config');
/** The scenario file as a command line names it, relative to the working folder: config files are named alike. */
const AT = relative(process.cwd(), DIR);
const scenario = (layer: string, overlay = '') => `name: s
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
    layers:
      proxy: ${layer}
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
${overlay}`;
const load = (layer: string, overlay = '') => loadScenario(scenario(layer, overlay), join(AT, 's.yaml'));
const layerOf = (layer: string) => {
  const s = load(layer).base;
  return resolveLayer('proxy', s.clients.app.layers!.proxy);
};
function problems(layer: string): string[] {
  try {
    load(layer);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.path}: ${p.message}`);
    throw e;
  }
  return [];
}

describe('an Envoy route retry_policy', () => {
  it('means what Envoy documents: num_retries + 1 attempts, per_try_timeout, the route timeout over all tries, back-off base and max with full jitter, retry_on conditions, Retry-After', () => {
    expect(layerOf('{ from: { envoy: envoy-routes.yaml, route: api } }')).toEqual({
      name: 'proxy',
      maxAttempts: 4,
      timeout: 2,
      deadline: 30,
      backoff: expect.objectContaining({ kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'full' }),
      retryOn: ['timeout', 'reset', '5xx', 429],
      retryable: 'honour',
      retryAfter: expect.objectContaining({ mode: 'honour' }),
      // The route's cluster is not in this file (a route configuration alone): Envoy's default breaker, shared.
      budget: { kind: 'envoy-max-retries', maxRetries: 3, scope: 'population' },
      breaker: undefined,
      deadLetter: false,
    });
  });

  it("takes Envoy's defaults for what the policy leaves out, the same layer as the envoy preset", () => {
    const fromConfig = layerOf('{ from: { envoy: envoy-routes.yaml, route: defaults } }');
    // num_retries 1, base 25 ms, max 10x, the 15 s route timeout, no per-try timeout.
    expect(fromConfig).toMatchObject({ maxAttempts: 2, timeout: Infinity, deadline: 15, backoff: { base: 0.025, max: 0.25 }, retryOn: ['timeout', 'reset', '5xx'] });
    const preset = layerOf('{ preset: envoy }');
    expect({ ...fromConfig, retryAfter: undefined, budget: undefined }).toEqual({ ...preset, retryAfter: undefined, budget: undefined });
    // The same breaker, but one Envoy's: shared by the population, where the preset's is per client.
    expect(fromConfig.budget).toEqual({ ...preset.budget, scope: 'population' });
  });

  it('lets the scenario override a field, as over a preset', () => {
    expect(layerOf('{ from: { envoy: envoy-routes.yaml, route: api }, maxAttempts: 2 }').maxAttempts).toBe(2);
  });

  it('reports an unsupported condition with its position in the config file, named from the working folder; a host predicate is not a problem', () => {
    expect(problems('{ from: { envoy: envoy-unsupported.yaml } }')).toEqual([
      `${AT}/envoy-unsupported.yaml:10:19 retry_policy.retry_on: retry_on "envoy-ratelimited" is not supported: the simulated server never sets x-envoy-ratelimited (read for clients.app.layers.proxy.from)`,
    ]);
  });

  /** The problems of a scenario whose proxy layer reads an Envoy file of this text (written to a fresh folder), as file:line:col message. */
  function envoyFileProblems(name: string, text: string): string[] {
    const dir = mkdtempSync(join(tmpdir(), 'rs-envoy-file-'));
    try {
      writeFileSync(join(dir, name), text);
      loadScenario(scenario(`{ from: { envoy: ${name} } }`), join(dir, 's.yaml'));
      return [];
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      return e.problems.map((p) => `${relative(dir, p.file)}:${p.line}:${p.col} ${p.message}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('reports a duplicated key at its position in the config file', () => {
    const got = envoyFileProblems('dup.yaml', 'retry_policy:\n  num_retries: 2\n  per_try_timeout: 1s\n  num_retries: 3\n');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^dup\.yaml:4:3 YAML: duplicate key "[^"]+" \(first given at \d+:\d+\)/);
  });

  it('reports an alias without its anchor at the alias (it read as an empty value, silently)', () => {
    expect(envoyFileProblems('alias.yaml', 'retry_policy:\n  num_retries: *retries\n  per_try_timeout: 1s\n')).toEqual(['alias.yaml:2:16 the alias *retries has no anchor &retries before it: set the anchor on a value earlier in the file, or write the value here (read for clients.app.layers.proxy.from)']);
  });

  it('names the routes when the one asked for is not there, and says where a missing file was looked for', () => {
    expect(problems('{ from: { envoy: envoy-routes.yaml, route: apii } }')[0]).toMatch(/^test\/scenario\/from-config\/envoy-routes\.yaml:5:1 : no route named "apii" \(routes: "api", "defaults"\)/);
    expect(problems('{ from: { envoy: nowhere.yaml } }')[0]).toMatch(/s\.yaml:7:\d+ clients\.app\.layers\.proxy\.from\.envoy: cannot read nowhere\.yaml: no such file/);
    expect(problems('{ from: { envoy: envoy-routes.yaml }, preset: envoy }')[0]).toMatch(/give preset or from, not both/);
  });

  it('reads a config file bounded by what it reads, not by the size it claims: a device, a /proc file and a folder are one problem each (issue 39: /proc/self/pagemap aborted the process on memory)', () => {
    expect(problems('{ from: { envoy: /dev/zero } }')).toEqual([expect.stringMatching(/clients\.app\.layers\.proxy\.from\.envoy: cannot read \/dev\/zero: it is a device or a pipe, not a file/)]);
    expect(problems('{ from: { envoy: /proc/self/pagemap } }')).toEqual([expect.stringMatching(/clients\.app\.layers\.proxy\.from\.envoy: (cannot read \/proc\/self\/pagemap \(E[A-Z]+\)|\/proc\/self\/pagemap is larger than 1048576 bytes)/)]);
    expect(problems('{ from: { envoy: /proc/self/mem } }')).toEqual([expect.stringMatching(/cannot read \/proc\/self\/mem \(E[A-Z]+\)/)]);
    expect(problems(`{ from: { envoy: ${DIR} } }`)).toEqual([expect.stringMatching(/it is a folder, not a file/)]);
  });
});

/** A scenario whose populations' proxy layers read an Envoy file of this text (written to a fresh folder): the layers, problems and warnings. */
function withEnvoyFile(text: string, layers: Record<string, string>): { layers: Record<string, ReturnType<typeof resolveLayer>>; problems: string[]; warnings: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rs-envoy-cluster-'));
  const line = (p: { file: string; line: number; col: number; path: string; message: string }) => `${relative(dir, p.file)}:${p.line}:${p.col} ${p.path}: ${p.message}`;
  try {
    writeFileSync(join(dir, 'envoy.yaml'), text);
    const clients = Object.entries(layers).map(([name, layer]) => `  ${name}:\n    arrivals: { kind: constant, rate: 10/s }\n    layers:\n      proxy: ${layer}\n`).join('');
    const loaded = loadScenario(`name: s\nhorizon: 10m\nclients:\n${clients}server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }\n`, join(dir, 's.yaml'));
    const out = Object.fromEntries(Object.keys(layers).map((n) => [n, resolveLayer('proxy', loaded.base.clients[n].layers!.proxy)]));
    return { layers: out, problems: [], warnings: loaded.warnings.map(line) };
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    return { layers: {}, problems: e.problems.map(line), warnings: [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bootstrap with one route (this retry_policy and route action; its cluster line) to cluster "api", defined with these circuit_breakers. */
const bootstrap = (o: { policy?: string; action?: string; breakers?: string; cluster?: string } = {}) => `static_resources:
  listeners:
  - name: ingress
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          route_config:
            virtual_hosts:
            - name: backend
              domains: ["*"]
              routes:
              - name: api
                match: { prefix: "/" }
                route:
                  ${o.cluster ?? 'cluster: api'}
                  ${o.action ?? ''}
                  retry_policy:
                    retry_on: 5xx
                    ${o.policy ?? ''}
  clusters:
  - name: api
    connect_timeout: 0.25s
${o.breakers ? `    circuit_breakers:\n${o.breakers}` : ''}
`;

describe("an Envoy route's cluster: its circuit breaker is the layer's budget, shared by every request through the Envoy", () => {
  const ENVOY = '{ from: { envoy: envoy.yaml, route: api } }';
  const budgetOf = (o: Parameters<typeof bootstrap>[0]) => withEnvoyFile(bootstrap(o), { app: ENVOY }).layers.app?.budget;

  it('maps a real bootstrap without edits: route retry_policy with previous_hosts, retry priority and host selection attempts; the cluster max_retries for the route priority; a retry_budget overriding max_retries', () => {
    const checkout = load('{ from: { envoy: envoy-bootstrap.yaml, route: checkout } }');
    expect(resolveLayer('proxy', checkout.base.clients.app.layers!.proxy)).toMatchObject({
      maxAttempts: 3, timeout: 2, deadline: 10, retryOn: ['timeout', 'reset', '5xx'],
      budget: { kind: 'envoy-max-retries', maxRetries: 5, scope: 'population' },
    });
    // What it reads past is said, at its position, relative to the working folder.
    expect(checkout.warnings.map((w) => `${w.file}:${w.line}:${w.col} ${w.path}`)).toEqual([
      `${AT}/envoy-bootstrap.yaml:38:21 retry_policy.retry_host_predicate`,
      `${AT}/envoy-bootstrap.yaml:42:21 retry_policy.host_selection_retry_max_attempts`,
      `${AT}/envoy-bootstrap.yaml:43:21 retry_policy.retry_priority`,
      `${AT}/envoy-bootstrap.yaml:82:9 clusters[checkout].circuit_breakers.thresholds[0].max_connections`,
      `${AT}/envoy-bootstrap.yaml:83:9 clusters[checkout].circuit_breakers.thresholds[0].max_pending_requests`,
      `${AT}/envoy-bootstrap.yaml:84:9 clusters[checkout].circuit_breakers.thresholds[0].max_requests`,
    ]);
    expect(checkout.warnings[0].message).toMatch(/^retry_host_predicate is ignored: it chooses which host a retry goes to .*\(read for clients\.app\.layers\.proxy\.from\)$/);
    // priority HIGH reads the HIGH thresholds; a retry_budget overrides max_retries (50 there).
    expect(layerOf('{ from: { envoy: envoy-bootstrap.yaml, route: admin } }').budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 10, scope: 'population' });
    expect(layerOf('{ from: { envoy: envoy-bootstrap.yaml, route: catalog } }')).toMatchObject({
      maxAttempts: 4, timeout: 1, deadline: 5, budget: { kind: 'envoy-budget', budgetPercent: 25, minRetryConcurrency: 10, scope: 'population' },
    });
  });

  it("takes Envoy's defaults: max_retries 3 without circuit_breakers, or without thresholds for the route's priority; budget_percent 20 and min_retry_concurrency 3 in an empty retry_budget", () => {
    expect(budgetOf({})).toEqual({ kind: 'envoy-max-retries', maxRetries: 3, scope: 'population' });
    expect(budgetOf({ breakers: '      thresholds:\n      - priority: HIGH\n        max_retries: 7\n' })).toEqual({ kind: 'envoy-max-retries', maxRetries: 3, scope: 'population' });
    expect(budgetOf({ action: 'priority: HIGH', breakers: '      thresholds:\n      - priority: HIGH\n        max_retries: 7\n' })).toEqual({ kind: 'envoy-max-retries', maxRetries: 7, scope: 'population' });
    // The first thresholds of a priority wins (circuit_breaker.proto); priority left out is DEFAULT.
    expect(budgetOf({ breakers: '      thresholds:\n      - max_retries: 0\n      - priority: DEFAULT\n        max_retries: 9\n' })).toEqual({ kind: 'envoy-max-retries', maxRetries: 0, scope: 'population' });
    expect(budgetOf({ breakers: '      thresholds:\n      - priority: DEFAULT\n        retry_budget: {}\n' })).toEqual({ kind: 'envoy-budget', budgetPercent: 20, minRetryConcurrency: 3, scope: 'population' });
  });

  it('binds as Envoy does, in the model: the default breaker lets 3 of 50 concurrent failing requests retry; the default retry budget 20 with 100 requests in flight, 3 with 10', () => {
    /** How many retries the budget read from the config grants at once with `inFlight` tries in flight. */
    const granted = (budget: unknown, inFlight: number) => {
      const b = makeBudget(budgetSchema.parse(budget), 1, { retryOn: [], status: [] });
      for (let i = 0; i < inFlight; i++) b.started(0, 0, false);
      let n = 0;
      while (n < 1000 && b.acquire(0, 0, 1) >= 0) n++;
      return n;
    };
    expect(granted(budgetOf({}), 50)).toBe(3);
    const retryBudget = budgetOf({ breakers: '      thresholds:\n      - retry_budget: {}\n' });
    expect(granted(retryBudget, 100)).toBe(20);
    expect(granted(retryBudget, 10)).toBe(3);
  });

  it('assumes the default breaker, with a warning, for a cluster the file does not define', () => {
    const r = withEnvoyFile(bootstrap({ cluster: 'cluster: elsewhere' }), { app: ENVOY });
    expect(r.layers.app.budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 3, scope: 'population' });
    expect(r.warnings).toEqual([expect.stringMatching(/^envoy\.yaml:16:28 route\.cluster: cluster "elsewhere" is not defined in this file \(it comes from elsewhere, such as CDS\): Envoy's default .* at most 3 retries outstanding, shared by every request through this Envoy/)]);
  });

  it("lets the scenario's layer keep the breaker per client (a sidecar per client), or write its own budget, which is then not read from the cluster", () => {
    const sidecar = withEnvoyFile(bootstrap({ breakers: '      thresholds:\n      - max_retries: 5\n' }), { app: '{ from: { envoy: envoy.yaml, route: api }, budget: { scope: client } }' });
    expect(sidecar.layers.app.budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 5, scope: 'client' });
    const own = withEnvoyFile(bootstrap({ cluster: 'weighted_clusters: { clusters: [{ name: a, weight: 1 }, { name: b, weight: 1 }] }' }), { app: '{ from: { envoy: envoy.yaml, route: api }, budget: { kind: finagle, scope: population } }' });
    expect(own.problems).toEqual([]);
    expect(own.warnings).toEqual([]);
    expect(own.layers.app.budget).toMatchObject({ kind: 'finagle', scope: 'population' });
  });

  it('refuses what changes the load and cannot be simulated, at its position: a split across clusters with a breaker each, retries only of requests with given headers, hedging on a per-try timeout; bad values', () => {
    expect(withEnvoyFile(bootstrap({ cluster: 'weighted_clusters: { clusters: [{ name: a, weight: 1 }, { name: b, weight: 1 }] }' }), { app: ENVOY }).problems).toEqual([
      expect.stringMatching(/^envoy\.yaml:16:19 route\.weighted_clusters: the route splits its requests across 2 clusters \(a, b\), each with its own retry circuit breaker/),
    ]);
    expect(withEnvoyFile(bootstrap({ policy: 'retriable_request_headers: [{ name: ":method", string_match: { exact: GET } }]' }), { app: ENVOY }).problems).toEqual([
      expect.stringMatching(/^envoy\.yaml:20:21 retry_policy\.retriable_request_headers: retriable_request_headers is not supported: it retries only the requests that carry these headers/),
    ]);
    expect(withEnvoyFile(bootstrap({ action: 'hedge_policy: { hedge_on_per_try_timeout: true }' }), { app: ENVOY }).problems).toEqual([
      expect.stringMatching(/^envoy\.yaml:17:35 route\.hedge_policy\.hedge_on_per_try_timeout: hedge_on_per_try_timeout is not supported/),
    ]);
    expect(withEnvoyFile(bootstrap({ breakers: '      thresholds:\n      - max_retries: -1\n        retry_budgets: {}\n' }), { app: ENVOY }).problems).toEqual([
      expect.stringMatching(/^envoy\.yaml:26:22 clusters\[api\]\.circuit_breakers\.thresholds\[0\]\.max_retries: expected a whole number of retries \(got -1\)/),
      expect.stringMatching(/^envoy\.yaml:27:9 clusters\[api\]\.circuit_breakers\.thresholds\[0\]\.retry_budgets: unknown field retry_budgets/),
    ]);
    expect(withEnvoyFile(bootstrap({ breakers: '      thresholds:\n      - retry_budget: { budget_percent: 25 }\n' }), { app: ENVOY }).problems).toEqual([
      expect.stringMatching(/retry_budget\.budget_percent: expected a percent, written \{ value: 25\.0 \}, from 0 to 100/),
    ]);
  });

  it("reads gRPC conditions in retry_on by the answer's grpc-status only, as Envoy does: unavailable a 503, resource-exhausted a 429, never a reset or a per-try timeout", () => {
    expect(withEnvoyFile(bootstrap().replace('retry_on: 5xx', 'retry_on: "unavailable,resource-exhausted,deadline-exceeded,cancelled,internal"'), { app: ENVOY }).layers.app.retryOn).toEqual([503, 429]);
  });

  it('reads per_try_idle_timeout as a per-try timeout (a simulated try is idle until its answer), the shorter of the two', () => {
    expect(withEnvoyFile(bootstrap({ policy: 'per_try_idle_timeout: 0.5s' }), { app: ENVOY }).layers.app.timeout).toBe(0.5);
    expect(withEnvoyFile(bootstrap({ policy: 'per_try_idle_timeout: 3s\n                    per_try_timeout: 2s' }), { app: ENVOY }).layers.app.timeout).toBe(2);
  });

  it('warns when two populations read the breaker of one cluster: Envoy shares it, the simulation holds one per population; not for two clusters', () => {
    const r = withEnvoyFile(bootstrap(), { web: ENVOY, mobile: ENVOY });
    expect(r.layers.mobile.budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 3, scope: 'population' });
    expect(r.warnings).toEqual([expect.stringMatching(/^s\.yaml:\d+:\d+ clients\.mobile\.layers\.proxy\.from\.envoy: clients\.web also reads its retry limit from cluster api in envoy\.yaml: the proxy holds one circuit breaker for every request through it/)]);
    const two = loadScenario(`name: s
horizon: 10m
clients:
  web: { arrivals: { kind: constant, rate: 1/s }, retry: { from: { envoy: envoy-bootstrap.yaml, route: checkout } } }
  mobile: { arrivals: { kind: constant, rate: 1/s }, retry: { from: { envoy: envoy-bootstrap.yaml, route: catalog } } }
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
`, join(AT, 's.yaml'));
    expect(two.warnings.filter((w) => /also reads its retry limit/.test(w.message))).toEqual([]);
  });
});

describe('a gRPC service config', () => {
  it("means what gRFC A6 documents for its own example: 4 attempts, backoff 0.1 s doubling to 1 s, UNAVAILABLE, throttling 10 tokens at ratio 0.1: the grpc preset's layer", () => {
    const fromConfig = layerOf('{ from: { grpc: grpc-service-config.json, service: helloworld.Greeter } }');
    expect(fromConfig).toMatchObject({
      maxAttempts: 4,
      backoff: { kind: 'exponential', base: 0.1, multiplier: 2, max: 1, jitter: 'scaled', jitterMin: 0.8, jitterMax: 1.2 },
      retryOn: ['reset', 503],
      budget: { kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 },
      retryAfter: { mode: 'exact' },
    });
    expect(fromConfig).toEqual(layerOf('{ preset: grpc }'));
  });

  it('caps maxAttempts at 5 as clients do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-grpc-'));
    const file = join(dir, 'nine.json');
    writeFileSync(file, JSON.stringify({ methodConfig: [{ name: [{}], retryPolicy: { maxAttempts: 9, initialBackoff: '0.1s', maxBackoff: '1s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE', 'RESOURCE_EXHAUSTED'] } }] }));
    try {
      expect(layerOf(`{ from: { grpc: ${file} } }`)).toMatchObject({ maxAttempts: 5, retryOn: ['reset', 503, 429], budget: undefined });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a methodConfig with both a retryPolicy and a hedgingPolicy at its position (gRFC A6: one or the other)', () => {
    expect(problems('{ from: { grpc: grpc-hedging.json } }')).toEqual([
      `${AT}/grpc-hedging.json:12:7 methodConfig.hedgingPolicy: a methodConfig has a retryPolicy or a hedgingPolicy, not both (gRFC A6: "Only one of retryPolicy or hedgingPolicy may be set"): remove one (read for clients.app.layers.proxy.from)`,
    ]);
  });

  it("means A6's own hedging example: one try, hedged 3 times 0.5 s apart, UNAVAILABLE (INTERNAL and ABORTED never sent) as its retryOn, the method timeout as its deadline", () => {
    expect(layerOf('{ from: { grpc: grpc-hedging-policy.json, service: helloworld.Greeter } }')).toMatchObject({
      maxAttempts: 1,
      hedge: { delay: 0.5, maxHedges: 3, budget: 1 },
      retryOn: ['reset', 503],
      deadline: 10,
      retryAfter: { mode: 'exact' },
    });
  });

  it('sends every hedge at once without a hedgingDelay, and caps maxAttempts at 5 (4 hedges)', () => {
    expect(layerOf('{ from: { grpc: grpc-hedging-policy.json, service: helloworld.AllAtOnce } }')).toMatchObject({
      maxAttempts: 1,
      hedge: { delay: 0, maxHedges: 4, budget: 1 },
      retryOn: ['reset', 503, 429],
    });
  });

  it('refuses a hedgingPolicy A6 does not allow, field by field at its position', () => {
    expect(problems('{ from: { grpc: grpc-hedging-policy.json, service: helloworld.Broken } }')).toEqual([
      `${AT}/grpc-hedging-policy.json:22:24 methodConfig.hedgingPolicy.maxAttempts: maxAttempts must be a whole number, 2 or more (got 1) (read for clients.app.layers.proxy.from)`,
      `${AT}/grpc-hedging-policy.json:23:25 methodConfig.hedgingPolicy.hedgingDelay: hedgingDelay must be a duration in seconds, 0 or more, written like "0.5s" (got -1s) (read for clients.app.layers.proxy.from)`,
      `${AT}/grpc-hedging-policy.json:24:32 methodConfig.hedgingPolicy.nonFatalStatusCodes: nonFatalStatusCodes must not be empty (gRFC A6) (read for clients.app.layers.proxy.from)`,
    ]);
  });
});

describe('an Istio VirtualService', () => {
  it("means Envoy's retry policy with attempts + 1 tries, the per-try timeout and the route timeout", () => {
    expect(layerOf('{ from: { istio: istio-virtualservice.yaml, route: ratings-v1 } }')).toMatchObject({
      maxAttempts: 4, timeout: 2, deadline: 10, retryOn: ['reset', 503], backoff: { base: 0.025, max: 0.25, jitter: 'full' },
    });
  });
});

describe("an Istio VirtualService with its DestinationRule in one file: the rule's maxRetries is the layer's budget, per sidecar or per gateway", () => {
  it('reads maxRetries of the route subset (which overrides the host), per client for a mesh route (a sidecar each), shared for a gateway route; what does not change the load is a warning', () => {
    const mesh = load('{ from: { istio: istio-ratings.yaml, route: ratings-v1 } }');
    expect(resolveLayer('proxy', mesh.base.clients.app.layers!.proxy)).toMatchObject({
      maxAttempts: 4, timeout: 2, deadline: 10, retryOn: ['reset', 503], budget: { kind: 'envoy-max-retries', maxRetries: 4, scope: 'client' },
    });
    expect(mesh.warnings.map((w) => `${w.file}:${w.line}:${w.col} ${w.path}`)).toEqual([
      `${AT}/istio-ratings.yaml:23:7 retries.retryRemoteLocalities`,
      `${AT}/istio-ratings.yaml:33:7 DestinationRule ratings.spec.trafficPolicy.connectionPool.tcp`,
      `${AT}/istio-ratings.yaml:36:9 DestinationRule ratings.spec.trafficPolicy.connectionPool.http.http1MaxPendingRequests`,
      `${AT}/istio-ratings.yaml:37:9 DestinationRule ratings.spec.trafficPolicy.connectionPool.http.maxRequestsPerConnection`,
      `${AT}/istio-ratings.yaml:39:5 DestinationRule ratings.spec.trafficPolicy.outlierDetection`,
    ]);
    expect(mesh.warnings[4].message).toMatch(/^outlierDetection is ignored: it takes failing hosts out of the balancing/);
    expect(layerOf('{ from: { istio: istio-ratings.yaml, route: ratings-edge } }').budget).toEqual({ kind: 'envoy-max-retries', maxRetries: 10, scope: 'population' });
  });

  it("assumes Istio's default, no limit, with a warning, without a DestinationRule for the host", () => {
    const l = load('{ from: { istio: istio-virtualservice.yaml, route: ratings-v1 } }');
    expect(resolveLayer('proxy', l.base.clients.app.layers!.proxy).budget).toBeUndefined();
    expect(l.warnings.map((w) => `${w.line}:${w.col} ${w.path}: ${w.message}`)).toEqual([
      expect.stringMatching(/^10:5 route: no DestinationRule for ratings\.prod\.svc\.cluster\.local in this file: Istio's default is assumed, no limit on the retries outstanding/),
    ]);
  });
});

describe('a gRPC service config: fields that do not change the attempts are warnings, a misspelt one a problem', () => {
  const grpcFile = (config: object) => {
    const dir = mkdtempSync(join(tmpdir(), 'rs-grpc-'));
    try {
      writeFileSync(join(dir, 'sc.json'), JSON.stringify(config, null, 2));
      const loaded = loadScenario(scenario('{ from: { grpc: sc.json } }'), join(dir, 's.yaml'));
      return { layer: resolveLayer('proxy', loaded.base.clients.app.layers!.proxy), problems: [] as string[], warnings: loaded.warnings.map((w) => `${w.path}: ${w.message}`) };
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      return { layer: undefined, problems: e.problems.map((p) => `${p.path}: ${p.message}`), warnings: [] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const policy = { maxAttempts: 3, initialBackoff: '0.1s', maxBackoff: '1s', backoffMultiplier: 2, retryableStatusCodes: ['UNAVAILABLE'] };

  it('reads retryThrottling (per channel), and says what it reads past', () => {
    const r = grpcFile({ loadBalancingConfig: [{ round_robin: {} }], methodConfig: [{ name: [{}], waitForReady: true, retryPolicy: policy }], retryThrottling: { maxTokens: 10, tokenRatio: 0.1 } });
    expect(r.layer).toMatchObject({ maxAttempts: 3, budget: { kind: 'grpc-throttle', maxTokens: 10, tokenRatio: 0.1 } });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^loadBalancingConfig: loadBalancingConfig is ignored: it chooses which backend an RPC goes to/),
      expect.stringMatching(/^methodConfig\.waitForReady: waitForReady is ignored/),
    ]);
  });

  it('refuses a top-level field it does not know: a misspelt retryThrottling would drop the throttle', () => {
    expect(grpcFile({ methodConfig: [{ name: [{}], retryPolicy: policy }], retryThrotling: { maxTokens: 10, tokenRatio: 0.1 } }).problems).toEqual([
      expect.stringMatching(/^retryThrotling: unknown service config field retryThrotling \(methodConfig, retryThrottling, /),
    ]);
  });
});

describe('the scenario diff of a layer read from a config', () => {
  it('says the values came from the config', () => {
    const a = load('{ preset: envoy }'), b = load('{ from: { envoy: envoy-routes.yaml, route: api } }');
    const t = diffScenarios(a, b).changes.map((c) => changeText(c));
    expect(t).toContain('clients.app.layers.proxy.maxAttempts 2 (via preset envoy) -> 4 (via envoy envoy-routes.yaml route api)');
  });
});
