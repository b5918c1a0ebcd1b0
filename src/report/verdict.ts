/**
 * The verdict in one sentence, generated from the ranking: which variants bring the service
 * back at the compared point and how fast, what the baseline does there (and, when its
 * recovery time ties the winner's, which objective decided between them), and (with a swept
 * outage length) from which length on the baseline no longer recovers. report.html opens with
 * it, summary.md puts it under the question and the terminal prints it, so a reader gets the
 * answer before any table. Every number in it comes from the Results and is formatted by unit.
 */
import { formatValue, seedsText } from '../measures/format.js';
import { clockOf, holdOf, type RankingResult, type RankingRow, type Results } from '../results/results.js';
import { parseDuration } from '../scenario/units.js';
import { DEFAULT_FLOOR_DROP } from '../experiment/ranking.js';
import { FAULT_LENGTH } from '../scenario/sweep.js';
import { atPoint, contendersAt, featuredPointIndex, lastTriggerEnd, objectiveInfo, pointLabel } from './cells.js';
import { listWords } from './words.js';
import { partnerSentence } from './partner-verdict.js';
import { sweepSentence } from './sweep-verdict.js';

type RankedPoint = RankingResult['points'][number];

/** The ranked point the verdict (and the first screen) is about: the compared point, else the featured one. */
export function verdictPoint(r: Results): RankedPoint | null {
  const k = r.ranking;
  if (!k || k.points.length === 0) return null;
  const featured = featuredPointIndex(r);
  return k.points.find((p) => p.point === featured) ?? k.points[0];
}

/** 720 s → "12-minute", 90 s → "90-second", 3600 s → "1-hour"; null when it is not a whole number of one unit. */
function durationWords(s: number): string | null {
  if (s > 0 && s % 3600 === 0) return `${s / 3600}-hour`;
  if (s > 0 && s % 60 === 0) return `${s / 60}-minute`;
  if (s > 0 && Number.isInteger(s)) return `${s}-second`;
  return null;
}


/** "At a 12-minute outage" for a swept fault length, else "At faults[0].duration = 12m", or "After the fault" without a sweep. */
function pointPhrase(r: Results, p: RankedPoint): string {
  const entries = Object.entries(p.values);
  if (entries.length === 1) {
    const [param, value] = entries[0];
    const m = FAULT_LENGTH.exec(param);
    const d = parseDuration(value);
    const words = m && d.ok ? durationWords(d.value) : null;
    if (m && words) {
      const kind = r.variants.map((v) => atPoint(v, p.point)?.faults[Number(m[1])]?.kind).find((k) => k !== undefined) ?? '';
      return `At a ${words} ${/down|outage/.test(kind) ? 'outage' : 'fault'}`;
    }
  }
  const label = pointLabel(p.values);
  return label ? `At ${label}` : 'After the fault';
}

const fullyRecovered = (e: RankingRow) => e.healthyBefore && (e.values.recovered ?? 0) >= 1 && e.values.recoveryTimeS !== null && e.values.recoveryTimeS !== undefined;

/** Whether the variant had a fault at the point: one without (a control) "recovers" in 0 s by definition, which is no answer. */
const hadFault = (r: Results, e: RankingRow, point: number) => lastTriggerEnd(r, e.variant, point) !== null;

/** How long after the last trigger a run could still have recovered: the horizon minus the trigger's end. */
function windowAfterFault(r: Results, variant: string, point: number): number | null {
  const end = lastTriggerEnd(r, variant, point);
  const { horizonS } = clockOf(r, r.variants.find((x) => x.name === variant));
  // A fault that lasts to the horizon leaves no window: "within 0s" would read as a claim.
  return end === null || end >= horizonS ? null : horizonS - end;
}

/** Whether the variant's last trigger is still on when its run ends: recovery is then judged while it goes on (users restored during it). */
function faultOutlastsRun(r: Results, variant: string, point: number): boolean {
  const end = lastTriggerEnd(r, variant, point);
  return end !== null && end >= clockOf(r, r.variants.find((x) => x.name === variant)).horizonS;
}

/** "is not restored while the fault goes on (to the end of the run, 4h)": what not recovering means when the fault outlasts the run. */
function notRestoredText(r: Results, variant: string): string {
  return `is not restored while the fault goes on (to the end of the run, ${formatValue('duration', clockOf(r, r.variants.find((x) => x.name === variant)).horizonS)})`;
}

/**
 * Why a run could not show recovery: the window after its fault is shorter than the hold a
 * recovery must last ("the run ends 1m after the fault, less than the 5m hold a recovery must
 * last"), and its users were not restored while the fault was on. Without it, such a variant
 * read "does not recover within 1m", a metastable failure, of a service the run never
 * watched for long enough after the fault. Null when the window holds the hold, and when the
 * fault outlasts the run (recovery is then judged while it goes on: see notRestoredText).
 */
function tooShortToJudge(r: Results, variant: string, point: number): string | null {
  const v = r.variants.find((x) => x.name === variant);
  if (faultOutlastsRun(r, variant, point)) return null;
  const w = windowAfterFault(r, variant, point);
  const hold = holdOf(r, v);
  if (w === null || hold === undefined || w >= hold) return null;
  return `the run ends ${formatValue('duration', w)} after the fault, less than the ${formatValue('duration', hold)} hold a recovery must last (lengthen the horizon)`;
}

function timeRange(xs: number[]): string {
  const lo = Math.min(...xs), hi = Math.max(...xs);
  const a = formatValue('duration', lo), b = formatValue('duration', hi);
  return a === b ? a : `${a}–${b}`;
}

/** The winners' values of a measure against another variant's, by unit: "5.08x against 7.51x". */
function againstText(r: Results, key: string, winners: RankingRow[], e: RankingRow): string {
  const unit = objectiveInfo(r, key)?.unit ?? 'number';
  const xs = winners.map((w) => w.values[key]).filter((x): x is number => x !== null && x !== undefined);
  const lo = xs.length ? formatValue(unit, Math.min(...xs)) : '—', hi = xs.length ? formatValue(unit, Math.max(...xs)) : '—';
  return `${lo === hi ? lo : `${lo}–${hi}`} against ${formatValue(unit, e.values[key] ?? null)}`;
}

const labelOf = (r: Results, key: string) => objectiveInfo(r, key)?.label ?? key;

/** "peak load (5.08x against 7.51x) and wasted work share (2% against 9%)": objectives with the two sides' values, `mine` first. */
function objectivesText(r: Results, keys: readonly string[], mine: RankingRow[], theirs: RankingRow): string {
  return listWords(keys.map((k) => `${labelOf(r, k)} (${againstText(r, k, mine, theirs)})`), 3);
}

/**
 * A baseline that recovers in every seed but ranks below the winners on other objectives
 * than recovery time: its time, and on what it is worse ("as-is takes 54s too: a tie on
 * recovery time, decided by peak load (5.08x against 7.51x)"). Null when recovery time itself
 * decided, or when nothing did (a shared rank).
 */
function tieClause(r: Results, winners: RankingRow[], e: RankingRow): string | null {
  const k = r.ranking!;
  if (winners.length === 0 || !fullyRecovered(e) || winners.includes(e)) return null;
  const { worseOn } = e.versusFirst;
  if (worseOn.length === 0 || worseOn.includes('recoveryTimeS') || worseOn.includes('recovered')) return null;
  const rt = formatValue('duration', e.values.recoveryTimeS!);
  const decided = objectivesText(r, worseOn, winners, e);
  if (!k.objectives.includes('recoveryTimeS')) return `${e.variant} takes ${rt}, but ranks below on ${decided}`;
  const same = timeRange(winners.map((w) => w.values.recoveryTimeS!)) === rt;
  const better = e.versusFirst.betterOn.includes('recoveryTimeS');
  if (better) return `${e.variant} takes ${rt}, sooner, but ranks below on ${decided}`;
  return `${e.variant} takes ${rt}${same ? ' too' : ''}: a tie on recovery time, decided by ${decided}`;
}

/**
 * The trade-off between the pick and the best-ranked variant that beats it on something users
 * feel ("client-ceiling is better on recovery time (2m31s against 2m47s); all-defences on
 * perceived outage (12m against 15m), peak load (4.58x against 7.62x) and new users served
 * (98% against 51%)"); or, when that advantage is beyond the tie tolerance on average but
 * within seed noise, said as such ("client-ceiling is back sooner on average on recovery time
 * (2m31s against 2m47s), within seed noise over 3 seeds"). Null when no variant of the pick's
 * gate beats it on anything users feel (a cost alone is no trade-off), or when that variant is
 * `except` (the baseline, whose clause says it).
 */
function tradeOffClause(r: Results, p: RankedPoint, first: RankingRow, except: string | undefined): string | null {
  const felt = (key: string) => objectiveInfo(r, key)?.cost === false;
  const eligible = (e: RankingRow) => e !== first && e.variant !== except && e.floorsBroken.length === 0 && e.healthyBefore;
  const rival = p.entries.find((e) => eligible(e) && e.versusFirst.betterOn.some(felt) && e.versusFirst.worseOn.length > 0);
  if (rival) {
    const mine = objectivesText(r, rival.versusFirst.betterOn, [rival], first);
    const theirs = objectivesText(r, rival.versusFirst.worseOn, [first], rival);
    const unsure = rival.versusFirst.betterWithinNoiseOn.filter(felt);
    const noise = unsure.length > 0 ? `, and on average on ${objectivesText(r, unsure, [rival], first)} within seed noise over ${p.pairedSeeds} seeds` : '';
    return `${rival.variant} is better on ${mine}${noise}; ${first.variant} on ${theirs}`;
  }
  const near = p.entries.find((e) => eligible(e) && e.versusFirst.betterWithinNoiseOn.some(felt));
  if (!near) return null;
  const mine = objectivesText(r, near.versusFirst.betterWithinNoiseOn.filter(felt), [near], first);
  const theirs = near.versusFirst.worseOn.length > 0 ? `; ${first.variant} is better on ${objectivesText(r, near.versusFirst.worseOn, [first], near)}` : '';
  return `${near.variant} is better on average on ${mine}, but within seed noise over ${p.pairedSeeds} seeds${theirs}`;
}

/** Variants set below a floor: "starving is below a floor: signup's success before the fault is 33% (floor 97%, 3 points under the baseline's)". */
function floorClause(r: Results, p: RankedPoint): string | null {
  const below = p.entries.filter((e) => e.floorsBroken.length > 0);
  if (below.length === 0) return null;
  const one = (e: RankingRow) => {
    const f = e.floorsBroken[0];
    const unit = r.measures.find((m) => m.key === f.measure)?.unit ?? 'number';
    const bound = `${f.kind === 'atLeast' ? 'floor' : 'ceiling'} ${formatValue(unit, f.limit)}${f.byDefault ? `, ${Math.round(DEFAULT_FLOOR_DROP * 100)} points under ${r.ranking!.baseline}'s` : ''}`;
    return `${e.variant} sacrifices ${f.population} (${labelOf(r, f.measure)} ${formatValue(unit, f.value)}; ${bound})`;
  };
  const said = below.slice(0, 2).map(one);
  const more = below.length > 2 ? ` and ${below.length - 2} more are below a floor` : '';
  return `${listWords(said, 2)}${more}, so ${below.length > 1 ? 'they rank' : 'it ranks'} below every variant healthy before the fault that meets its floors`;
}

/** What the baseline does at the point, in a clause ("as-is does not recover within 3h28m"). */
function baselineClause(r: Results, p: RankedPoint, e: RankingRow, winners: RankingRow[] = []): string {
  if (!e.healthyBefore) return `${e.variant} is already unhealthy before the fault`;
  const frac = e.values.recovered ?? null;
  const rt = e.values.recoveryTimeS ?? null;
  if (frac !== null && frac > 0 && frac < 1 && e.runs > 1) return `${e.variant} recovers in only ${seedsText(frac, e.runs)}`;
  if (rt === null || frac === 0) {
    if (faultOutlastsRun(r, e.variant, p.point)) return `${e.variant} ${notRestoredText(r, e.variant)}`;
    const short = tooShortToJudge(r, e.variant, p.point);
    if (short !== null) return `${e.variant}'s recovery cannot be judged: ${short}`;
    const w = windowAfterFault(r, e.variant, p.point);
    return `${e.variant} does not recover${w === null ? ' before the run ends' : ` within ${formatValue('duration', w)}`}`;
  }
  return tieClause(r, winners, e) ?? `${e.variant} takes ${formatValue('duration', rt)}`;
}

/** With a swept duration: where the baseline stops recovering ("it stops recovering between 6m and 8m of outage"). */
function cliffClause(r: Results, e: RankingRow): string | null {
  const k = r.ranking!;
  const param = k.longestRecoveredParameter;
  if (!param || !r.sweep) return null;
  const seconds = (x: string | number) => { const d = parseDuration(x); return d.ok ? d.value : NaN; };
  const swept = [...new Set(r.sweep.points.map((p) => p.values[param]).filter((x) => x !== undefined))].sort((a, b) => seconds(a) - seconds(b));
  if (swept.length < 2) return null;
  const noun = FAULT_LENGTH.test(param) ? ' of outage' : '';
  const L = e.longestRecovered ?? null;
  if (L === null) {
    // "Up to" is a threshold: a variant that fails at the shortest length but recovers at a longer one has none.
    const v = r.variants.find((x) => x.name === e.variant);
    const somewhere = v?.points.some((p) => p.runs > 0 && (p.measures.recovered?.value ?? 0) >= 1) ?? false;
    return somewhere ? `does not recover in every seed even from the shortest swept length, ${swept[0]}` : `recovers from none of the swept lengths, not even ${swept[0]}`;
  }
  const i = swept.findIndex((x) => String(x) === String(L));
  if (i === swept.length - 1) return `recovers from every swept length up to ${L}`;
  return `stops recovering between ${L} and ${swept[i + 1]}${noun}`;
}

/**
 * What the sentence says when no variant recovered in every seed: the one that came closest;
 * that none restored its users while a fault that outlasts the run went on; that recovery
 * could not be judged, when no variant's run lasted a hold after its fault (one that did and
 * stayed down says the rest); or that none brought the service back.
 */
function noWinnerClause(r: Results, p: RankedPoint, contenders: RankingRow[]): string {
  const top = contenders[0];
  if (contenders.every((e) => !e.healthyBefore)) return `every variant is already unhealthy before the fault`;
  if (contenders.some((e) => e.healthyBefore && (e.values.recovered ?? 0) > 0)) {
    return `no variant recovers in every seed; ${top.variant} comes closest (${seedsText(top.values.recovered ?? 0, top.runs)})`;
  }
  if (contenders.every((e) => faultOutlastsRun(r, e.variant, p.point))) {
    return `no variant's users are restored while the fault goes on (to the end of the run, ${formatValue('duration', clockOf(r, r.variants.find((x) => x.name === top.variant)).horizonS)})`;
  }
  const short = contenders.map((e) => tooShortToJudge(r, e.variant, p.point));
  if (short.every((x) => x !== null)) return `recovery cannot be judged: ${short[0]}`;
  // The window said is that of a variant that was watched long enough; one that was not is named apart.
  const judged = contenders.find((_, i) => short[i] === null)!;
  const w = windowAfterFault(r, judged.variant, p.point);
  const unjudged = contenders.filter((_, i) => short[i] !== null);
  const aside = unjudged.length > 0 ? ` (${unjudged[0].variant}'s recovery cannot be judged: ${short[contenders.indexOf(unjudged[0])]})` : '';
  return `no variant brings the service back${w === null ? ' before the run ends' : ` within ${formatValue('duration', w)}`}${aside}`;
}

/**
 * The sentence: "At a 12-minute outage, all-defences and client-ceiling bring the service back
 * in 3m; as-is does not recover within 3h28m, and it stops recovering between 6m and 8m of
 * outage." Null without a ranking.
 */
export function verdictSentence(r: Results): string | null {
  const p = verdictPoint(r);
  if (!p) return null;
  if (r.subject.length === 0) return partnerSentence(r, p);
  const k = r.ranking!;
  const parts: string[] = [];
  // The winners are among the variants that had a fault; a control without one ranks first on
  // a recovery of 0 s by definition ("healthy brings the service back in 0s" answered nothing).
  const controls = p.entries.filter((e) => !hadFault(r, e, p.point));
  const picked = contendersAt(r, p.entries, p.point);
  const contenders = controls.length > 0 && picked.length < p.entries.length ? picked : p.entries;
  const best = contenders.filter((e) => e.rank === contenders[0].rank && fullyRecovered(e));
  const winners = best.map((e) => e.variant);
  if (best.length > 0) {
    parts.push(`${listWords(winners)} ${winners.length > 1 ? 'bring' : 'brings'} the service back in ${timeRange(best.map((e) => e.values.recoveryTimeS!))}`);
  } else {
    parts.push(noWinnerClause(r, p, contenders));
  }
  const base = p.entries.find((e) => e.variant === k.baseline);
  // A baseline without a fault has nothing to compare: it is among the controls said below.
  if (base && !(contenders !== p.entries && controls.includes(base))) {
    const cliff = cliffClause(r, base);
    // Already said: the baseline is a winner, or nothing recovered at all.
    const said = winners.includes(base.variant) || (best.length === 0 && (base.values.recovered ?? 0) === 0 && base.healthyBefore)
      || (best.length === 0 && contenders.every((e) => !e.healthyBefore));
    if (!said) parts.push(baselineClause(r, p, base, best) + (cliff ? `, and it ${cliff}` : ''));
    else if (cliff) parts.push(`${base.variant} ${cliff}`);
  }
  if (best.length > 0) {
    const trade = tradeOffClause(r, p, best[0], base?.variant);
    if (trade) parts.splice(1, 0, trade);
  }
  const floors = floorClause(r, p);
  if (floors) parts.push(floors);
  if (contenders !== p.entries) parts.push(`${listWords(controls.map((e) => e.variant))} had no fault to recover from`);
  return `${pointPhrase(r, p)}, ${parts.join('; ')}.`;
}

/** The verdict as the writers print it: the sentence at the compared point, then, with a sweep, the one across it. */
export function verdictText(r: Results): string | null {
  const one = verdictSentence(r);
  if (one === null) return null;
  const across = sweepSentence(r);
  return across ? `${one} ${across}` : one;
}
