// Retry layers read from the configs a team deploys, with test vectors from the projects' own
// documentation (the files in test/scenario/from-config/ say where each comes from): each
// resolves to the layer fields the docs say it means, and what the simulator cannot express
// is refused at its file:line:col.
import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError } from '../../src/scenario/problems.js';
import { resolveLayer } from '../../src/model/client/resolve-layer.js';
import { diffScenarios, changeText } from '../../src/results/diff/scenario-diff.js';

const DIR = resolve(import.meta.dirname, 'from-config');
const scenario = (layer: string, overlay = '') => `name: s
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 10/s }
    layers:
      proxy: ${layer}
server: { slots: 10, serviceTime: { kind: exponential, mean: 100ms } }
${overlay}`;
const load = (layer: string, overlay = '') => loadScenario(scenario(layer, overlay), join(DIR, 's.yaml'));
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
      budget: { kind: 'envoy-max-retries', maxRetries: 3 },
      breaker: undefined,
      deadLetter: false,
    });
  });

  it("takes Envoy's defaults for what the policy leaves out, the same layer as the envoy preset", () => {
    const fromConfig = layerOf('{ from: { envoy: envoy-routes.yaml, route: defaults } }');
    // num_retries 1, base 25 ms, max 10x, the 15 s route timeout, no per-try timeout.
    expect(fromConfig).toMatchObject({ maxAttempts: 2, timeout: Infinity, deadline: 15, backoff: { base: 0.025, max: 0.25 }, retryOn: ['timeout', 'reset', '5xx'] });
    expect({ ...fromConfig, retryAfter: undefined }).toEqual({ ...layerOf('{ preset: envoy }'), retryAfter: undefined });
  });

  it('lets the scenario override a field, as over a preset', () => {
    expect(layerOf('{ from: { envoy: envoy-routes.yaml, route: api }, maxAttempts: 2 }').maxAttempts).toBe(2);
  });

  it('reports an unsupported field and condition with its position in the config file', () => {
    expect(problems('{ from: { envoy: envoy-unsupported.yaml } }')).toEqual([
      'envoy-unsupported.yaml:10:19 retry_policy.retry_on: retry_on "envoy-ratelimited" is not supported: the simulated server never sets x-envoy-ratelimited (read for clients.app.layers.proxy.from)',
      'envoy-unsupported.yaml:12:9 retry_policy.retry_host_predicate: retry_host_predicate is not supported: the simulated server is one cluster balanced by its frontend; a retry cannot choose another host; remove it from the policy this layer is read from, or write the layer by hand (read for clients.app.layers.proxy.from)',
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
      return e.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.message}`);
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
    expect(problems('{ from: { envoy: envoy-routes.yaml, route: apii } }')[0]).toMatch(/^envoy-routes\.yaml:5:1 : no route named "apii" \(routes: "api", "defaults"\)/);
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
      'grpc-hedging.json:12:7 methodConfig.hedgingPolicy: a methodConfig has a retryPolicy or a hedgingPolicy, not both (gRFC A6: "Only one of retryPolicy or hedgingPolicy may be set"): remove one (read for clients.app.layers.proxy.from)',
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
      'grpc-hedging-policy.json:22:24 methodConfig.hedgingPolicy.maxAttempts: maxAttempts must be a whole number, 2 or more (got 1) (read for clients.app.layers.proxy.from)',
      'grpc-hedging-policy.json:23:25 methodConfig.hedgingPolicy.hedgingDelay: hedgingDelay must be a duration in seconds, 0 or more, written like "0.5s" (got -1s) (read for clients.app.layers.proxy.from)',
      'grpc-hedging-policy.json:24:32 methodConfig.hedgingPolicy.nonFatalStatusCodes: nonFatalStatusCodes must not be empty (gRFC A6) (read for clients.app.layers.proxy.from)',
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

describe('the scenario diff of a layer read from a config', () => {
  it('says the values came from the config', () => {
    const a = load('{ preset: envoy }'), b = load('{ from: { envoy: envoy-routes.yaml, route: api } }');
    const t = diffScenarios(a, b).changes.map((c) => changeText(c));
    expect(t).toContain('clients.app.layers.proxy.maxAttempts 2 (via preset envoy) -> 4 (via envoy envoy-routes.yaml route api)');
  });
});
