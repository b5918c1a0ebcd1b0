/**
 * `services:` (issue 14): the graph's bad inputs get one positioned error each, in the style
 * of load.test.ts: an unknown service, a cycle, a fan-in larger than the calls, a fault on a
 * service nobody declared, a service named like the edge, a field a call does not have.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';

// A valid three-tier graph; cases replace whole lines, so line numbers stay put.
const BASE = [
  'name: t', //                                                   1
  'horizon: 10m', //                                              2
  'clients:', //                                                  3
  '  app:', //                                                    4
  '    arrivals: { kind: constant, rate: 50/s }', //              5
  '    retry: { maxAttempts: 3, timeout: 1s }', //                6
  'server:', //                                                   7
  '  slots: 10', //                                               8
  '  serviceTime: { kind: constant, value: 5ms }', //             9
  '  routes:', //                                                10
  '    default:', //                                             11
  '      services:', //                                          12
  '        - { service: api, retry: { maxAttempts: 3 } }', //    13
  'services:', //                                                14
  '  api:', //                                                   15
  '    slots: 10', //                                            16
  '    serviceTime: { kind: constant, value: 5ms }', //          17
  '    routes:', //                                              18
  '      default:', //                                           19
  '        services: [ { service: db }, { service: db } ]', //   20
  '        fanOut: parallel', //                                 21
  '  db:', //                                                    22
  '    slots: 10', //                                            23
  '    serviceTime: { kind: constant, value: 5ms }', //          24
  'faults:', //                                                  25
  '  - { kind: latency, service: db, at: 1m, duration: 1m, factor: 3 }', // 26
];

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

describe('services: a graph of servers', () => {
  it('loads the valid graph, with defaults for the calls', () => {
    const s = loadScenario(scenario(), 's.yaml').base;
    expect(Object.keys(s.services!)).toEqual(['api', 'db']);
    const api = s.services!.api.routes!.default;
    expect(api.fanOut).toBe('parallel');
    expect(api.services!.map((c) => [c.service, c.propagateDeadline])).toEqual([['db', false], ['db', false]]);
    expect(s.server.routes!.default.fanOut).toBe('sequential');
  });

  it('refuses a call to a service nobody declared, with the closest name', () => {
    expectProblems(scenario({ 13: '        - { service: apl, retry: { maxAttempts: 3 } }' }), [
      { line: 13, col: 22, path: 'server.routes.default.services[0].service', message: /^no service named "apl" \(did you mean "api"\?\)$/ },
    ]);
  });

  it('refuses a cycle in the calls, at the call that closes it', () => {
    expectProblems(scenario({ 24: '    serviceTime: { kind: constant, value: 5ms }\n    routes: { default: { services: [ { service: api } ] } }' }), [
      { line: 25, col: 49, path: 'services.db.routes.default.services[0].service', message: /^the service calls make a cycle \(api → db → api\): a request would call itself without end; break it$/ },
    ]);
  });

  it('refuses fanIn above the number of calls, and fanIn on sequential calls', () => {
    expectProblems(scenario({ 21: '        fanOut: parallel\n        fanIn: 3' }), [
      { line: 22, col: 16, path: 'services.api.routes.default.fanIn', message: /^fanIn 3 waits for more calls than the route makes \(2\): at most 2$/ },
    ]);
    expectProblems(scenario({ 21: '        fanIn: 1' }), [
      { line: 21, col: 16, path: 'services.api.routes.default.fanIn', message: /fanIn .* needs fanOut: parallel/ },
    ]);
  });

  it('refuses a fault on a service nobody declared', () => {
    expectProblems(scenario({ 26: '  - { kind: latency, service: dbb, at: 1m, duration: 1m, factor: 3 }' }), [
      { line: 26, col: 31, path: 'faults[0].service', message: /^no service named "dbb" \(did you mean "db"\?\)$/ },
    ]);
  });

  it('refuses a service named like the edge', () => {
    expectProblems(scenario({ 22: '  server:' }, []).replace('service: db }, { service: db }', 'service: server }, { service: server }').replace('service: db, at', 'service: server, at'), [
      { line: 22, col: 3, path: 'services.server', message: /"server" names the server users call/ },
    ]);
  });

  it('refuses a service route calling a dependency the service does not declare, and a service autoscaler whose bounds do not hold its size', () => {
    expectProblems(scenario({ 24: '    serviceTime: { kind: constant, value: 5ms }\n    routes: { default: { calls: [cache] } }' }), [
      { line: 25, col: 34, path: 'services.db.routes.default.calls[0]', message: /^no dependency named "cache" \(db declares none under services\.db\.dependencies\)$/ },
    ]);
    expect(() => loadScenario(scenario({ 23: '    slots: 10\n    autoscaler: { metric: utilisation, target: 0.6, min: 1, max: 4 }' }), 's.yaml')).not.toThrow();
    expectProblems(scenario({ 23: '    slots: 10\n    autoscaler: { metric: utilisation, target: 0.6, min: 2, max: 4 }' }), [
      { line: 24, col: 58, path: 'services.db.autoscaler.min', message: /^service db starts with 1 instance\(s\), fewer than the autoscaler's min \(2\)$/ },
    ]);
  });

  it('refuses an unknown key in a call, and a bare number for propagateDeadline', () => {
    expectProblems(scenario({ 13: '        - { service: api, retries: 3 }' }), [
      { line: 13, col: 27, path: 'server.routes.default.services[0].retries', message: /^unknown key "retries" \(did you mean "retry"\?\)/ },
    ]);
    expectProblems(scenario({ 13: '        - { service: api, propagateDeadline: 1 }' }), [
      { line: 13, col: 46, path: 'server.routes.default.services[0].propagateDeadline', message: /^expected true or false \(got the number 1\)$/ },
    ]);
  });
});
