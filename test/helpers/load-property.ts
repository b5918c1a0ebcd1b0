/**
 * The loader under random edits of the reference scenario, as a fast-check property: it only
 * ever loads, or throws a ScenarioError whose problems are positioned, sorted and non-empty.
 * The quick suite (load.test.ts) runs the first 1,000 runs of the fixed seed, the slow suite
 * (load-property.slow.test.ts) 3,000: the same seed gives the same runs, so the quick ones are
 * the start of the slow ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';

export function loadProperty(numRuns: number): void {
describe('loadScenario under random edits (property)', () => {
  const reference = readFileSync('scenarios/reference-storm.yaml', 'utf8');
  const CHARS = [':', '-', ' ', '\n', '[', ']', '{', '}', '#', ',', '"', "'", '&', '*', '!', '|', '>', '?', '0', '1', '7', '.', 'a', 'k', 's', 'm', '/'];
  const SCALARS = ['0', '-1', '-5s', '1.5', '1e999', '.inf', '.nan', 'null', '~', 'true', '""', '[]', '{}', '800', '1000000000000', '876000h', '9'.repeat(400) + 's', '0s', '0/s', 'none', 'full', 'gaussian', 'constructor', '__proto__', '*x', '&x 1', '!!binary aGk=', '!!set {a}', '{kind: constant}', '{kind: lognormal, mean: 1s, p99: 0s}'];

  type Edit = (text: string) => string;
  const lines = (f: (ls: string[]) => void): Edit => (text) => {
    const ls = text.split('\n');
    f(ls);
    return ls.join('\n');
  };
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.nat().map((i): Edit => (t) => { const k = i % Math.max(t.length, 1); return t.slice(0, k) + t.slice(k + 1); }),
    fc.tuple(fc.nat(), fc.constantFrom(...CHARS)).map(([i, c]): Edit => (t) => { const k = i % (t.length + 1); return t.slice(0, k) + c + t.slice(k); }),
    fc.nat().map((i) => lines((ls) => { const k = i % ls.length; ls.splice(k, 0, ls[k]); })),
    fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => lines((ls) => { const a = i % ls.length, b = j % ls.length; [ls[a], ls[b]] = [ls[b], ls[a]]; })),
    fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...SCALARS), fc.integer().map(String), fc.string({ maxLength: 6 }))).map(([i, v]): Edit => (t) => {
      const scalars = [...t.matchAll(/(:\s+)([^\s{}[\],#][^,{}[\]\n#]*)/g)];
      if (scalars.length === 0) return t;
      const m = scalars[i % scalars.length];
      const at = m.index + m[1].length;
      return t.slice(0, at) + v + t.slice(at + m[2].length);
    }),
    fc.tuple(fc.nat(), fc.integer({ min: -4, max: 4 })).map(([i, d]) => lines((ls) => {
      const k = i % ls.length;
      ls[k] = d >= 0 ? ' '.repeat(d) + ls[k] : ls[k].replace(new RegExp(`^ {0,${-d}}`), '');
    })),
  );

  it('only ever loads or throws a ScenarioError with positioned, sorted, non-empty problems', () => {
    let loaded = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const source = edits.reduce((t, e) => e(t), reference);
        let problems: Problem[];
        try {
          loadScenario(source, 'm.yaml');
          loaded++;
          return;
        } catch (e) {
          if (!(e instanceof ScenarioError)) throw e;
          problems = e.problems;
        }
        refused++;
        // Plain checks rather than expect(): this runs thousands of times.
        const fail = (why: string) => { throw new Error(`${why}\n--- source ---\n${source}\n--- problems ---\n${problems.map(formatProblem).join('\n')}`); };
        if (problems.length === 0) fail('a ScenarioError without problems');
        const lineCount = source.split('\n').length;
        for (const p of problems) {
          if (p.file !== 'm.yaml') fail(`wrong file ${p.file}`);
          if (p.line === 0 ? p.path !== '' : !(p.line >= 1 && p.line <= lineCount && p.col >= 1)) fail(`bad position ${p.line}:${p.col}`);
          if (p.message.trim() === '' || p.message === 'Invalid input') fail('empty or generic message');
        }
        for (let i = 1; i < problems.length; i++) {
          const [a, b] = [problems[i - 1], problems[i]];
          if (a.line > b.line || (a.line === b.line && a.col > b.col)) fail('problems not sorted by position');
        }
      }),
      { numRuns, seed: 42 },
    );
    // the edits must exercise both outcomes, or the property proves little (at 1,000 runs 165
    // loaded and 835 refused; at 3,000, 458 and 2,542)
    expect(loaded).toBeGreaterThan(numRuns / 30);
    expect(refused).toBeGreaterThan(numRuns / 3);
  });
});
}
