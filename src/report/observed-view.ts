/**
 * The fit of each variant to a real incident's observed series (the scenario's observed:
 * block), as rows both summary.md and report.html render: at the compared point, one row per
 * variant and observed series, with the normalised RMSE and, for an observed success ratio,
 * when recovery began observed and simulated. One place for the wording, so both agree.
 */
import type { Results } from '../results/results.js';
import { formatDuration } from '../scenario/units.js';
import { featuredPointIndex } from './cells.js';

export interface FitRow {
  variant: string;
  name: string;
  column: string;
  intervals: number;
  nrmse: string;
  observedAt: string;
  simulatedAt: string;
  difference: string;
}

export const FIT_HEADER = ['variant', 'observed', 'compared with', 'intervals', 'NRMSE', 'recovered (observed)', 'recovered (simulated)', 'simulated − observed'];

export const FIT_NOTE = 'How well each variant matches what was observed: NRMSE is the root-mean-square difference over the intervals both cover, divided by the observed mean (0 is an exact match; 0.1 is off by a tenth of the mean on average), per seed and averaged over seeds. Recovery is read from an observed success ratio by the same rule as the simulated one (the first moment from which the service stayed healthy for the hold); "never" when it did not within the series.';

const at = (s: number | null) => (s === null ? 'never' : `at ${formatDuration(s)}`);
const signed = (s: number | null) => (s === null ? '–' : `${s < 0 ? '−' : s > 0 ? '+' : ''}${formatDuration(Math.abs(s))}`);

export function fitRows(r: Results): FitRow[] {
  if (!r.observed) return [];
  const point = featuredPointIndex(r);
  return r.observed.fits.filter((f) => f.point === point).map((f) => ({
    variant: f.variant,
    name: f.name,
    column: f.column,
    intervals: f.intervals,
    nrmse: f.nrmse.value === null ? '–' : `${f.nrmse.value.toFixed(3)}${f.nrmse.lo !== null && f.nrmse.hi !== null ? ` (${f.nrmse.lo.toFixed(3)}–${f.nrmse.hi.toFixed(3)})` : ''}`,
    observedAt: f.recovery ? at(f.recovery.observedAtS) : '',
    simulatedAt: f.recovery ? (f.recovery.simulatedAtS.value === null ? 'not in every seed' : at(f.recovery.simulatedAtS.value)) : '',
    difference: f.recovery ? signed(f.recovery.differenceS) : '',
  }));
}
