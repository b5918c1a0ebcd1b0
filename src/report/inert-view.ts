/**
 * What the results say of a variant whose change never took effect (src/results/inert.ts), in
 * one sentence each, for the terminal, summary.md and report.html alike: without it such a
 * variant reads as a policy that was tried and changed nothing.
 */
import type { Results } from '../results/results.js';

export function inertNotes(r: Results): string[] {
  return (r.inert ?? []).map((i) =>
    `${i.variant} ran exactly as ${i.like} in all ${i.runs} of its runs, seed for seed: its change never took effect here (a limit, budget or breaker that never binds, such as a per-client budget among many clients, or a setting no run reaches), so it is not a policy that was tested and found to change nothing.`);
}
