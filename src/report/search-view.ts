/**
 * How a cliff search reads, for the terminal and summary.md alike: one sentence per variant
 * ("survives outages up to 6m10s (95%: 5m20s–6m50s), 84 runs") and the probability of
 * recovering at each tried value with its Wilson interval. One place for these words, so the
 * terminal and the Markdown never say a tipping point two ways.
 */
import { contradictions, type SearchResults, type VariantSearchResult } from '../results/search.js';
import { valueText } from '../scenario/search-apply.js';
import { FAULT_LENGTH } from '../scenario/sweep.js';


/** A value of the searched parameter as people read it: "6m10s", "12.5/s", 0.75. */
export function searchValueText(s: SearchResults, n: number): string {
  return valueText(s.kind, n);
}

/** A probability as a whole percentage. */
const percent = (p: number) => `${Math.round(p * 100)}%`;

/** "at least 50% of runs recover" in a sentence, when the level is not the default one. */
function levelNote(s: SearchResults): string {
  return s.level === 0.5 ? '' : ` (at least ${percent(s.level)} of runs recovering)`;
}

/** The sentence for one variant's tipping point. */
export function tippingSentence(s: SearchResults, v: VariantSearchResult): string {
  const t = (n: number) => searchValueText(s, n);
  const outage = FAULT_LENGTH.test(s.parameter) && v.direction === 'falling';
  const runs = `${v.runs} runs`;
  // A side no tried value bounds yet (the budget ended first) is said as beyond the range's end.
  const interval = v.lo !== null && v.hi !== null
    ? ` (95%: ${t(v.lo)}–${t(v.hi)})`
    : ` (95%: from ${v.lo !== null ? t(v.lo) : `below ${t(s.from)}`} to ${v.hi !== null ? t(v.hi) : `above ${t(s.to)}`})`;
  let head: string;
  if (v.crossing === 'above-range') {
    head = v.direction === 'falling'
      ? outage ? `survives outages beyond ${t(s.to)}, the longest searched` : `recovers at every ${s.parameter} up to ${t(s.to)}, the largest searched`
      : `does not recover even at ${s.parameter} = ${t(s.to)}, the largest searched`;
  } else if (v.crossing === 'below-range') {
    head = v.direction === 'falling'
      ? outage ? `does not survive outages of ${t(s.from)}, the shortest searched` : `does not recover even at ${s.parameter} = ${t(s.from)}, the smallest searched`
      : `recovers at every ${s.parameter} from ${t(s.from)}, the smallest searched`;
  } else if (v.estimate === null) {
    head = `has no tipping point found${interval}: the monotone fit of the tried values never crosses ${percent(s.level)}`;
  } else {
    const at = t(v.estimate);
    head = v.direction === 'falling'
      ? outage ? `survives outages up to ${at}${interval}` : `recovers up to ${s.parameter} = ${at}${interval}`
      : `recovers from ${s.parameter} = ${at}${interval}`;
  }
  const short = v.crossing === 'within' && v.stoppedBy !== 'precision'
    ? `; the ${v.stoppedBy === 'budget' ? 'budget' : 'value resolution'} ran out before the precision asked (${t(s.precision)})`
    : '';
  const against = contradictions(s, v);
  const odd = against.length === 0 ? ''
    : `; ${against.map((x) => `${t(x.value)} (${x.recovered} of ${x.runs} recovered)`).join(', ')} ${against.length === 1 ? 'goes' : 'go'} against a monotone curve: the tipping point may be wrong, see the tried values`;
  return `${head}${levelNote(s)}, ${runs}${short}${odd}`;
}

/** The header line above the sentences. */
export function searchHeading(s: SearchResults): string {
  return `Tipping point of ${s.parameter} (where the probability of recovering within the hold crosses ${percent(s.level)}), searched from ${searchValueText(s, s.from)} to ${searchValueText(s, s.to)}:`;
}

/** Rows of the tried values: value, k/n recovered, the probability's Wilson 95% interval. */
export function triedRows(s: SearchResults, v: VariantSearchResult): string[][] {
  return v.tried.map((t) => [searchValueText(s, t.value), `${t.recovered}/${t.runs}`, `${percent(t.recovered / t.runs)} (${percent(t.lo)}–${percent(t.hi)})`]);
}

export const TRIED_HEADER = ['value', 'recovered', 'probability (95%)'];

/** The search for the terminal: the heading, a sentence per variant and, unless brief, the tried values. */
export function searchText(s: SearchResults, brief = false): string {
  const width = Math.max(...s.variants.map((v) => v.variant.length));
  const lines = [searchHeading(s)];
  for (const v of s.variants) {
    lines.push(`  ${v.variant.padEnd(width)}  ${tippingSentence(s, v)}`);
    if (brief) continue;
    const rows = [TRIED_HEADER, ...triedRows(s, v)];
    const widths = TRIED_HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) lines.push(`      ${r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()}`);
  }
  return lines.join('\n');
}
