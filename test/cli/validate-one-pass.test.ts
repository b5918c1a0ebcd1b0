// `retrystorm validate` says every problem of a file in one pass (issue 40): the schema's, the
// semantic checks' on the parts the schema accepted, the overlays' and the measures'
// expectations name, together, rather than in rounds as each kind is fixed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCliProcess } from '../helpers/cli.js';

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-one-pass-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Seven independent mistakes, each of another kind. */
const SEVEN = [
  'name: seven', //                                                  1
  'horizon: 10m', //                                                 2
  'seed: 1', //                                                      3
  'clients:', //                                                     4
  '  app:', //                                                       5
  '    clients: 100', //                                             6
  '    arrivals: { kind: constant, rate: 50/s }', //                 7
  '    retyr: { maxAttempts: 3 }', //                                8  unknown key
  '    layers:', //                                                  9
  '      http: { maxAttempts: three, timeout: 1s }', //              10 wrong type
  'server:', //                                                      11
  '  slots: 10', //                                                  12
  '  serviceTime: { kind: exponential, mean: 20 parsecs }', //       13 bad unit
  'faults:', //                                                      14
  '  - kind: dependency-down', //                                    15
  '    at: 1m', //                                                   16
  '    duration: 30s', //                                            17
  '  - kind: surge', //                                              18
  '    at: 2m', //                                                   19
  '    duration: 1m', //                                             20
  '    factor: 2', //                                                21
  '    population: ap', //                                           22 unknown population
  '  - kind: dependency-down', //                                    23
  '    at: 20m', //                                                  24 past the horizon
  '    duration: 1m', //                                             25
  'expectations:', //                                                26
  '  - variant: base', //                                            27
  '    recoveryTimez: { atMost: 5m }', //                            28 not a measure
  'variants:', //                                                    29
  '  base: {}', //                                                   30
  '  tight:', //                                                     31
  '    overlay:', //                                                 32
  '      clients: { app: { layers: { htp: { maxAttempts: 1 } } } }', // 33 a misspelt layer
].join('\n') + '\n';

const EXPECTED: Array<[string, string, RegExp]> = [
  ['8:5', 'clients.app.retyr', /^unknown key "retyr" \(did you mean "retry"\?\)$/],
  ['10:28', 'clients.app.layers.http.maxAttempts', /^expected a whole number \(tries per call\)$/],
  ['13:43', 'server.serviceTime.mean', /^"20 parsecs" is not a duration/],
  ['22:17', 'faults[1].population', /^no client population "ap" \(the populations are: app\)/],
  ['24:9', 'faults[2].at', /^the fault starts at 20m, at or after the horizon \(10m\)$/],
  ['28:5', 'expectations[0].recoveryTimez', /^"recoveryTimez" is not a measure \(did you mean "recoveryTimeS"\?\)/],
  ['33:35', 'variants.tight.overlay.clients.app.layers.htp', /^the base has no layer "htp" in population "app" \(its layers: http\): did you mean "http"\?/],
];

describe('validate: every problem in one pass', () => {
  it('reports all seven mistakes of a file at once, each with file:line:col and its path, and exits 2', async () => {
    const file = join(dir, 'seven.yaml');
    writeFileSync(file, SEVEN);
    const r = await runCliProcess(dir, ['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1 of 1 file(s) invalid');
    const problems = lines.slice(0, -1);
    expect(problems, r.stderr).toHaveLength(EXPECTED.length);
    problems.forEach((line, i) => {
      const [at, path, says] = EXPECTED[i];
      const prefix = `${file}:${at}  ${path}: `;
      expect(line.startsWith(prefix), `line ${i + 1} should start with "${prefix}":\n${r.stderr}`).toBe(true);
      expect(line.slice(prefix.length)).toMatch(says);
    });
  });
});
