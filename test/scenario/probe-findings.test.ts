// What a fuzzing probe of the CLI found accepted that it should not have been (900 malformed
// scenarios and 190 bad command lines, 2026-12-03): each is now refused at validation, where
// it is written, saying what would be right, instead of failing every run (exit 70), crashing
// (an empty variants mapping), or running something other than what was meant.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem } from '../../src/scenario/problems.js';
import { resolveMeasureReferences } from '../../src/experiment/expectations.js';
import { MEASURES } from '../../src/measures/registry.js';

// One population of two layers and one fault; cases append or change lines.
const BASE = [
  'name: probe', //                                               1
  'horizon: 10m', //                                              2
  'clients:', //                                                  3
  '  mobile:', //                                                 4
  '    arrivals: { kind: constant, rate: 10/s }', //              5
  '    layers:', //                                               6
  '      app: { maxAttempts: 2 }', //                             7
  '      http: { maxAttempts: 3, timeout: 1s }', //               8
  'server:', //                                                   9
  '  slots: 8', //                                                10
  '  serviceTime: { kind: exponential, mean: 100ms }', //         11
  'faults:', //                                                   12
  '  - { kind: dependency-down, at: 2m, duration: 1m }', //       13
];

/** The world with its server block extended (lines 12 on), then `extra` after the faults. */
const world = (server: string[] = [], extra: string[] = []) => [...BASE.slice(0, 11), ...server, ...BASE.slice(11), ...extra].join('\n') + '\n';

/** Every problem as the CLI prints it; [] when the file loads. */
function printed(source: string): string[] {
  try {
    loadScenario(source, 'p.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map(formatProblem);
    throw e;
  }
  return [];
}

const rateLimit = (limit: string) => world(['  stages:', `    - { kind: rate-limit, key: global, limit: ${limit} }`]);

describe('refused where it is written', () => {
  it('an empty mapping of variants (run crashed writing its report: "Cannot read properties of undefined")', () => {
    expect(printed(world([], ['variants: {}']))).toEqual([
      'p.yaml:14:11  variants: an empty mapping of variants runs nothing: name at least one, or leave variants out to run the scenario as one variant "base"',
    ]);
  });

  it('a rate limiter whose window is 0s or whose rate is 0 (every run failed, exit 70)', () => {
    expect(printed(rateLimit('{ algorithm: fixed-window, limit: 5, window: 0s }'))).toEqual([
      'p.yaml:13:92  server.stages[0].limit.window: must be longer than 0s (got 0s)',
    ]);
    expect(printed(rateLimit('{ algorithm: token-bucket, rate: 0/s, burst: 5 }'))).toEqual([
      'p.yaml:13:80  server.stages[0].limit.rate: must be more than 0/s (got 0/s)',
    ]);
  });

  it('a declared baseline of 0/s (every load measure read 0x)', () => {
    expect(printed(world([], ['measures: { baseline: 0/s }']))).toEqual(['p.yaml:14:23  measures.baseline: must be more than 0/s (got 0/s)']);
  });

  it('a sweep that lists a value twice, in other units or by a range of one value (the same world run again)', () => {
    expect(printed(world([], ['sweep:', '  - { parameter: "faults[0].duration", values: [60s, 1m] }']))).toEqual([
      'p.yaml:15:48  sweep[0].values: the value "1m" comes twice (written alike or in other units): each point would run the same world again; list each value once',
    ]);
    expect(printed(world([], ['sweep:', '  - { parameter: "faults[0].duration", range: { from: 10s, to: 10s, steps: 3 } }']))).toEqual([
      'p.yaml:15:47  sweep[0].range: the value "10s" comes twice (written alike or in other units): each point would run the same world again; list each value once',
    ]);
  });

  it('a sweep of the experiment\'s own seed (every point ran the same seeds)', () => {
    expect(printed(world([], ['seed: 1', 'sweep:', '  - { parameter: seed, values: [1, 2] }']))).toEqual([
      'p.yaml:16:18  sweep[0].parameter: "seed" cannot be swept: it belongs to the whole experiment; sweep a value of the world (clients, server, faults, horizon…)',
    ]);
  });

  it('a bucket or a health window longer than the horizon (every variant "not recovered", perceived outage 0s)', () => {
    expect(printed(world([], ['measures: { bucket: 1h, healthWindow: 2h }']))).toEqual([
      'p.yaml:14:21  measures.bucket: a bucket of 1h is longer than the horizon (10m): the run would be one bucket; use at most 10m, or leave bucket out for about 1,000 buckets',
      'p.yaml:14:39  measures.healthWindow: a health window of 2h is longer than the horizon (10m): recovery could never be judged; use a window shorter than the hold',
    ]);
    // "auto", as the format documents it, is the default width.
    expect(printed(world([], ['measures: { bucket: auto }']))).toEqual([]);
  });

  it('a seed past its limit gets that limit alone (it also read the safe-integer limit, two "at most" for one value)', () => {
    expect(printed(world([], ['seed: 1e308']))).toEqual(['p.yaml:14:7  seed: must be at most 2147483648 (got the number 1e+308)']);
  });

  it('verdict users who send nothing (every variant read "not recovered", a metastable failure of a run with nobody to serve)', () => {
    const quiet = ['  quiet:', '    arrivals: { kind: constant, rate: 0/s }'];
    const src = [...BASE.slice(0, 8), ...quiet, ...BASE.slice(8), 'compare:', '  for: { populations: [quiet] }'].join('\n') + '\n';
    expect(printed(src)).toEqual([
      'p.yaml:17:8  compare.for: the verdict\'s users send nothing ("quiet" sends no user action over the run): there is no success to judge, and every variant would read "not recovered"; give them a rate above 0/s, or name users who send traffic here',
    ]);
    // A surge to an absolute rate is traffic; so is a quiet population beside one that sends.
    expect(printed(src.replace('faults:', 'faults:\n  - { kind: surge, at: 1m, duration: 1m, population: quiet, rate: 5/s }'))).toEqual([]);
    expect(printed(src.replace('  for: { populations: [quiet] }', '  for: { populations: [quiet, mobile] }'))).toEqual([]);
  });

  it('a range whose largest end is below its smallest', () => {
    expect(printed(world(['  overload: { retryAfter: { kind: random, min: 10s, max: 1s } }']))).toEqual([
      'p.yaml:12:58  server.overload.retryAfter.max: the largest Retry-After (max: 1s) is below the smallest (min: 10s)',
    ]);
    expect(printed(world(['  stages: [{ kind: adaptive-concurrency, algorithm: aimd, minLimit: 100, maxLimit: 10 }]']))).toEqual([
      'p.yaml:12:84  server.stages[0].maxLimit: the limit\'s ceiling (maxLimit: 10) is below its floor (minLimit: 100)',
    ]);
  });

  it('a guard\'s reserves that add up to more than its whole budget (no route without one could ever call)', () => {
    const signups = ['  signups:', '    arrivals: { kind: constant, rate: 1/s }', '    identity: { route: signup }'];
    const guarded = (reserve: string) => [
      ...BASE.slice(0, 8), ...signups, ...BASE.slice(8, 11),
      '  routes: { default: { calls: [auth] }, signup: { calls: [auth] } }',
      `  dependencies: { auth: { quota: { limit: 100, window: 1m }, guard: { budget: 0.9, reserve: ${reserve} } } }`,
      ...BASE.slice(11),
    ].join('\n') + '\n';
    expect(printed(guarded('{ default: 0.7, signup: 0.5 }'))).toEqual([
      'p.yaml:16:93  server.dependencies.auth.guard.reserve: the reserves add up to 1.2 of the budget (default 0.7, signup 0.5); they hold shares of one budget, so together at most 1: lower them',
    ]);
    expect(printed(guarded('{ default: 0.7, signup: 0.3 }'))).toEqual([]);
  });

  it('a misspelt layer in an overlay that only sets one try (it added a layer that does nothing, and the variant ran as the base)', () => {
    expect(printed(world([], ['variants:', '  base: {}', '  one-layer: { overlay: { clients: { mobile: { layers: { htttp: { maxAttempts: 1 } } } } } }']))).toEqual([
      'p.yaml:16:58  variants.one-layer.overlay.clients.mobile.layers.htttp: the base has no layer "htttp" in population "mobile" (its layers: app, http): did you mean "http"? (to add a new layer under a name this close to one the base has, give it more than one try (maxAttempts above 1), a preset or from: one try and nothing else is a layer that does nothing)',
    ]);
  });
});

describe('expectations, refused where they are written', () => {
  /** Every problem of the file, the loader's and the expectations' (as `validate` prints them). */
  const problemsOf = (source: string): string[] => {
    try {
      resolveMeasureReferences(loadScenario(source, 'p.yaml'), MEASURES);
    } catch (e) {
      if (e instanceof ScenarioError) return e.problems.map(formatProblem);
      throw e;
    }
    return [];
  };

  it('a misspelt bound gets its did-you-mean, like any other key (the walk stopped at the measure, a key the schema does not name)', () => {
    expect(problemsOf(world([], ['expectations:', '  - { variant: base, recoveryTimeS: { atleast: 1m } }']))).toContain(
      'p.yaml:15:39  expectations[0].recoveryTimeS.atleast: unknown key "atleast" (did you mean "atLeast"?)',
    );
  });

  it('a lower bound above the upper one (the check failed every run, whatever the results)', () => {
    expect(problemsOf(world([], ['expectations:', '  - { variant: base, successRatio: { atLeast: 0.9, atMost: 0.5 } }']))).toEqual([
      'p.yaml:15:38  expectations[0].successRatio.atLeast: the lower bound (atLeast: 0.9) is above the upper one (atMost: 0.5): no value can meet both; swap them',
    ]);
    // Bounds in other units than the measure's are compared as the measure reads them.
    expect(problemsOf(world([], ['expectations:', '  - { variant: base, recoveryTimeS: { atLeast: 2m, atMost: 90s } }']))).toHaveLength(1);
    expect(problemsOf(world([], ['expectations:', '  - { variant: base, recoveryTimeS: { atLeast: 1m, atMost: 90s } }']))).toEqual([]);
  });

  it('a tipping point bounded upside down, likewise', () => {
    const search = ['search: { parameter: "faults[0].duration", range: { from: 1m, to: 8m } }'];
    expect(problemsOf(world([], [...search, 'expectations:', '  - { variant: base, tippingPoint: { atLeast: 5m, atMost: 2m } }']))).toEqual([
      'p.yaml:16:38  expectations[0].tippingPoint.atLeast: the lower bound (atLeast: 5m) is above the upper one (atMost: 2m): no value can meet both; swap them',
    ]);
    expect(problemsOf(world([], [...search, 'expectations:', '  - { variant: base, tippingPoint: { atLeast: 2m, atMost: 5m } }']))).toEqual([]);
  });
});

describe('a bad flag, refused before any run', () => {
  it('--max-run-memory below what a run holds at its start (every run failed, "budget of 0 MiB", exit 70)', async () => {
    const { runCliInProcess } = await import('../helpers/cli.js');
    const r = await runCliInProcess(['run', 'scenarios/reference-storm.yaml', '--seeds', '1', '--max-run-memory', '1B', '--out', '/tmp/retrystorm-never-written']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-run-memory: 1B is less than a run holds at its start; give each run at least 1MiB (the default is 4GiB)');
  });

  it('a negative value reaches its option\'s own check (yargs read "-1s" as flags and said "unexpected argument(s)" naming the scenario)', async () => {
    const { runCliInProcess } = await import('../helpers/cli.js');
    const r = await runCliInProcess(['run', 'scenarios/reference-storm.yaml', '--progress-every', '-1s', '--out', '/tmp/retrystorm-never-written']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--progress-every takes a duration above 0 with its unit, e.g. 5s or 1m (got "-1s")');
    const w = await runCliInProcess(['run', 'scenarios/reference-storm.yaml', '--workers', '-2', '--out', '/tmp/retrystorm-never-written']);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain('--workers must be a whole number ≥ 1 (got -2)');
  });

  it('an option that takes a value, given none (yargs dropped it and the run went on with the scenario\'s seeds)', async () => {
    const { runCliInProcess } = await import('../helpers/cli.js');
    const before = await runCliInProcess(['run', 'scenarios/reference-storm.yaml', '--seeds', '--out', '/tmp/retrystorm-never-written']);
    expect(before.code).toBe(2);
    expect(before.stderr).toContain('--seeds needs a value (it is followed by --out)');
    const last = await runCliInProcess(['diff', 'a', 'b', '--seeds']);
    expect(last.code).toBe(2);
    expect(last.stderr).toContain('--seeds needs a value\n');
  });
});

describe('every distribution the model samples is checked where it is written (issue 39: a dependency\'s latency passed validate, then every run failed)', () => {
  it('refuses a mean of 0 in a dependency\'s latency, a route\'s service time and a latency fault\'s addition, each at its place', () => {
    const source = world(
      ['  routes:', '    default: { serviceTime: { kind: exponential, mean: 0s } }', '  dependencies:', '    db: { latency: { kind: lognormal, mean: 0s, p99: 1s } }'],
      ['  - { kind: latency, at: 3m, duration: 1m, add: { kind: exponential, mean: 0s } }'],
    );
    expect(printed(source)).toEqual([
      'p.yaml:13:29  server.routes.default.serviceTime: exponential: mean must be finite and > 0 (got 0s); use constant 0 for no delay',
      'p.yaml:15:20  server.dependencies.db.latency: lognormal: mean must be finite and > 0 (got 0s)',
      'p.yaml:18:49  faults[1].add: exponential: mean must be finite and > 0 (got 0s); use constant 0 for no delay',
    ]);
  });
});

describe('a name every object inherits, where a population is named (the loader fuzzer, mutant 989 of signup-flood)', () => {
  it('refuses a surge of population "valueOf" as no such population, instead of an internal error', () => {
    for (const name of ['valueOf', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(printed(world([], [`  - { kind: surge, at: 3m, duration: 1m, population: ${name}, rate: 20/s }`]))).toEqual([
        `p.yaml:14:54  faults[1].population: no client population "${name}" (the populations are: mobile); leave it out to surge every population`,
      ]);
    }
  });
});

describe('a name every object inherits, where a population names another (the schema-generated scenarios, test/helpers/schema-scenarios.ts)', () => {
  it('refuses peopleOf naming "toString" as no such population, instead of an internal error', () => {
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty']) {
      const source = world().replace('arrivals: { kind: constant, rate: 10/s }', `arrivals: { kind: constant, rate: 10/s }\n    peopleOf: ${name}`);
      expect(printed(source), name).toEqual([`p.yaml:6:15  clients.mobile.peopleOf: no population named "${name}" (the populations are none other)`]);
    }
  });

  it('refuses a journey step following "constructor" as no such population, instead of an internal error', () => {
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty']) {
      const source = world().replace('arrivals: { kind: constant, rate: 10/s }', `arrivals: { kind: after, population: ${name} }`);
      expect(printed(source), name).toContainEqual(expect.stringMatching(new RegExp(`^p\\.yaml:5:\\d+  clients\\.mobile\\.arrivals\\.population: no population named "${name}"`)));
    }
  });
});

describe('inputs that crashed validate (issue 39: exit 70 instead of a problem)', () => {
  it('a key named toString, hasOwnProperty or constructor inside an expectation is a problem at its place', () => {
    for (const name of ['toString', 'hasOwnProperty', 'constructor']) {
      const problems = printed(world([], ['expectations:', `  - { variant: mobile, ${name}: { ${name}: 1 } }`]));
      expect(problems, name).toContainEqual(expect.stringMatching(new RegExp(`^p\\.yaml:15:\\d+  expectations\\[0\\]\\.${name}\\.${name}: unknown key "${name}" \\(expected one of: atMost, atLeast, worsenBy\\)$`)));
    }
  });

  it('a closed population whose think time is an exponential of mean 0 s is refused at its think time', () => {
    const source = world().replace('arrivals: { kind: constant, rate: 10/s }', 'arrivals: { kind: closed, users: 10, thinkTime: { kind: exponential, mean: 0s } }');
    expect(printed(source)).toEqual([expect.stringMatching(/^p\.yaml:5:\d+  clients\.mobile\.arrivals\.thinkTime: exponential: mean must be finite and > 0 \(got 0s\)/)]);
  });
});
