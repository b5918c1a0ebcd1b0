// What a new user's first afternoon with the tool ran into, each held by its exact message: a
// misspelt name in an overlay, YAML mistakes that drowned in follow-on errors, the same problem
// said once per variant, range errors that did not say what they got, a unit suggestion that
// meant something else, and a command given no file.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem } from '../../src/scenario/problems.js';
import { secondsWithUnit } from '../../src/scenario/units.js';
import { runCliInProcess } from '../helpers/cli.js';

// A world with one population of two layers; cases append variants, a sweep or a search.
const BASE = [
  'name: trial', //                                              1
  'horizon: 10m', //                                             2
  'clients:', //                                                 3
  '  mobile:', //                                                4
  '    arrivals: { kind: constant, rate: 10/s }', //             5
  '    layers:', //                                              6
  '      app: { maxAttempts: 2 }', //                            7
  '      http: { maxAttempts: 3, timeout: 1s }', //              8
  'server:', //                                                  9
  '  slots: 8', //                                               10
  '  serviceTime: { kind: exponential, mean: 100ms }', //        11
  'faults:', //                                                  12
  '  - { kind: dependency-down, at: 2m, duration: 1m }', //      13
];

const withLines = (...extra: string[]) => [...BASE, ...extra].join('\n') + '\n';

/** Every problem as the CLI prints it (file:line:col  path: message); [] when the file loads. */
function printed(source: string, file = 't.yaml'): string[] {
  try {
    loadScenario(source, file);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map(formatProblem);
    throw e;
  }
  return [];
}

/** Variants `base` and `budget`, the latter with this overlay (one flow line, line 18). */
const withOverlay = (overlay: string) => withLines('variants:', '  base: {}', '  budget:', '    overlay:', `      ${overlay}`);

describe('a name in an overlay the base does not have', () => {
  it('refuses a misspelt layer at the overlay\'s key, with the layers the base has (it used to add a third layer of one try)', () => {
    expect(printed(withOverlay('clients: { mobile: { layers: { htp: { budget: { kind: envoy-budget } } } } }'))).toEqual([
      't.yaml:18:38  variants.budget.overlay.clients.mobile.layers.htp: the base has no layer "htp" in population "mobile" (its layers: app, http): did you mean "http"? (to add a new layer under a name this close to one the base has, give it maxAttempts, preset or from)',
    ]);
  });

  it('refuses a misspelt population at the overlay\'s key, not at the base\'s clients: line', () => {
    expect(printed(withOverlay('clients: { mobil: { layers: { http: { maxAttempts: 1 } } } }'))).toEqual([
      't.yaml:18:18  variants.budget.overlay.clients.mobil: the base has no population "mobil" (its populations: mobile): did you mean "mobile"? (to add a new population under a name this close to one the base has, write it whole: it needs arrivals)',
    ]);
  });

  it('refuses a misspelt service the same way', () => {
    const source = [
      'name: trial', 'horizon: 10m',
      'clients: { mobile: { arrivals: { kind: constant, rate: 10/s } } }',
      'server: { slots: 8, serviceTime: { kind: constant, value: 10ms }, routes: { default: { services: [ { service: auth } ] } } }',
      'services: { auth: { slots: 4, serviceTime: { kind: constant, value: 10ms } } }',
      'variants:', '  v: { overlay: { services: { auht: { slots: 8 } } } }',
    ].join('\n') + '\n';
    expect(printed(source)[0]).toBe(
      't.yaml:7:31  variants.v.overlay.services.auht: the base has no service "auht" (its services: auth): did you mean "auth"? (to add a new service under a name this close to one the base has, write it whole: it needs serviceTime)',
    );
  });

  it('adds a new entry written whole, or under a name unlike the base\'s', () => {
    expect(printed(withOverlay('clients: { mobile: { layers: { http2: { maxAttempts: 2 } } } }'))).toEqual([]);
    expect(printed(withOverlay('clients: { mobile: { layers: { mesh: { timeout: 2s } } } }'))).toEqual([]);
    expect(printed(withOverlay('clients: { bots: { role: attacker, arrivals: { kind: constant, rate: 5/s } } }'))).toEqual([]);
    const loaded = loadScenario(withOverlay('clients: { mobile: { layers: { mesh: { maxAttempts: 2 } } } }'), 't.yaml');
    expect(Object.keys(loaded.variants[1].scenario.clients.mobile.layers!)).toEqual(['app', 'http', 'mesh']);
  });

  it('reports what a new entry lacks at the overlay that added it', () => {
    expect(printed(withOverlay('clients: { bots: { retry: { maxAttempts: 2 } } }'))).toEqual([
      't.yaml:18:18  variants.budget.overlay.clients.bots.arrivals: missing required key "arrivals"',
    ]);
    // A list the overlay replaces is its own too.
    expect(printed(withOverlay('faults: [ { kind: dependency-down, at: 1m } ]'))).toEqual([
      't.yaml:18:17  variants.budget.overlay.faults[0].duration: missing required key "duration"',
    ]);
  });

  it('refuses a null that removes nothing', () => {
    expect(printed(withOverlay('clients: { mobil: null }'))).toEqual([
      't.yaml:18:18  variants.budget.overlay.clients.mobil: the base has no population "mobil" to remove (its populations: mobile): did you mean "mobile"?',
    ]);
    expect(printed(withOverlay('clients: { mobile: { layers: { http: { maxAttemps: null } } } }'))).toEqual([
      't.yaml:18:46  variants.budget.overlay.clients.mobile.layers.http.maxAttemps: unknown key "maxAttemps" (did you mean "maxAttempts"?): its null removes nothing',
    ]);
    // A key the base leaves to its default: removing it changes nothing, and asks for nothing else.
    expect(printed(withOverlay('clients: { mobile: { layers: { http: { deadline: null } } } }'))).toEqual([]);
  });
});

describe('YAML mistakes', () => {
  it('says to quote a bracketed path written unquoted in a flow map, once', () => {
    const got = printed(withLines('sweep: [ { parameter: faults[0].duration, values: [6m, 12m] } ]', 'variants:', '  a: {}', '  b: { overlay: { server: { slots: 4 } } }'));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^t\.yaml:14:23 {2}YAML: Unexpected flow-seq-start at node end \(quote the path: "faults\[0\]\.duration"; inside \{ \} or \[ \], an unquoted \[ starts a list\) \(and \d+ more YAML error\(s\) after it, most likely caused by this one\)$/);
  });

  it('says so for an unquoted path in an expectation\'s at: as well', () => {
    const got = printed(withLines('sweep:', '  - parameter: faults[0].duration', '    values: [1m, 2m]', 'expectations:', '  - variant: base', '    at: { faults[0].duration: 2m }', '    recovered: { atLeast: 1 }'));
    expect(got).toEqual([
      't.yaml:19:11  YAML: Missing , or : between flow map items (quote the path: "faults[0].duration"; inside { } or [ ], an unquoted [ starts a list) (and 2 more YAML error(s) after it, most likely caused by this one)',
    ]);
  });

  it('keeps the first of an indentation mistake\'s errors and drops its follow-ons on the same line', () => {
    const source = BASE.slice(0, 6).concat(['      app:', '        maxAttempts: 2', '       timeout: 1s', '        deadline: 5s'], BASE.slice(9)).join('\n') + '\n';
    expect(printed(source)).toEqual([
      't.yaml:9:1  YAML: All mapping items must start at the same column (and 2 more YAML error(s) after it, most likely caused by this one)',
    ]);
  });

  it('drops what an unclosed bracket makes of the lines after it, within its top-level entry', () => {
    const got = printed(withLines('notes:', ...[1, 2, 3].flatMap((n) => [`  k${n}: [ 1`, `  ok${n}: 1`])));
    expect(got).toEqual([
      't.yaml:15:7  YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (this [ is not closed) (and 8 more YAML error(s) after it, most likely caused by this one)',
    ]);
  });

  it('keeps a mistake of its own in another top-level entry', () => {
    const source = BASE.slice(0, 6).concat(['      app:', '        maxAttempts: 2', '       timeout: 1s'], BASE.slice(8, 10), ['  serviceTime: { kind: exponential, mean: 100ms'], BASE.slice(11)).join('\n') + '\n';
    expect(printed(source)).toEqual([
      't.yaml:9:1  YAML: All mapping items must start at the same column',
      't.yaml:12:16  YAML: Flow map in block collection must be sufficiently indented and end with a } (this { is not closed)',
    ]);
  });
});

describe('one problem, said once', () => {
  const sweep = (values: string, ...variants: string[]) => withLines('sweep:', '  - parameter: faults[0].at', `    values: ${values}`, 'variants:', ...variants);

  it('says a sweep value no variant can take once, not once per variant', () => {
    expect(printed(sweep('[1m, "5 m"]', '  a: {}', '  b: { overlay: { server: { slots: 4 } } }', '  c: {}'))).toEqual([
      't.yaml:16:13  sweep[0].values: "5 m" is not a duration: the units are ms, s, m, h and d, written without spaces; write "5m" (at faults[0].at = 5 m)',
    ]);
  });

  it('names the variants when only some meet it', () => {
    expect(printed(sweep('[1m, 15m]', '  a: {}', '  b: {}', '  long: { overlay: { horizon: 1h } }'))).toEqual([
      't.yaml:16:13  sweep[0].values: the fault starts at 15m, at or after the horizon (10m) (at faults[0].at = 15m, variants "a", "b")',
    ]);
  });
});

describe('a problem a sweep point causes away from the swept value', () => {
  it('is said once, at the point, not once per variant', () => {
    const source = withLines('sweep:', '  - parameter: horizon', '    values: [10m, 1m]', 'variants:', '  a: {}', '  b: { overlay: { server: { slots: 4 } } }');
    expect(printed(source)).toEqual(['t.yaml:13:34  faults[0].at: the fault starts at 2m, at or after the horizon (1m) (at horizon = 1m)']);
  });
});

describe('one problem of the search, said once', () => {
  it('says an end of the range no variant can take once', () => {
    const source = withLines('search:', '  parameter: server.slots', '  range: { from: 0, to: 20 }', 'variants:', '  a: {}', '  b: { overlay: { server: { queue: 10 } } }');
    expect(printed(source)).toEqual([
      't.yaml:16:18  search.range.from: server.slots: must be at least 1 (concurrency slots; got the number 0) (at server.slots = 0)',
    ]);
  });
});

describe('range errors say what they got', () => {
  it('for whole numbers with a minimum of their own, as for the others', () => {
    const source = withLines().replace('  slots: 8', '  slots: -8\n  queue: -1').replace('maxAttempts: 3,', 'maxAttempts: -3,');
    expect(printed(source)).toEqual([
      't.yaml:8:28  clients.mobile.layers.http.maxAttempts: must be at least 1 (tries per call; got the number -3)',
      't.yaml:10:10  server.slots: must be at least 1 (concurrency slots; got the number -8)',
      't.yaml:11:10  server.queue: must be at least 0 (got the number -1)',
    ]);
  });
});

describe('a bare number of seconds, given its unit', () => {
  it('suggests the same length of time ("300s", which is 5m), never "300m"', () => {
    expect(secondsWithUnit(300)).toBe('"300s" (= 5m)');
    expect(secondsWithUnit(90)).toBe('"90s" (= 1m30s)');
    expect(secondsWithUnit(30)).toBe('"30s"');
    expect(secondsWithUnit(0.5)).toBe('"0.5s" (= 500ms)');
  });
});

describe('a command given no file', () => {
  it.each([
    [['validate'], 'retrystorm: validate: give a scenario file (or - for standard input), e.g. retrystorm validate scenarios/retry-storm.yaml'],
    [['run'], 'retrystorm: run: give a scenario file (or - for standard input), e.g. retrystorm run scenarios/retry-storm.yaml'],
    [['edge'], 'retrystorm: edge: give a scenario file (or - for standard input), e.g. retrystorm edge scenarios/retry-storm.yaml --parameter faults[0].duration --range 1m..30m'],
    [['diff', 'reports/before'], 'retrystorm: diff: give two results folders or scenario files, the base then the head, e.g. retrystorm diff reports/before reports/after'],
    [['merge'], 'retrystorm: merge: give the results folders of the shards, e.g. retrystorm merge shard-1 shard-2 --out merged'],
    [['report'], 'retrystorm: report: give a results folder (written by run --out or merge), e.g. retrystorm report reports/retry-storm'],
  ])('%j says what to give, exit 2', async (args, first) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([first, 'run "retrystorm --help" for usage']);
  });
});
