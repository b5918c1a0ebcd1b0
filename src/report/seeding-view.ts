/**
 * How many seeds each variant got under `seeds: auto`, and why (src/experiment/adaptive-seeds.ts
 * decides; the Results carry it), as text: the settings line, the rule in one paragraph, and a
 * row per variant at each ranked point. The terminal, summary.md and report.html read these.
 */
import { formatValue } from '../measures/format.js';
import type { Results, SeedingResult } from '../results/results.js';
import { objectiveInfo, pointLabel } from './cells.js';

export interface SeedRow {
  variant: string;
  /** The sweep point as written ("faults[0].duration=12m"), empty without a sweep. */
  at: string;
  seeds: number;
  why: string;
}

/** "4", or "2 to 8": the seeds the cells got, as a range. */
export function seedRange(cells: ReadonlyArray<{ seeds: number }>): string {
  const counts = cells.map((c) => c.seeds);
  const lo = Math.min(...counts), hi = Math.max(...counts);
  return lo === hi ? `${lo}` : `${lo} to ${hi}`;
}

/** "2 to 8 per variant and point (seeds: auto, start 2, max 8): 46 runs, ...": the settings line; null for a fixed number of seeds. */
export function seedingSetting(r: Results): string | null {
  const s = r.seeding;
  if (!s) return null;
  const range = seedRange(s.cells);
  const budget = s.budget === null ? '' : `, budget ${s.budget}`;
  return `${range} per variant and point (seeds: auto, start ${s.start}, max ${s.max}${budget}): ${r.runsPlanned} runs, where ${s.max} seeds everywhere would take ${s.cells.length * s.max}`;
}

/** The rule, said once: where seeds go, and the error rate of the looks. */
export function seedingRule(s: SeedingResult): string {
  return `Every variant started with ${s.start} seed${s.start === 1 ? '' : 's'} at every point; only variants whose order against a rival the paired seeds had not decided (means apart beyond the tolerance, not beyond seed noise) got more, doubling at each look (${s.levels.join(', ')} seeds), the best-ranked first. Each look judged at ${formatValue('share', s.confidence)} confidence, so a difference that is not there is found in at most 5% of comparisons over all ${s.levels.length} looks.`;
}

/** One row per variant at each ranked point, in the ranking's order; unranked points are summed up by seedingRule's caller. */
export function seedingRows(r: Results): SeedRow[] {
  const s = r.seeding;
  const k = r.ranking;
  if (!s || !k) return [];
  return k.points.flatMap((p) => {
    const at = pointLabel(p.values) ?? '';
    return p.entries.flatMap((e) => {
      const cell = s.cells.find((c) => c.variant === e.variant && c.point === p.point);
      if (!cell) return [];
      const pairs = p.undecided.filter((u) => u.above === e.variant || u.below === e.variant);
      const rivals = pairs.map((u) => `${u.above === e.variant ? u.below : u.above} (${u.on.map((o) => objectiveInfo(r, o)?.label ?? o).join(', ')})`).join('; ');
      const why =
        cell.reason === 'decided' ? (cell.seeds === s.start ? 'decided by the start seeds' : `decided at ${cell.seeds} seeds`)
        : cell.reason === 'max' ? `still within seed noise against ${rivals} at the most seeds (max ${s.max})`
        : cell.reason === 'budget' ? `still within seed noise against ${rivals}; the budget of ${s.budget} runs paid for no more`
        : cell.reason === 'partial' ? `still within seed noise against ${rivals} when the experiment stopped`
        : cell.reason === 'gated' ? `ranked below ${gateText(e.gate)}: its order there does not change the pick`
        : 'not ranked';
      return [{ variant: e.variant, at, seeds: cell.seeds, why }];
    });
  });
}

/** The gate a variant fell below, in words. */
function gateText(gate: string | null): string {
  if (gate === 'recovered') return 'the variants that recovered in every seed';
  if (gate === 'floors') return 'the variants that meet every floor';
  if (gate === 'healthyBeforeTrigger') return 'the variants healthy before the fault';
  return 'the top group';
}

/** The cells no ranked point reads (outside compare.at): they keep the start seeds, for the curves. */
export function unrankedCells(r: Results): number {
  return r.seeding?.cells.filter((c) => c.reason === 'unranked').length ?? 0;
}
