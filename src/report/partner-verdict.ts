/**
 * The verdict for a scenario whose verdict judges no users, only partners held to a contract
 * (story 001): who holds them to it best while serving them up to it, and what the baseline
 * lets through. src/report/verdict.ts hands it the ranked point.
 */
import { formatValue } from '../measures/format.js';
import type { RankingResult, RankingRow, Results } from '../results/results.js';
import { pointLabel } from './cells.js';
import { listWords } from './words.js';

type RankedPoint = RankingResult['points'][number];

/**
 * The sentence when the verdict judges no users, only partners held to a contract (story 001):
 * who holds them to it best while serving them up to it, and what the baseline lets through.
 * "boundary-sliding-log holds partner to its contract of 100 per 1m: 100% of what it was
 * entitled to served, 0% served beyond it, at most 1x its limit in any 1m; per-instance
 * serves 75% beyond it, up to 4.18x its limit."
 */
export function partnerSentence(r: Results, p: RankedPoint): string {
  const partners = r.populations.filter((x) => x.role === 'partner');
  const who = partners.length === 1 ? partners[0].name : listWords(partners.map((x) => x.name));
  const contract = partners.length === 1 && partners[0].contract ? ` of ${partners[0].contract.limit} per ${formatValue('duration', partners[0].contract.windowS)}` : 's';
  const v = (e: RankingRow, key: string) => formatValue('share', e.values[key] ?? null);
  const peak = (e: RankingRow) => formatValue('multiple', e.values.partnerPeakMultiple ?? null);
  const first = p.entries[0];
  const window = partners.length === 1 && partners[0].contract ? formatValue('duration', partners[0].contract.windowS) : 'contract window';
  // "Holds" only when nothing was served beyond the contract (within a point); else the pick comes closest.
  const held = (first.values.partnerExcessShare ?? 1) <= 0.01;
  const verb = held ? 'holds' : 'comes closest to holding';
  const parts = [`${first.variant} ${verb} ${who} to ${partners.length === 1 ? 'its' : 'their'} contract${contract}: ${v(first, 'partnerServedShare')} of what ${partners.length === 1 ? 'it was' : 'they were'} entitled to served, ${v(first, 'partnerExcessShare')} served beyond it, at most ${peak(first)} the limit in any ${window}`];
  const base = p.entries.find((e) => e.variant === r.ranking!.baseline);
  if (base && base !== first) parts.push(`${base.variant} serves ${v(base, 'partnerExcessShare')} beyond it, up to ${peak(base)} the limit, and ${v(base, 'partnerServedShare')} of the entitlement`);
  const label = pointLabel(p.values);
  return `${label ? `At ${label}, ` : ''}${parts.join('; ')}.`;
}
