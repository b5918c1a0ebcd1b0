// The pull-request comment's size: whatever changed, the part above the first <details>
// fold stays within about 60 lines for the flagship's shape (8 variants x 8 outage lengths),
// and the fold holds the rest.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadScenario } from '../../src/scenario/load.js';
import { MEASURES } from '../../src/measures/registry.js';
import type { ResultsDiff, MeasureChange } from '../../src/results/diff/results-diff.js';
import { diffMarkdown, md } from '../../src/report/diff/diff-markdown.js';
import { VERDICT_MEASURES } from '../../src/report/diff/diff-cells.js';
import { diffText } from '../../src/report/diff/diff-text.js';

const flagship = loadScenario(readFileSync('scenarios/retry-storm.yaml', 'utf8'), 'scenarios/retry-storm.yaml');

/** The worst case: every measure of every variant at every point worse beyond noise, every ranking reversed, every expectation flipped. */
function everythingWorse(): ResultsDiff {
  const variants = flagship.variants.map((v) => v.name);
  const change = (key: string): MeasureChange => {
    const m = MEASURES.get(key)!;
    return { key, label: m.label, unit: m.unit, better: m.better, base: 100, head: 900, delta: 800, lo: 700, hi: 900, p: 0.001, beyondNoise: true, direction: m.better === 'none' ? 'changed' : m.better === 'lower' ? 'worse' : 'better', why: 'Welch p = 0.001' };
  };
  const ranked = variants.map((v, i) => ({ rank: i + 1, variant: v }));
  return {
    base: { scenario: 'retry-storm', seeds: [1, 2, 3], runs: 192, partial: false },
    head: { scenario: 'retry-storm', seeds: [1, 2, 3], runs: 192, partial: false },
    variantsAdded: ['new-policy'], variantsRemoved: ['old-policy'], pointsAdded: [], pointsRemoved: [],
    comparedAt: { 'faults[0].duration': '12m' },
    points: variants.flatMap((variant) => flagship.points.map((p) => ({ variant, values: p.values, baseRuns: 3, headRuns: 3, changes: MEASURES.keys.map(change) }))),
    ranking: flagship.points.map((p) => ({ values: p.values, before: ranked, after: [...ranked].reverse(), changed: true })),
    expectations: Array.from({ length: 20 }, (_, i) => ({ name: `expectation ${i}`, before: true, after: false, actualBefore: 'ok', actualAfter: 'not ok' })),
  };
}

/** Every layer of every population of every variant changed. */
const scenarioChanges = flagship.variants.flatMap((v) => Object.entries(v.scenario.clients).flatMap(([p, c]) => Object.keys(c.layers ?? {}).map((l) => ({
  variant: v.name, path: `clients.${p}.layers.${l}.maxAttempts`, before: '3', after: '5', viaBefore: 'preset got', viaAfter: null,
}))));

/** A failing guard at every variant and point. */
const guards = flagship.variants.flatMap((v) => flagship.points.map((p) => ({
  name: `${v.name} at faults[0].duration=${p.values['faults[0].duration']}: recovery time worsens by at most 10%`, variant: v.name, at: p.values, measure: 'recoveryTimeS',
  base: 100, head: 200, worsening: 100, limit: 10, passed: false, compared: true, actual: '1m40s -> 3m20s: 1m40s worse (+100.0% worse)',
})));

describe('the diff as a pull-request comment', () => {
  it('fits in 60 lines before the first fold for the flagship, even when everything changed', () => {
    const diff = everythingWorse();
    const text = diffMarkdown({ results: diff, scenario: { variantsAdded: [], variantsRemoved: [], changes: scenarioChanges }, scenarioNote: null, guards });
    const beforeFold = text.slice(0, text.indexOf('<details>')).split('\n');
    expect(beforeFold.length).toBeLessThanOrEqual(60);
    // The verdict comes first, and the compared point's worse changes lead it.
    expect(beforeFold[1]).toMatch(/^### retrystorm diff: retry-storm: \d+ worse/);
    expect(beforeFold[3]).toMatch(/^- ⛔ guard failed: /); // failed guards lead: they fail the check
    expect(beforeFold.find((l) => l.startsWith('- 🔴'))).toMatch(/^- 🔴 as-is at faults\\\[0\\\]\.duration = 12m: recovery time/);
    // Nothing is lost: the fold holds every change and every expectation.
    const flagged = diff.points.length * MEASURES.keys.length;
    expect(text).toContain(`Every change beyond seed noise (${flagged}, at ${diff.points.length} of ${diff.points.length} variant-points)`);
    expect(text).toContain('expectation 19');
    expect(beforeFold).toContain('- ⛔ guard failed: as-is at faults\\[0\\].duration=1m: recovery time worsens by at most 10% (1m40s -\\> 3m20s: 1m40s worse (+100.0% worse))');
    expect(text).toContain('- **FAIL** all-defences at faults\\[0\\].duration=30m: recovery time worsens by at most 10%');
    expect(text).toContain(`- ${md(`all-defences: clients.worker.layers.proxy.maxAttempts 3 (via preset got) → 5`)}`);
    // GitHub refuses a comment over 65,536 characters: the fold is cut short of it, and says so.
    expect(text.length).toBeLessThan(65_536);
    expect(text).toMatch(/\(\d+ more variant-point\(s\) left out to keep the comment within GitHub's size limit/);
    expect(text).toContain('**as-is at faults\\[0\\].duration = 1m**');
  });

  it('escapes text from the scenario so it cannot break a table or inject HTML', () => {
    expect(md('a|b <script> *x*')).toBe('a\\|b \\<script\\> \\*x\\*');
  });

  it('names both scenarios when the head renamed it, in the comment and on the terminal', () => {
    const renamed = { ...everythingWorse(), head: { scenario: 'retry-storm-v2', seeds: [1, 2, 3], runs: 192, partial: false } };
    const report = { results: renamed, scenario: null, scenarioNote: null, guards: [] };
    expect(diffMarkdown(report).split('\n')[1]).toMatch(/^### retrystorm diff: retry-storm → retry-storm-v2: /);
    expect(diffText(report).split('\n')[0]).toMatch(/^retry-storm -> retry-storm-v2: /);
    // Unrenamed, the title is the one name.
    expect(diffText({ ...report, results: everythingWorse() }).split('\n')[0]).toMatch(/^retry-storm: /);
  });

  it('says so when nothing changed', () => {
    const diff = { ...everythingWorse(), variantsAdded: [], variantsRemoved: [], expectations: [], ranking: [], points: everythingWorse().points.map((p) => ({ ...p, changes: [] })) };
    const text = diffMarkdown({ results: diff, scenario: null, scenarioNote: null, guards: [] });
    expect(text).toContain('no change beyond seed noise');
    expect(VERDICT_MEASURES).toContain('recoveryTimeS');
  });
});

describe('the diff of two experiments with nothing in common', () => {
  // A user's own small scenario against the flagship's results: no variant of one is in the
  // other. It read "no change to the verdict beyond seed noise", and listed the unswept run
  // as "removed sweep point(s): " with nothing after it.
  const unrelated = (): ResultsDiff => ({
    base: { scenario: 'my-outage', seeds: [1, 2], runs: 4, partial: false },
    head: { scenario: 'retry-storm', seeds: [1, 2, 3], runs: 240, partial: false },
    variantsAdded: flagship.variants.map((v) => v.name), variantsRemoved: ['retries', 'no-retries'],
    pointsAdded: flagship.points.map((p) => p.values), pointsRemoved: [{}],
    comparedAt: null,
    points: [],
    ranking: [],
    expectations: [],
  });

  it('says there was nothing to compare, in the terminal and in the comment, and names the unswept run', () => {
    const report = { results: unrelated(), scenario: null, scenarioNote: null, guards: [] };
    const text = diffText(report).split('\n');
    expect(text[0]).toBe('my-outage -> retry-storm: nothing to compare: the base and the head have no variant in common at a common sweep point (see what was added and removed below) (base 2 seed(s), head 3 seed(s))');
    expect(text).toContain('removed sweep point(s): the unswept run');
    const comment = diffMarkdown(report).split('\n');
    expect(comment[1]).toBe('### retrystorm diff: my-outage → retry-storm: nothing to compare: the base and the head have no variant in common at a common sweep point (see what was added and removed below)');
    expect(comment).toContain('- removed sweep point(s): the unswept run');
  });
});

describe('the diff when a side ran one seed', () => {
  // The retries variant's success fell from 91% to 22%, and the diff said only "no measure
  // changed beyond seed noise": the reason, one seed, was only in --json's `why`.
  it('says that nothing can be flagged, and what to do, in the terminal and in the comment', () => {
    const quiet = { ...everythingWorse(), base: { scenario: 'retry-storm', seeds: [1], runs: 80, partial: false }, points: everythingWorse().points.map((p) => ({ ...p, changes: [] })), ranking: [], expectations: [] };
    const report = { results: quiet, scenario: null, scenarioNote: null, guards: [] };
    const note = 'the base ran one seed, so no change can be told from seed noise and none is flagged: run at least 2 seeds a side (--seeds) to compare';
    expect(diffText(report).split('\n')[1]).toBe(`  note: ${note}`);
    expect(diffMarkdown(report).split('\n')[3]).toBe(`> ${note}`);
  });
});
