/**
 * The key settings a reader needs before trusting a comparison: how long and how often it
 * ran, what went wrong and when, whose users the verdict is about, and how "recovered" was
 * judged. Plain label/value strings; the page escapes them. The clients and server are in
 * the scenario file, shown whole further down the page.
 */
import { formatDuration } from '../../scenario/units.js';
import { formatValue } from '../../measures/format.js';
import { clockOf, type FaultWindowResult, type Results } from '../../results/results.js';
import { atPoint, featuredPointIndex } from '../cells.js';
import { seedingSetting } from '../seeding-view.js';

export interface Setting { label: string; value: string }

function faultText(f: FaultWindowResult, horizonS: number): string {
  const end = f.endS === null || f.endS >= horizonS ? 'the end' : formatDuration(f.endS);
  return `${f.kind} from ${formatDuration(f.startS)} to ${end}${f.endS === null ? '' : ` (${formatDuration(f.endS - f.startS)})`}`;
}

function seedsText(seeds: number[]): string {
  if (seeds.length === 0) return '—';
  const contiguous = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  const list = seeds.length === 1 ? `seed ${seeds[0]}` : contiguous ? `seeds ${seeds[0]}–${seeds[seeds.length - 1]}` : `seeds ${seeds.join(', ')}`;
  return `${seeds.length} per variant (${list})`;
}

/**
 * The width of the windows recovery judged health over: measures.healthWindow when set, else
 * what the runs used (the healthWindowS measure: the bucket width, widened where the traffic
 * before the fault was too thin for the load allowance), as one width or a range.
 */
function healthWindowText(r: Results): string {
  const widths: number[] = [];
  for (const v of r.variants) {
    for (const p of v.points) {
      const w = p.measures.healthWindowS?.value;
      if (w !== null && w !== undefined) widths.push(w);
    }
  }
  if (widths.length === 0) return formatDuration(r.measureSettings.healthWindowS ?? r.bucketS);
  const lo = Math.min(...widths), hi = Math.max(...widths);
  return lo === hi ? formatDuration(lo) : `${formatDuration(lo)} to ${formatDuration(hi)}`;
}

export function keySettings(r: Results): Setting[] {
  const out: Setting[] = [];
  out.push({ label: 'horizon', value: `${formatDuration(r.horizonS)} simulated per run, in ${formatDuration(r.bucketS)} buckets` });
  // A variant whose overlay sets its own horizon or buckets, said beside the scenario's.
  for (const v of r.variants) {
    const c = clockOf(r, v);
    if (c.horizonS !== r.horizonS || c.bucketS !== r.bucketS) out.push({ label: `horizon (${v.name})`, value: `${formatDuration(c.horizonS)} simulated per run, in ${formatDuration(c.bucketS)} buckets` });
  }
  out.push({ label: 'seeds', value: seedingSetting(r) ?? seedsText(r.seeds) });
  const failed = r.failedRuns.length > 0 ? `; ${r.failedRuns.length} failed` : '';
  out.push({ label: 'runs', value: `${r.runsFinished} of ${r.runsPlanned} finished${failed}` });
  if (r.sweep) out.push({ label: 'sweep', value: r.sweep.parameters.join(' × ') });

  // Faults at the point the charts draw: the first variant's, plus any variant whose windows differ.
  const featured = featuredPointIndex(r);
  const text = (ws: FaultWindowResult[] | undefined, horizonS: number) => (ws && ws.length > 0 ? ws.map((f) => faultText(f, horizonS)).join('; ') : 'none');
  const windows = r.variants.map((v) => text(atPoint(v, featured)?.faults, clockOf(r, v).horizonS));
  out.push({ label: 'faults', value: windows[0] });
  r.variants.forEach((v, i) => {
    if (i > 0 && windows[i] !== windows[0]) out.push({ label: `faults (${v.name})`, value: windows[i] });
  });

  out.push({ label: 'verdict about', value: verdictAbout(r) });
  const m = r.measureSettings;
  out.push({
    label: 'recovered when',
    value: `every ${healthWindowText(r)} window had the users' success ratio at least the pre-fault ratio minus ${formatValue('share', m.successRatioDrop)} and the offered load at most the pre-fault load × ${+(1 + m.loadExcess).toFixed(4)}, for ${formatDuration(m.holdS)}, found to the second`,
  });
  out.push({ label: 'perceived outage', value: `time with users' success ratio below ${formatValue('share', m.perceivedOutageThreshold)}` });
  out.push({ label: 'healthy before the fault', value: `users' success ratio at least ${formatValue('share', m.perceivedOutageThreshold)} and the server below ${formatValue('share', m.saturation)} busy, after a ${formatDuration(m.warmupS)} warm-up` });
  const base = r.variants[0]?.points[0]?.measures.baselineRate?.value ?? null;
  if (base !== null) {
    out.push({ label: 'baseline (1x)', value: `${formatValue('rate', base)} user actions${m.baselineRate !== undefined ? ' (declared)' : ' (measured before the first fault)'}` });
  }
  return out;
}

/**
 * Whose outcomes the verdict judges, role by role: its users (internal ones for success
 * only), the partners held to their contracts, and the attackers whose refusals are not an
 * outage.
 */
function verdictAbout(r: Results): string {
  const named = (role: string) => r.populations.filter((p) => p.role === role).map((p) => p.name);
  const internal = new Set(named('internal'));
  const users = r.subject.filter((n) => !internal.has(n));
  const parts: string[] = [];
  if (users.length) parts.push(`the users of ${users.join(', ')}`);
  const inner = r.subject.filter((n) => internal.has(n));
  if (inner.length) parts.push(`${inner.join(', ')} (role internal: success only, not latency)`);
  if (parts.length === 0) parts.push('no users');
  const partners = r.populations.filter((p) => p.role === 'partner' && p.contract);
  if (partners.length) {
    parts.push(`partners held to their contracts: ${partners.map((p) => `${p.name} (${p.contract!.limit} per ${formatDuration(p.contract!.windowS)}; refusing it above that is not an outage)`).join(', ')}`);
  }
  const attackers = named('attacker');
  if (attackers.length) parts.push(`refusing ${attackers.join(', ')} (role attacker) is not an outage`);
  return parts.join('; ');
}
