/**
 * The journal of a killed run (runs.ndjson) is chained (issue 39): each record carries a
 * digest of itself and of the record before it, the first chained on the run plan's line. An
 * edited, reordered, dropped or transplanted record is refused by merge with the file and the
 * line of the first bad record; a last line torn by a kill is not an edit, and the records
 * before it merge. What merge recovers from a journal is marked so in runs.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment, type ExperimentResult } from '../../src/experiment/experiment.js';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import { MergeError, mergeDirs } from '../../src/experiment/merge.js';
import { JournalWriter, JOURNAL_FILE } from '../../src/experiment/runs-journal.js';
import { runsJson } from '../../src/experiment/runs-json.js';

const SCENARIO = `
name: chained
horizon: 1m
seeds: 2
measures: { bucket: 10s, hold: 10s }
clients:
  app:
    arrivals: { kind: constant, rate: 30/s }
    retry: { maxAttempts: 3, timeout: 1s }
server: { slots: 8, serviceTime: { kind: exponential, mean: 50ms } }
faults:
  - { kind: dependency-down, at: 20s, duration: 5s }
variants:
  a: {}
  b: { overlay: { server: { queue: 10 } } }
`;

let dir: string;
let loaded: LoadedScenario;
let x: ExperimentResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-chain-'));
  loaded = loadScenario(SCENARIO, 'chained.yaml');
  x = await runExperiment(loaded, { workers: 1 });
  expect(x.failures).toEqual([]);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The journal lines a run writes: the plan, then runs 0..n-1 of `order` as they finish (the plan's first `planned` runs, then the rest as a later look). */
function journalLines(order: number[], planned = x.runs.length): string[] {
  const w = new JournalWriter({ runs: x.runs.slice(0, planned), source: loaded.source });
  const lines = [w.header];
  const add = (line: string) => {
    w.wrote(line);
    lines.push(line);
  };
  if (planned < x.runs.length) add(w.more(x.runs.slice(planned)));
  for (const i of order) add(w.record(i, x.results[i]!));
  return lines;
}

/** A staging folder as a killed run leaves it: the scenario and the journal. */
function folder(name: string, text: string): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'scenario.yaml'), loaded.source);
  writeFileSync(join(d, JOURNAL_FILE), text);
  return d;
}

function refusal(d: string): string {
  try {
    mergeDirs([d]);
  } catch (e) {
    expect(e).toBeInstanceOf(MergeError);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message;
  }
  throw new Error(`merge accepted ${d}`);
}

const chainBreak = (d: string, line: number) => new RegExp(`^${join(d, JOURNAL_FILE).replaceAll('.', '\\.')}:${line}: the journal's chain of digests breaks at this record`);

describe('a chained journal', () => {
  it('merges as the interrupted experiment it is, each run marked as recovered from the journal', () => {
    const d = folder('whole', journalLines([2, 0, 3]).join(''));
    const merged = mergeDirs([d]);
    expect(merged.partial).toBe(true);
    expect(Array.from(merged.results, (r) => (r ? 1 : 0))).toEqual([1, 0, 1, 1]);
    const saved = JSON.parse(runsJson(merged));
    expect(saved.format).toBe('retrystorm-runs/4');
    expect(saved.results.map((r: { index: number; fromJournal?: boolean }) => [r.index, r.fromJournal])).toEqual([[0, true], [2, true], [3, true]]);
    // The numbers are the runs' own: only the mark is added.
    const { fromJournal: _, ...first } = saved.results[0];
    expect(first).toEqual(JSON.parse(runsJson(x)).results[0]);
  });

  it('chains the runs a later look adds (seeds: auto) like any record', () => {
    const lines = journalLines([0, 1, 2, 3], 2);
    expect(mergeDirs([folder('looks', lines.join(''))]).results.filter(Boolean).length).toBe(4);
    // A run dropped from the plan's later look (line 2) breaks the chain there.
    const edited = [...lines];
    edited[1] = edited[1].replace(/,\{"index":3,[^}]*\}\]/, ']');
    expect(edited[1]).not.toBe(lines[1]);
    const d = folder('looks-edited', edited.join(''));
    expect(refusal(d)).toMatch(chainBreak(d, 2));
  });

  it('refuses an edited number, naming the file and the line of the record', () => {
    const lines = journalLines([0, 1, 2, 3]);
    const edited = [...lines];
    // Line 3 of the file: the second run's record; one of its measures made a little better.
    edited[2] = edited[2].replace(/"attempts":(\d+)/, (_m, n: string) => `"attempts":${Number(n) - 1}`);
    expect(edited[2]).not.toBe(lines[2]);
    const d = folder('edited', edited.join(''));
    expect(refusal(d)).toMatch(chainBreak(d, 3));
  });

  it('refuses records reordered, or one removed from the middle', () => {
    const lines = journalLines([0, 1, 2, 3]);
    const swapped = folder('swapped', [lines[0], lines[2], lines[1], lines[3], lines[4]].join(''));
    expect(refusal(swapped)).toMatch(chainBreak(swapped, 2));
    const dropped = folder('dropped', [lines[0], lines[1], lines[3], lines[4]].join(''));
    expect(refusal(dropped)).toMatch(chainBreak(dropped, 3));
  });

  it('refuses a record moved in from another journal, and a plan edited under its records', () => {
    // Another journal of the same scenario, whose runs finished in another order.
    const other = journalLines([1, 0]);
    const lines = journalLines([0]);
    const moved = folder('moved', [...lines, other[2]].join(''));
    expect(refusal(moved)).toMatch(chainBreak(moved, 3));
    // The plan's line is what the first record chains on: editing it breaks the chain at line 2.
    const plan = [lines[0].replace('"seed":2', '"seed":2 '), ...lines.slice(1)];
    expect(plan[0]).not.toBe(lines[0]);
    const replanned = folder('replanned', plan.join(''));
    expect(refusal(replanned)).toMatch(chainBreak(replanned, 2));
  });

  it('names the journal, not a runs.json the folder lacks, when a chained record is not the plan\'s', () => {
    // Written by a writer whose plan has 2 runs: run 3 is none of them (a bug, not an edit).
    const w = new JournalWriter({ runs: x.runs.slice(0, 2), source: loaded.source });
    const line = w.record(3, x.results[3]!);
    const d = folder('unplanned', w.header + line);
    expect(refusal(d)).toBe(`${join(d, JOURNAL_FILE)}: a result has the index 3, not one of the 2 planned runs (0 to 1)`);
  });

  it('accepts a last line torn by a kill, up to the last whole record', () => {
    const lines = journalLines([3, 1, 0]);
    const torn = lines.slice(0, 3).join('') + lines[3].slice(0, Math.floor(lines[3].length / 2));
    const merged = mergeDirs([folder('torn', torn)]);
    expect(Array.from(merged.results, (r) => (r ? 1 : 0))).toEqual([0, 1, 0, 1]);
    // Torn just before its newline, the last record is whole: it counts.
    const unterminated = lines.join('').slice(0, -1);
    expect(mergeDirs([folder('unterminated', unterminated)]).results.filter(Boolean).length).toBe(3);
    // A torn line in the middle is not a kill's: the chain breaks there.
    const middle = folder('torn-middle', lines.slice(0, 2).join('') + lines[2].slice(0, 40) + '\n' + lines[3]);
    expect(refusal(middle)).toMatch(chainBreak(middle, 3));
  });
});
