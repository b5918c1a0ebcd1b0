/**
 * The key settings a reader needs before trusting a comparison: how long and how often it
 * ran, what went wrong and when, how "recovered" was judged, and the clients and server as
 * the scenario file wrote them. Plain label/value strings; the page escapes them.
 */
import { stringify } from 'yaml';
import { formatDuration } from '../../scenario/units.js';
import { atFeatured, featuredPoint, type FaultWindow, type Results } from './results.js';

export interface Setting { label: string; value: string }

const pct = (x: number) => `${+(x * 100).toFixed(2)}%`;

function faultText(f: FaultWindow, horizonS: number): string {
  const open = !Number.isFinite(f.endS);
  const end = open || f.endS >= horizonS ? 'the end' : formatDuration(f.endS);
  return `${f.kind} from ${formatDuration(f.startS)} to ${end}${open ? '' : ` (${formatDuration(f.endS - f.startS)})`}`;
}

function seedsText(seeds: number[]): string {
  if (seeds.length === 0) return '—';
  const contiguous = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  const list = seeds.length === 1 ? `seed ${seeds[0]}` : contiguous ? `seeds ${seeds[0]}–${seeds[seeds.length - 1]}` : `seeds ${seeds.join(', ')}`;
  return `${seeds.length} per variant (${list})`;
}

const flow = (v: unknown) => stringify(v, { collectionStyle: 'flow', lineWidth: 0 }).trim();

export function keySettings(r: Results): Setting[] {
  const out: Setting[] = [];
  out.push({ label: 'horizon', value: `${formatDuration(r.horizonS)} simulated per run, in ${formatDuration(r.bucketS)} buckets` });
  out.push({ label: 'seeds', value: seedsText(r.seeds) });
  if (r.runsPlanned !== null) {
    const failed = r.failedRuns > 0 ? `; ${r.failedRuns} failed` : '';
    out.push({ label: 'runs', value: `${r.runsFinished ?? '?'} of ${r.runsPlanned} finished${failed}` });
  }
  if (r.sweep) out.push({ label: 'sweep', value: r.sweep.parameters.join(' × ') });

  // Faults at the point the charts draw: the first variant's, plus any variant whose windows differ.
  const featured = featuredPoint(r);
  const windows = r.variants.map((v) => atFeatured(v, featured)?.faults ?? v.scenarioFaults);
  const text = (ws: FaultWindow[] | null | undefined) => (ws && ws.length > 0 ? ws.map((f) => faultText(f, r.horizonS)).join('; ') : 'none');
  if (windows.some((w) => w !== null && w !== undefined)) {
    out.push({ label: 'faults', value: text(windows[0]) });
    r.variants.forEach((v, i) => {
      if (i > 0 && text(windows[i]) !== text(windows[0])) out.push({ label: `faults (${v.name})`, value: text(windows[i]) });
    });
  }

  const m = r.measureSettings;
  if (m.holdS !== undefined) {
    const parts = [
      m.successRatioDrop !== undefined ? `success ratio at least the pre-fault ratio minus ${pct(m.successRatioDrop)}` : null,
      m.loadExcess !== undefined ? `offered load at most the pre-fault load × ${+(1 + m.loadExcess).toFixed(4)}` : null,
    ].filter(Boolean);
    out.push({ label: 'recovered when', value: `${parts.join(' and ')}, held for ${formatDuration(m.holdS)}` });
  }
  if (m.perceivedOutageThreshold !== undefined) out.push({ label: 'perceived outage', value: `time with users' success ratio below ${pct(m.perceivedOutageThreshold)}` });
  if (m.warmupS !== undefined) out.push({ label: 'warm-up', value: `${formatDuration(m.warmupS)} left out of the pre-fault baseline` });
  const base = r.variants[0]?.points[0]?.measures.baselineRate;
  if (base !== null && base !== undefined) {
    out.push({ label: 'baseline (1x)', value: `${base.toLocaleString('en-US', { maximumFractionDigits: 1 })} user actions/s${m.baselineRate !== undefined ? ' (declared)' : ' (measured before the first fault)'}` });
  }

  const raw = r.scenarioRaw;
  if (raw && raw.clients && typeof raw.clients === 'object') {
    for (const [name, pop] of Object.entries(raw.clients as Record<string, unknown>)) {
      if (!pop || typeof pop !== 'object') continue;
      const { description: _, ...rest } = pop as Record<string, unknown>;
      out.push({ label: `clients: ${name}`, value: flow(rest) });
    }
  }
  if (raw && raw.server && typeof raw.server === 'object') out.push({ label: 'server', value: flow(raw.server) });
  return out;
}
