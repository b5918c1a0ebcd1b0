// Reading one scope (a route's or a population's users) out of a run summary, for tests.
import type { ScopeOutcome } from '../../src/measures/summarize.js';

export function scopeMeasures(list: readonly ScopeOutcome[], name: string): Record<string, number | null> {
  const found = list.find((s) => s.name === name);
  if (!found) throw new Error(`no scope named ${name} (have ${list.map((s) => s.name).join(', ')})`);
  return found.measures;
}
