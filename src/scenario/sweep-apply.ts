/**
 * Applies a scenario's sweep: reads the `sweep` block of a validated base into parameters
 * (checking that each path names a value the scenario sets), and gives each point's raw
 * scenario. Kept apart from sweep.ts (pure path and value arithmetic) because it knows the
 * scenario's types and how its problems are reported.
 */
import { EXPERIMENT_KEYS, type Scenario } from './schema.js';
import { LOAD_PARAMETER, parsePath, rangeValues, type SweepPoint } from './sweep.js';
import { hasPath, setPath, type PathSegment } from './raw-path.js';
import { parseDuration, parseRate } from './units.js';

export interface SweepParameter {
  index: number;
  parameter: string;
  path: PathSegment[] | typeof LOAD_PARAMETER;
  values: Array<string | number>;
  /** Where the values were written ('values' or 'range'), for error positions. */
  valuesKey: 'values' | 'range';
}

type Report = (path: PropertyKey[], message: string) => void;

export function sweepParameters(base: Scenario, rawBase: unknown, report: Report): SweepParameter[] {
  const out: SweepParameter[] = [];
  (base.sweep ?? []).forEach((s, index) => {
    const valuesKey = s.values ? 'values' : 'range';
    const values = s.values ?? rangeValues(s.range!.from, s.range!.to, s.range!.steps);
    if (typeof values === 'string') return report(['sweep', index, 'range'], values);
    const repeated = firstRepeat(values);
    if (repeated !== undefined) {
      return report(['sweep', index, valuesKey], `the value ${JSON.stringify(repeated)} comes twice (written alike or in other units): each point would run the same world again; list each value once`);
    }
    if (s.parameter === LOAD_PARAMETER) {
      const bad = values.find((v) => typeof v !== 'number' || v <= 0);
      if (bad !== undefined) return report(['sweep', index, valuesKey], `load multiplies every arrival rate: use numbers above 0 such as 0.5, 1, 1.2 (got ${JSON.stringify(bad)})`);
      out.push({ index, parameter: s.parameter, path: LOAD_PARAMETER, values, valuesKey });
      return;
    }
    const path = parsePath(s.parameter);
    if (typeof path === 'string') return report(['sweep', index, 'parameter'], path);
    // The experiment's own keys (seed, seeds, compare…) are read once for the whole experiment:
    // a sweep of `seed` ran the same seeds at every point.
    if ((EXPERIMENT_KEYS as readonly string[]).includes(String(path[0]))) {
      return report(['sweep', index, 'parameter'], `"${s.parameter}" cannot be swept: it belongs to the whole experiment; sweep a value of the world (clients, server, faults, horizon…)`);
    }
    if (!hasPath(rawBase, path)) {
      return report(['sweep', index, 'parameter'], `the scenario sets no value at "${s.parameter}": a sweep varies a value the base scenario already has`);
    }
    if (out.some((o) => o.parameter === s.parameter)) return report(['sweep', index, 'parameter'], `"${s.parameter}" is swept twice`);
    out.push({ index, parameter: s.parameter, path, values, valuesKey });
  });
  return out;
}

/** The raw scenario at one sweep point, and the load multiplier to apply after validation. */
export function applyPoint(raw: Record<string, unknown>, point: SweepPoint, params: SweepParameter[]): { raw: unknown; load: number } {
  let out: unknown = raw;
  let load = 1;
  for (const p of params) {
    const v = point.values[p.parameter];
    if (p.path === LOAD_PARAMETER) load *= v as number;
    else out = setPath(out, p.path, v);
  }
  return { raw: out, load };
}

/** A copy of the scenario with every population's arrival rates multiplied by k. */
export function scaleLoad(s: Scenario, k: number): Scenario {
  if (k === 1) return s;
  const clients = Object.fromEntries(
    Object.entries(s.clients).map(([name, pop]) => {
      const a = pop.arrivals;
      const arrivals =
        a.kind === 'constant' ? { ...a, rate: a.rate * k }
        : a.kind === 'steps' ? { ...a, steps: a.steps.map((st) => ({ ...st, rate: st.rate * k })) }
        : a.kind === 'ramp' ? { ...a, from: a.from * k, to: a.to * k }
        : a.kind === 'closed' ? { ...a, users: Math.max(1, Math.round(a.users * k)) } // k times the users: k times the most they can ask
        : a.kind === 'after' ? a // a journey's step follows its previous step, which is scaled
        : a.kind === 'trace' ? { ...a, scale: a.scale * k } // the same recorded data, k times the traffic
        : { ...a, mean: a.mean * k };
      return [name, { ...pop, arrivals }];
    }),
  );
  return { ...s, clients };
}

export function startsWith(path: ReadonlyArray<PropertyKey>, prefix: PathSegment[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(seg) === String(path[i]));
}

/** The first value a sweep lists twice, comparing what the values mean ("60s" is "1m"); undefined when none. */
function firstRepeat(values: Array<string | number>): string | number | undefined {
  const seen = new Set<string>();
  for (const v of values) {
    let key = `n:${String(v)}`;
    if (typeof v === 'string') {
      const d = parseDuration(v);
      const r = d.ok ? undefined : parseRate(v);
      key = d.ok ? `d:${d.value}` : r?.ok ? `r:${r.value}` : `s:${v}`;
    }
    if (seen.has(key)) return v;
    seen.add(key);
  }
  return undefined;
}
