import { resolveLayer } from '../../src/model/client/resolve-layer.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioFile, type LoadedScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';
import { loadProperty } from '../helpers/load-property.js';

// A small valid scenario; cases below replace whole lines, so line numbers stay put.
const BASE = [
  'name: t', //                                        1
  'horizon: 10m', //                                   2
  'clients:', //                                       3
  '  app:', //                                         4
  '    clients: 100', //                               5
  '    arrivals: { kind: constant, rate: 50/s }', //   6
  '    retry:', //                                     7
  '      maxAttempts: 4', //                           8
  '      timeout: 1s', //                              9
  'server:', //                                       10
  '  slots: 10', //                                   11
  '  serviceTime:', //                                12
  '    kind: exponential', //                         13
  '    mean: 20ms', //                                14
  'faults:', //                                       15
  '  - kind: dependency-down', //                     16
  '    at: 1m', //                                    17
  '    duration: 30s', //                             18
];

/** BASE with some lines (1-based) replaced, and lines appended. */
function scenario(replace: Record<number, string> = {}, append: string[] = []): string {
  return [...BASE.map((line, i) => replace[i + 1] ?? line), ...append].join('\n') + '\n';
}

function problemsOf(source: string): Problem[] {
  try {
    loadScenario(source, 's.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('expected a ScenarioError, but the scenario loaded');
}

type Expected = { line: number; col: number; path: string; message: RegExp };

function expectProblems(source: string, expected: Expected[]): void {
  const got = problemsOf(source);
  expect(got.map((p) => formatProblem(p))).toHaveLength(expected.length);
  got.forEach((p, i) => {
    const want = expected[i];
    expect({ file: p.file, line: p.line, col: p.col, path: p.path }, formatProblem(p)).toEqual({ file: 's.yaml', line: want.line, col: want.col, path: want.path });
    expect(p.message).toMatch(want.message);
  });
}

describe('loadScenario: malformed YAML', () => {
  it('points an unclosed { at the bracket and says it must end with }', () => {
    expectProblems(scenario({ 6: '    arrivals: { kind: constant, rate: 50/s' }), [
      { line: 6, col: 15, path: '', message: /^YAML: .*end with a \}.*this \{ is not closed/ },
    ]);
  });

  it('points an unclosed [ at the bracket', () => {
    expectProblems(scenario({ 17: '    at: [1m' }), [{ line: 17, col: 9, path: '', message: /end with a \].*this \[ is not closed/ }]);
  });

  it('reports a mis-indented key on its line', () => {
    expectProblems(scenario({ 9: '     timeout: 1s' }), [{ line: 9, col: 1, path: '', message: /^YAML: All mapping items must start at the same column$/ }]);
  });

  it('reports a duplicated key at the second one', () => {
    expectProblems(scenario({ 13: '    mean: 5ms' }), [{ line: 14, col: 5, path: '', message: /^YAML: duplicate key "mean" \(first given at 13:5\): a mapping holds each key once, so keep one$/ }]);
  });

  it('reports every duplicated key, in flow and block mappings, and tells 1 from "1" as yaml does', () => {
    const source = scenario({}, ['sweep:', '  - { parameter: seeds, values: [1, 2], parameter: seeds }', 'notes: { 1: a, "1": b, 1: c }']);
    const lines = source.split('\n').length - 1; // the last line, before the final newline
    expectProblems(source, [
      { line: lines - 1, col: 41, path: '', message: /^YAML: duplicate key "parameter" \(first given at \d+:7\)/ },
      { line: lines, col: 24, path: '', message: /^YAML: duplicate key "1" \(first given at \d+:10\)/ },
    ]);
  });

  it('finds a duplicate at the end of a 20,000-key mapping, the last key named', () => {
    // yaml's own check compared every key with every earlier one (minutes for a 1 MiB file);
    // duplicate-keys.ts keeps a set per mapping.
    const keys = Array.from({ length: 20_000 }, (_, i) => `  k${i}: 1`);
    const source = scenario({}, ['notes:', ...keys, '  k7: 2']);
    expectProblems(source, [{ line: source.split('\n').length - 1, col: 3, path: '', message: /^YAML: duplicate key "k7" \(first given at \d+:3\)/ }]);
  });

  it('says a second document and an alias without its anchor in terms of the file, at their place', () => {
    // The parser's words were "please use YAML.parseAllDocuments()", and an unresolved alias was placed at 1:1.
    const source = scenario({}, ['---', 'name: other']);
    const dashes = source.split('\n').length - 2;
    expectProblems(source, [{ line: dashes, col: 1, path: '', message: /^YAML: this "---" starts a second YAML document, and the file is read as one: give each document a file of its own/ }]);
    const alias = scenario({}, ['notes: *later']);
    expectProblems(alias, [{ line: alias.split('\n').length - 1, col: 8, path: '', message: /^the alias \*later has no anchor &later before it: set the anchor on a value earlier in the file, or write the value here$/ }]);
  });

  it('keeps the first error and drops the cascade of "unexpected token" errors after it', () => {
    // A line break inside a comment leaves a line starting with ",": yaml then calls every later token unexpected.
    const reference = readFileSync('scenarios/reference-storm.yaml', 'utf8');
    const broken = reference.replace(', the queue never drains', '\n, the queue never drains');
    expect(broken).not.toBe(reference);
    expectProblems(broken, [
      { line: 6, col: 1, path: '', message: /^YAML: Plain value cannot start with flow indicator character , \(and \d+ more YAML error\(s\) after it/ },
    ]);
  });

  it.each([[''], ['# nothing\n'], ['- a\n- b\n'], ['just text\n']])('refuses a document that is not a mapping: %j', (source) => {
    expectProblems(source, [{ line: 1, col: 1, path: '', message: /a scenario is a mapping of keys/ }]);
  });
});

describe('loadScenario: wrong values', () => {
  it('reports a wrong type deep in the file at the value, with what was expected', () => {
    expectProblems(scenario({ 8: '      maxAttempts: "four"', 14: '    mean: true' }), [
      { line: 8, col: 20, path: 'clients.app.retry.maxAttempts', message: /^expected a whole number \(tries per call\)$/ },
      { line: 14, col: 11, path: 'server.serviceTime.mean', message: /^expected a duration such as "250ms"/ },
    ]);
  });

  it('reports a null value as a wrong type, not as a missing key', () => {
    expectProblems(scenario({ 11: '  slots:' }), [{ line: 11, col: 9, path: 'server.slots', message: /expected a whole number \(concurrency slots\)/ }]);
  });

  it('reports a negative duration, also inside a "none"-or-duration union', () => {
    expectProblems(scenario({ 9: '      timeout: -5s', 17: '    at: -1m' }), [
      { line: 9, col: 16, path: 'clients.app.retry.timeout', message: /^a duration cannot be negative \(got "-5s"\): write 0s or more/ },
      { line: 17, col: 9, path: 'faults[0].at', message: /^a duration cannot be negative \(got "-1m"\)/ },
    ]);
  });

  it('says what a union accepts when no option fits', () => {
    expectProblems(scenario({ 9: '      timeout: true' }), [{ line: 9, col: 16, path: 'clients.app.retry.timeout', message: /^expected "none" or a duration such as "250ms"/ }]);
  });

  it('reports a rate without a unit and shows how to write one', () => {
    expectProblems(scenario({ 6: '    arrivals: { kind: constant, rate: 800 }' }), [
      { line: 6, col: 39, path: 'clients.app.arrivals.rate', message: /^a rate needs a unit: .*"800\/s".*\(got the bare number 800\)$/ },
    ]);
  });

  it('reports 10^12 clients against the simulator limit', () => {
    expectProblems(scenario({ 5: '    clients: 1000000000000' }), [
      { line: 5, col: 14, path: 'clients.app.clients', message: /^at most 10,000,000 clients per population \(this is a simulator limit/ },
    ]);
  });

  it('reports a 100-year horizon against the 30-day limit', () => {
    expectProblems(scenario({ 2: 'horizon: 876000h' }), [
      { line: 2, col: 10, path: 'horizon', message: /^a horizon of 36500d is beyond the limit of 30d; simulate a shorter window$/ },
    ]);
  });

  it('reports an invalid population name at the name', () => {
    expectProblems(scenario({ 4: '  my app:' }), [{ line: 4, col: 3, path: 'clients.my app', message: /^invalid key "my app": use letters, digits/ }]);
  });

  it('reports a fault after the horizon at the fault', () => {
    expectProblems(scenario({ 17: '    at: 10m' }), [{ line: 17, col: 9, path: 'faults[0].at', message: /the fault starts at 10m, at or after the horizon \(10m\)/ }]);
  });
});

describe('loadScenario: keys', () => {
  it('suggests "retry" for "retires" under a population', () => {
    expectProblems(scenario({ 7: '    retires:' }), [{ line: 7, col: 5, path: 'clients.app.retires', message: /^unknown key "retires" \(did you mean "retry"\?\)$/ }]);
  });

  it('suggests "slots" for "slot" under server, and says slots is then missing, at the parent', () => {
    expectProblems(scenario({ 11: '  slot: 10' }), [
      { line: 10, col: 1, path: 'server.slots', message: /^missing required key "slots"$/ },
      { line: 11, col: 3, path: 'server.slot', message: /^unknown key "slot" \(did you mean "slots"\?\)$/ },
    ]);
  });

  it('lists the known keys when nothing is close', () => {
    expectProblems(scenario({ 14: '    mean: 20ms', 13: '    kind: exponential\n    zzzzzz: 1' }), [
      { line: 14, col: 5, path: 'server.serviceTime.zzzzzz', message: /^unknown key "zzzzzz" \(expected one of: kind, mean\)$/ },
    ]);
  });

  it('points a missing required key at the key of its parent', () => {
    expectProblems(scenario({ 6: '    # no arrivals' }), [{ line: 4, col: 3, path: 'clients.app.arrivals', message: /^missing required key "arrivals"$/ }]);
    expectProblems(scenario({ 18: '    # no duration' }), [{ line: 16, col: 5, path: 'faults[0].duration', message: /^missing required key "duration"$/ }]);
  });

  it('reports a missing top-level key once, at the start of the file', () => {
    expectProblems(scenario({ 1: '# no name' }), [{ line: 2, col: 1, path: 'name', message: /^missing required key "name"$/ }]);
  });

  it('reports a bad kind at the kind, with the valid kinds and a did-you-mean', () => {
    expectProblems(scenario({ 13: '    kind: gaussian' }), [
      { line: 13, col: 11, path: 'server.serviceTime.kind', message: /^unknown kind "gaussian": expected kind: constant, uniform, exponential, lognormal/ },
    ]);
    expectProblems(scenario({ 13: '    kind: exponental' }), [
      { line: 13, col: 11, path: 'server.serviceTime.kind', message: /^unknown kind "exponental" \(did you mean "exponential"\?\)/ },
    ]);
    expectProblems(scenario({ 16: '  - kind: outage' }), [
      { line: 16, col: 11, path: 'faults[0].kind', message: /expected kind: dependency-down, capacity-cut, surge, error-rate, latency, reset, crash or pause$/ },
    ]);
  });

  it('reports a missing kind as a missing key', () => {
    expectProblems(scenario({ 13: '    # no kind' }), [
      { line: 12, col: 3, path: 'server.serviceTime.kind', message: /^missing required key "kind" \(expected kind: constant,/ },
    ]);
  });
});

describe('loadScenario: several problems', () => {
  it('reports every problem at once, sorted by position', () => {
    expectProblems(
      scenario({ 2: 'horizon: 876000h', 6: '    arrivals: { kind: constant, rate: 800 }', 7: '    retires:', 11: '  slot: 10', 14: '    mean: true' }),
      [
        { line: 2, col: 10, path: 'horizon', message: /beyond the limit of 30d/ },
        { line: 6, col: 39, path: 'clients.app.arrivals.rate', message: /needs a unit/ },
        { line: 7, col: 5, path: 'clients.app.retires', message: /did you mean "retry"/ },
        { line: 10, col: 1, path: 'server.slots', message: /missing required key/ },
        { line: 11, col: 3, path: 'server.slot', message: /did you mean "slots"/ },
        { line: 14, col: 11, path: 'server.serviceTime.mean', message: /expected a duration/ },
      ],
    );
  });

  it('reports the semantic problems of a file the schema accepts, all of them', () => {
    expectProblems(scenario({ 2: 'horizon: 876000h', 17: '    at: 900000h' }), [
      { line: 2, col: 10, path: 'horizon', message: /beyond the limit of 30d/ },
      { line: 17, col: 9, path: 'faults[0].at', message: /at or after the horizon/ },
    ]);
  });

  it('runs the semantic checks on what the schema accepted, in the same pass as its own problems', () => {
    // An unknown key and a value of the wrong type do not hide a fault past the horizon.
    expectProblems(scenario({ 7: '    retires:', 11: '  slots: ten', 17: '    at: 20m' }), [
      { line: 7, col: 5, path: 'clients.app.retires', message: /did you mean "retry"/ },
      { line: 11, col: 10, path: 'server.slots', message: /expected a whole number/ },
      { line: 17, col: 9, path: 'faults[0].at', message: /^the fault starts at 20m, at or after the horizon \(10m\)$/ },
    ]);
  });

  it('looks again only for a file refused in at most 200 places (each stand-in copies its path: 20,000 unknown keys took minutes)', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `      x${i}: 1`).join('\n');
    const past = { 17: '    at: 20m' };
    const at = (n: number) => problemsOf(scenario({ ...past, 9: `      timeout: 1s\n${keys(n)}` })).filter((p) => p.path === 'faults[0].at');
    expect(at(200)).toHaveLength(1);
    expect(at(201)).toHaveLength(0);
  });

  it('leaves out a semantic check whose input the schema refused', () => {
    // The horizon cannot be read, so whether the fault is past it cannot be told: only the horizon is said.
    expectProblems(scenario({ 2: 'horizon: 10 minutes', 17: '    at: 20m' }), [
      { line: 2, col: 10, path: 'horizon', message: /write "10m"/ },
    ]);
    // A capacity cut is checked against the server's slots: with slots refused, it is not.
    expectProblems(scenario({ 11: '  slots: -4', 16: '  - kind: capacity-cut', 18: '    duration: 30s\n    slots: 8' }), [
      { line: 11, col: 10, path: 'server.slots', message: /at least 1/ },
    ]);
    // A misspelt variants block: the expectation naming one of its variants is not told it names nothing.
    expectProblems(scenario({}, ['varients:', '  strict: { overlay: { horizon: 5m } }', 'expectations:', '  - { variant: strict, successRatio: { atLeast: 0.9 } }']), [
      { line: 19, col: 1, path: 'varients', message: /^unknown key "varients" \(did you mean "variants"\?\)$/ },
    ]);
    // A missing population rate: "sends nothing" would be said of a stand-in, not of the file.
    expectProblems(scenario({ 6: '    arrivals: { kind: constant }' }), [
      { line: 6, col: 5, path: 'clients.app.arrivals.rate', message: /^missing required key "rate"$/ },
    ]);
  });
});

describe('loadScenario: variants', () => {
  const variants = [
    'variants:', //                                                          19
    '  strict:', //                                                          20
    '    overlay:', //                                                       21
    '      clients: { app: { retry: { maxAttempts: 0 } } }', //              22
    '  calm:', //                                                            23
    '    description: a longer timeout', //                                  24
    '    overlay:', //                                                       25
    '      clients:', //                                                     26
    '        app:', //                                                       27
    '          retry: { timeout: 10 }', //                                   28
  ];

  it("reports an overlay's bad values at the overlay's own position and path", () => {
    expectProblems(scenario({}, variants), [
      { line: 22, col: 47, path: 'variants.strict.overlay.clients.app.retry.maxAttempts', message: /^must be at least 1 \(tries per call; got the number 0\)$/ },
      { line: 28, col: 29, path: 'variants.calm.overlay.clients.app.retry.timeout', message: /^a duration needs a unit/ },
    ]);
  });

  it("reports an overlay's unknown key with a did-you-mean", () => {
    expectProblems(scenario({}, ['variants:', '  a:', '    overlay: { server: { slot: 2 } }']), [
      { line: 21, col: 26, path: 'variants.a.overlay.server.slot', message: /^unknown key "slot" \(did you mean "slots"\?\)$/ },
    ]);
  });

  it('reports a problem the overlay causes elsewhere at the base position, naming the variant', () => {
    expectProblems(scenario({}, ['variants:', '  short:', '    overlay: { horizon: 30s }']), [
      { line: 17, col: 9, path: 'faults[0].at', message: /^the fault starts at 1m, at or after the horizon \(30s\) \(in variant "short"\)$/ },
    ]);
  });

  it('reports a problem of the base once, not again for each variant', () => {
    expectProblems(scenario({ 11: '  slots: 0' }, ['variants:', '  a:', '    overlay: { horizon: 11m }', '  b:', '    overlay: { horizon: 12m }']), [
      { line: 11, col: 10, path: 'server.slots', message: /^must be at least 1 \(concurrency slots; got the number 0\)$/ },
    ]);
  });

  it('does not take an inherited name such as "constructor" for a key the overlay wrote', () => {
    expectProblems(scenario({ 11: '  slots: 10\n  constructor: 1' }, ['variants:', '  a:', '    overlay: { server: { slots: 5 } }']), [
      { line: 12, col: 3, path: 'server.constructor', message: /^unknown key "constructor"/ },
    ]);
  });
});

describe('loadScenario: valid files', () => {
  function load(source: string): LoadedScenario {
    return loadScenario(source, 's.yaml');
  }

  it('fills the defaults', () => {
    const loaded = load(scenario({ 9: '      # timeout left out' }));
    const s = loaded.base;
    expect(loaded.variants.map((v) => v.name)).toEqual(['base']);
    expect(loaded.variants[0].scenario).toEqual(s);
    expect(s.horizon).toBe(600);
    expect(s.seed).toBe(1);
    expect(s.seeds).toBe(1);
    expect(s.measures).toMatchObject({ hold: 120, warmup: 60, successRatioDrop: 0.02, loadExcess: 0.2, perceivedOutageThreshold: 0.9 });
    expect(s.measures.bucket).toBeUndefined();
    const app = s.clients.app;
    expect(app.arrivals).toEqual({ kind: 'constant', rate: 50 });
    // Layer fields stay as written; resolveLayer fills what a layer leaves out.
    expect(app.retry!.maxAttempts).toBe(4);
    expect(app.retry!.timeout).toBeUndefined();
    const layer = resolveLayer('app', app.retry!);
    expect(layer.timeout).toBe(Infinity);
    expect(layer.backoff).toEqual({ kind: 'exponential', base: 0.1, multiplier: 2, max: 10, jitter: 'full', jitterFactor: 0.2, jitterMin: 0.8, jitterMax: 1.2 });
    expect(layer.retryOn).toEqual(['timeout', 'reset', '5xx', 429]);
    expect(s.server).toEqual({
      instances: 1, loadBalancer: 'round-robin', slots: 10, queue: 'unbounded', discipline: 'fifo', dropAbandoned: false,
      serviceTime: { kind: 'exponential', mean: 0.02 }, failFastTime: 0, deadline: Infinity, executionDeadline: Infinity, stages: [], rejectionCost: 0, overload: {},
    });
    expect(s.faults).toEqual([{ kind: 'dependency-down', at: 60, duration: 30 }]);
    expect(s.actions).toEqual([]);
  });

  it('leaves the retry block out when the scenario does: such clients send once and wait', () => {
    const s = load(scenario({ 7: '    # no retry layer', 8: '', 9: '' })).base;
    expect(s.clients.app.retry).toBeUndefined();
    expect(s.clients.app.layers).toBeUndefined();
  });

  it('loads the reference scenario with its two variants merged over the base', () => {
    const loaded = loadScenarioFile('scenarios/reference-storm.yaml');
    expect(loaded.base.name).toBe('reference-storm');
    expect(loaded.variants.map((v) => v.name)).toEqual(['retries', 'no-retries']);
    const [retries, none] = loaded.variants;
    expect(retries.scenario.clients.app.retry!.maxAttempts).toBe(4);
    expect(none.scenario.clients.app.retry!.maxAttempts).toBe(1);
    // the overlay only replaced maxAttempts: the rest of retry comes from the base
    expect(none.scenario.clients.app.retry!.timeout).toBe(1);
    expect(none.scenario.clients.app.retry!.backoff).toEqual({ kind: 'exponential', base: 1, multiplier: 2, max: 8, jitter: 'full' });
    expect(none.description).toBe('Clients never retry.');
    expect(none.scenario.variants).toBeUndefined();
    expect(loaded.source).toBe(readFileSync('scenarios/reference-storm.yaml', 'utf8'));
  });
});

describe('loadScenarioFile', () => {
  it('reports a missing file as a file-level problem', () => {
    try {
      loadScenarioFile('does/not/exist.yaml');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      expect((e as ScenarioError).problems).toEqual([{ file: 'does/not/exist.yaml', line: 0, col: 0, path: '', message: 'no such file' }]);
      expect((e as ScenarioError).message).toBe('does/not/exist.yaml  no such file');
    }
  });

  it('reports a directory as not a scenario file', () => {
    expect(() => loadScenarioFile('scenarios')).toThrow(/is a directory/);
  });
});

// The first 1,000 runs of the property (load-property.slow.test.ts runs 3,000): each of its six
// kinds of edit some 400 times (1 to 4 edits a run), for two thirds less of its CPU (it was
// 20 of the file's 21 s).
loadProperty(1000);
