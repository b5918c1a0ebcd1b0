// Guards before work: what is too large, too deep or too many is refused at validation,
// before any parsing or building that could take minutes or gigabytes, with a positioned
// message that names the limit and how to get under it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadScenario, loadScenarioFile } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';
import { scenarioSchema } from '../../src/scenario/schema.js';
import { LIMITS } from '../../src/scenario/limits.js';
import { autoBucketS } from '../../src/model/recorder.js';
import { MAX_LAYERS } from '../../src/model/records.js';
import { AUTO_BUCKETS_AT_MOST } from '../../src/scenario/limits.js';
import { scenarioProblems } from '../helpers/scenario-problems.js';

const BASE = [
  'name: t', //                                        1
  'horizon: 10m', //                                   2
  'clients:', //                                       3
  '  app:', //                                         4
  '    arrivals: { kind: constant, rate: 50/s }', //   5
  '    retry: { maxAttempts: 3, timeout: 1s }', //     6
  'server:', //                                        7
  '  slots: 10', //                                    8
  '  serviceTime: { kind: exponential, mean: 20ms }', // 9
].join('\n') + '\n';

function problemsOf(source: string): Problem[] {
  try {
    loadScenario(source, 's.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('expected a ScenarioError, but the scenario loaded');
}

const list = (n: number, f: (i: number) => string = (i) => String(i + 1)) => Array.from({ length: n }, (_, i) => f(i)).join(', ');

const dir = mkdtempSync(join(tmpdir(), 'rs-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the file itself', () => {
  it('refuses a file above the size limit by its size, before reading it', () => {
    const file = join(dir, 'big.yaml');
    writeFileSync(file, BASE + `description: "${'x'.repeat(LIMITS.fileBytes)}"\n`);
    const problems = (() => { try { loadScenarioFile(file); } catch (e) { return (e as ScenarioError).problems; } return []; })();
    expect(problems.map(formatProblem)).toEqual([
      `${file}  is ${(BASE.length + LIMITS.fileBytes + 16).toLocaleString('en-US')} bytes, above the limit of 1,048,576 bytes (1 MiB) for a scenario file; scenarios are a few kB: check that this is the file you meant, and keep long texts (descriptions, logs) out of it`,
    ]);
  });

  it('refuses an endless device (/dev/zero) after reading one byte past the limit', () => {
    expect(() => loadScenarioFile('/dev/zero')).toThrow(/^\/dev\/zero  is more than 1,048,576 bytes, above the limit/);
  });

  it('refuses a binary file at its first NUL byte', () => {
    const file = join(dir, 'nul.yaml');
    writeFileSync(file, 'name: a\nhori\0zon: 1m\n');
    expect(() => loadScenarioFile(file)).toThrow(`${file}:2:5  is not a text file (it contains a NUL byte here)`);
  });

  it('refuses text handed to loadScenario above the size limit too', () => {
    expect(problemsOf('#'.repeat(LIMITS.fileBytes + 1)).map((p) => p.message)).toEqual([expect.stringMatching(/^is 1,048,577 bytes, above the limit/)]);
  });

  it.each([
    ['flow brackets', 'name: t\ndescription: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n', 2, 13 + LIMITS.nesting],
    ['flow mappings', 'name: t\nx: ' + '{a: '.repeat(10_000) + '1' + '}'.repeat(10_000) + '\n', 2, 4 + 4 * (LIMITS.nesting - 1)],
    ['compact lists', 'name: t\nx:\n' + '- '.repeat(10_000) + '1\n', 3, 2 * LIMITS.nesting + 1],
  ])('refuses nesting deeper than the limit (%s) at the first level past it, without a stack overflow', (_, source, line, col) => {
    const problems = problemsOf(source);
    expect(problems).toEqual([{ file: 's.yaml', line, col, path: '', message: expect.stringMatching(/^nested more than 64 levels deep \(the limit\); a scenario nests about 10/) }]);
  });

  it('refuses an alias inside its own anchor (an endless value) at the alias, found by the fuzz test', () => {
    expect(problemsOf(BASE + 'description: &loop { a: [1, *loop] }\n').map(formatProblem)).toEqual([
      's.yaml:10:29  the alias *loop is inside its own anchor &loop, so the value would contain itself forever; copy the values instead',
    ]);
  });

  it('accepts a hundred ordinary aliases (issue 39: refused as "a resource exhaustion attack"), and refuses a billion laughs saying what to do', () => {
    const many = BASE + 'description: &d the same words\nvariants:\n' + Array.from({ length: 150 }, (_, i) => `  v${i}: { description: *d }\n`).join('');
    expect(loadScenario(many, 's.yaml').variants).toHaveLength(150);
    const laughs = BASE + 'x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n' +
      Array.from({ length: 8 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]\n`).join('');
    expect(problemsOf(laughs).map(formatProblem)).toEqual([
      's.yaml:1:1  the aliases (*name) of this file resolve to more than 1,000 values (an alias of a value that holds aliases counts them all): write some values out, or alias fewer; the limit keeps a small file from expanding into gigabytes',
    ]);
  });

  it('accepts the nesting of the deepest shipped scenario', () => {
    expect(() => loadScenarioFile('scenarios/retry-storm.yaml')).not.toThrow();
  });
});

describe('the experiment', () => {
  it('refuses more sweep values than the limit at the list', () => {
    const problems = problemsOf(BASE + `sweep:\n  - { parameter: server.slots, values: [${list(10_000)}] }\n`);
    expect(problems.map((p) => [p.line, p.col, p.path])).toEqual([[11, 40, 'sweep[0].values']]);
    expect(problems[0].message).toMatch(/^at most 1,000 values in one sweep .*: use fewer values, or a range with fewer steps \(got a list of 10000 item\(s\)\)$/);
  });

  it('refuses two sweeps whose product is above the limit, naming the product', () => {
    const problems = problemsOf(BASE + 'sweep:\n  - { parameter: server.slots, range: { from: 1, to: 1000, steps: 1000 } }\n  - { parameter: horizon, range: { from: 10m, to: 20m, steps: 1000 } }\n');
    expect(problems.map(formatProblem)).toEqual([
      's.yaml:10:1  sweep: 1,000 x 1,000 = 1,000,000 sweep points is above the limit of 1,000; use fewer values or range steps, or split the sweep over several files',
    ]);
  });

  it('refuses more variants than the limit before building any', () => {
    const spy = vi.spyOn(scenarioSchema, 'safeParse');
    try {
      const variants = Array.from({ length: 10_000 }, (_, i) => `  v${i}: {}`).join('\n');
      const problems = problemsOf(BASE + 'seeds: 10000\nvariants:\n' + variants + '\n');
      expect(problems.map(formatProblem)).toEqual([
        's.yaml:11:1  variants: 10,000 variants is above the limit of 1,000; compare fewer policies at once, or split them over several scenario files',
      ]);
      expect(spy).toHaveBeenCalledTimes(1); // the base only
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses more runs than the limit at seeds', () => {
    const variants = Array.from({ length: 20 }, (_, i) => `  v${i}: {}`).join('\n');
    expect(problemsOf(BASE + 'seeds: 10000\nvariants:\n' + variants + '\n').map(formatProblem)).toEqual([
      's.yaml:10:8  seeds: 20 variant(s) x 1 sweep point(s) x 10,000 seed(s) = 200,000 runs, above the limit of 100,000; use fewer seeds, variants or sweep points, or split the experiment over several files',
    ]);
  });

  it('refuses results too large to hold in memory (1ms buckets over 200s x 16 seeds), at the bucket', () => {
    const source = BASE.replace('horizon: 10m', 'horizon: 200s') + 'seeds: 16\nmeasures: { bucket: 1ms }\n';
    expect(problemsOf(source).map(formatProblem)).toEqual([
      's.yaml:11:21  measures.bucket: 16 runs x 200,000 buckets = 3,200,000 buckets of results held in memory, above the limit of 1,000,000 (about 3 kB each while the outputs are written); use a wider measures.bucket, or fewer seeds, variants or sweep points',
    ]);
  });

  it('validates a sweep at its limit with the sweep parsed once, not once per point (it was quadratic)', () => {
    const spy = vi.spyOn(scenarioSchema, 'safeParse');
    try {
      const loaded = loadScenario(BASE + `sweep:\n  - { parameter: server.slots, values: [${list(1000)}] }\n`, 's.yaml');
      expect(loaded.points).toHaveLength(1000);
      expect(loaded.variants[0].points.map((s) => s.server.slots)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(loaded.variants[0].points[999].sweep).toEqual(loaded.base.sweep); // each point still carries the sweep it belongs to
      // Work done: how many sweep values were handed to the validator over all 1,001 parses.
      const sweepValues = spy.mock.calls.reduce((n, [raw]) => n + ((raw as { sweep?: Array<{ values?: unknown[] }> }).sweep?.[0]?.values?.length ?? 0), 0);
      expect(spy).toHaveBeenCalledTimes(1001);
      expect(sweepValues).toBe(1000);
    } finally {
      spy.mockRestore();
    }
  });

  it('the "auto" bucket gives at most the buckets the limits count with', () => {
    for (const h of [1, 59, 600, 3599, 86_400, 7 * 86_400, LIMITS.horizonS]) {
      expect(Math.ceil(h / autoBucketS(h))).toBeLessThanOrEqual(AUTO_BUCKETS_AT_MOST);
    }
  });

  it('refuses more retry layers than the model keeps state for', () => {
    expect(LIMITS.layers).toBe(MAX_LAYERS);
    const layers = Array.from({ length: 9 }, (_, i) => `l${i}: {}`).join(', ');
    expect(scenarioProblems(BASE.replace('    retry: { maxAttempts: 3, timeout: 1s }', `    layers: { ${layers} }`))).toEqual([
      'clients.app.layers: at most 8 retry layers per population (a simulator limit: a call\'s state is kept per layer)',
    ]);
  });
});

describe('overlays', () => {
  it('refuses a key of the experiment in an overlay, at the key', () => {
    expect(problemsOf(BASE + 'variants:\n  a:\n    overlay: { seeds: 3, name: x, horizon: 5m }\n').map(formatProblem)).toEqual([
      's.yaml:12:16  variants.a.overlay.seeds: invalid key "seeds": it belongs to the whole experiment, not to one variant: set it at the top level (an overlay changes the world: clients, server, faults, horizon, measures)',
      's.yaml:12:26  variants.a.overlay.name: invalid key "name": it belongs to the whole experiment, not to one variant: set it at the top level (an overlay changes the world: clients, server, faults, horizon, measures)',
    ]);
  });

  it('removes a key set to null, so the preset applies again', () => {
    const loaded = loadScenario(BASE + 'variants:\n  as-is: {}\n  got:\n    overlay: { clients: { app: { retry: { preset: got, maxAttempts: null, timeout: null } } } }\n', 's.yaml');
    expect(loaded.variants[0].scenario.clients.app.retry).toEqual({ maxAttempts: 3, timeout: 1 });
    expect(loaded.variants[1].scenario.clients.app.retry).toEqual({ preset: 'got' });
  });

  it('says so when a null removes a required key', () => {
    expect(problemsOf(BASE + 'variants:\n  a:\n    overlay: { server: { slots: null } }\n').map(formatProblem)).toEqual([
      's.yaml:12:33  variants.a.overlay.server.slots: missing required key "slots": the overlay\'s null removes it, and it cannot be left out',
    ]);
  });
});

describe('cross-references', () => {
  const ROUTES = BASE.replace('    retry: { maxAttempts: 3, timeout: 1s }', '    identity: { route: login }') +
    '  routes:\n    login: { calls: [auht] }\n    logn: {}\n' + //                                        10-12
    '  dependencies:\n    auth: { guard: { reserve: { login: 0.5, signup: 0.1 } }, failover: { routes: [session] } }\n' + // 13-14
    '  stages:\n    - { kind: rate-limit, key: ip, routes: [signup], limit: { algorithm: gcra, rate: 5/s, burst: 5 } }\n' + // 15-16
    'expectations:\n  - { variant: base, route: logn, successRatio: { atLeast: 0.9 } }\n'; //                        17-18

  it('refuses names that match nothing: dependencies a route calls, routes nobody calls, routes in expectations', () => {
    expect(problemsOf(ROUTES).map(formatProblem)).toEqual([
      's.yaml:11:22  server.routes.login.calls[0]: no dependency named "auht" (did you mean "auth"?)',
      's.yaml:12:5  server.routes.logn: no route named "logn" (did you mean "login"?): a route exists when a population calls it (clients.<name>.identity.route, "default" when unset)',
      's.yaml:14:45  server.dependencies.auth.guard.reserve.signup: no route named "signup" (routes: login): a route exists when a population calls it (clients.<name>.identity.route, "default" when unset)',
      's.yaml:14:83  server.dependencies.auth.failover.routes[0]: no route named "session" (routes: login): a route exists when a population calls it (clients.<name>.identity.route, "default" when unset)',
      's.yaml:16:45  server.stages[0].routes[0]: no route named "signup" (routes: login): a route exists when a population calls it (clients.<name>.identity.route, "default" when unset)',
    ]);
  });

  it('refuses an expectation on a route its variant does not call (it would fail only after every run)', () => {
    const source = BASE.replace('    retry: { maxAttempts: 3, timeout: 1s }', '    identity: { route: login }') +
      'variants:\n  a: {}\n  b:\n    overlay: { clients: { app: { identity: { route: signin } } } }\n' + //  10-13
      'expectations:\n  - { variant: a, route: login, successRatio: { atLeast: 0.9 } }\n  - { variant: b, route: login, successRatio: { atLeast: 0.9 } }\n'; // 14-16
    expect(problemsOf(source).map(formatProblem)).toEqual([
      's.yaml:16:26  expectations[1].route: no population of variant "b" calls route "login" (its routes: signin), so there would be nothing to check',
    ]);
  });
});

describe('names', () => {
  it('accepts capitals in names, as the JSON Schema does', () => {
    expect(scenarioProblems(BASE.replace('  app:', '  MobileApp:'))).toEqual([]);
  });
});

describe('messages in the tool\'s own words', () => {
  const retry = (layer: string) => BASE.replace('    retry: { maxAttempts: 3, timeout: 1s }', `    retry: ${layer}`);
  it.each([
    ['a misspelt preset, with a suggestion', retry('{ preset: gott }'), 'clients.app.retry.preset: unknown preset "gott" (did you mean "got"?)'],
    ['a number where a word belongs', retry('{ backoff: { jitter: 5 } }'), 'clients.app.retry.backoff.jitter: expected one of none, full, equal, decorrelated, decorrelated-v2, proportional, scaled (got the number 5)'],
    ['a list where a mapping belongs', BASE.replace('  slots: 10', '  slots: 10\n  codel: [1, 2]'), 'server.codel: expected a mapping (key: value lines or { key: value }) (got a list of 2 item(s))'],
    ['a mapping where a list belongs', retry('{ retryOn: { a: 1 } }'), 'clients.app.retry.retryOn: expected a list (got a mapping)'],
    ['text where a number belongs', BASE + 'measures: { loadExcess: lots }\n', 'measures.loadExcess: expected a number (got the text "lots")'],
    ['a number too small', BASE + 'measures: { loadExcess: -1 }\n', 'measures.loadExcess: must be at least 0 (got the number -1)'],
    ['a fraction too large', BASE + 'measures: { successRatioDrop: 2 }\n', 'measures.successRatioDrop: must be at most 1 (got the number 2)'],
    ['a union no option fits', retry('{ timeout: [1s] }'), 'clients.app.retry.timeout: expected "none" or a duration such as "250ms", "12m" or "1h30m" (got a list of 1 item(s))'],
    ['the option that came closest in a union of mappings', retry('{ breaker: { window: { calls: many } } }'), 'clients.app.retry.breaker.window.calls: expected a whole number (calls in the window)'],
    ['a capital unit', BASE.replace('rate: 50/s', 'rate: 50/S'), 'clients.app.arrivals.rate: units are written in lowercase: write "50/s" (got "50/S")'],
  ])('%s', (_what, source, line) => {
    expect(scenarioProblems(source)).toEqual([line]);
  });
});
