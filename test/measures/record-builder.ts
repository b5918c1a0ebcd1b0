// Hand-built RunRecords whose measures can be worked out on paper: per-population bucket
// counters (the run's totals are kept equal to their sums, as the recorder does) and the
// verdict's per-second series, for the measure tests.
import { FAILURE_CAUSES, POPULATION_COUNTERS, type FaultWindow, type PartnerContract, type PopulationSeries, type RunRecord } from '../../src/model/series.js';
import type { Role } from '../../src/scenario/schema-clients.js';
import { LatencyHistogram } from '../../src/model/latency-histogram.js';

export interface PopulationSpec {
  name?: string;
  route?: number;
  /** Default: user, or attacker when `legitimate` is false (partner when `partner` is given). */
  role?: Role;
  legitimate?: boolean;
  subject?: boolean;
  /** A partner's contract: makes the population a partner the verdict judges. */
  partner?: PartnerContract;
}

export function makeRecord(horizonS: number, faults: FaultWindow[], bucketS = 10, populations: PopulationSpec[] = [{}]): RunRecord {
  const n = Math.max(0, Math.ceil(horizonS / bucketS - 1e-9));
  const z = () => new Float64Array(n);
  const pop = (): PopulationSeries => ({
    attempts: z(), firstTries: z(), retries: z(), futileRetries: z(), attemptsOk: z(), firstTriesOk: z(),
    failures: FAILURE_CAUSES.map(() => z()),
    actionsStarted: z(), actionsOk: z(), actionsFailed: z(), actionsAbandoned: z(), deadLettered: z(), peopleLeft: z(), actionsStayedAway: z(), journeysStarted: z(), journeysCompleted: z(), journeysFailed: z(), journeyTimeS: z(),
  });
  const cells = Math.max(1, Math.ceil(horizonS));
  const routes = Math.max(1, ...populations.map((p) => (p.route ?? 0) + 1));
  return {
    horizonS,
    series: {
      bucketS, n,
      attempts: z(), firstTries: z(), retries: z(), futileRetries: z(), attemptsOk: z(), firstTriesOk: z(),
      detectedRetries: z(), detectionFalsePositives: z(),
      failures: FAILURE_CAUSES.map(() => z()),
      actionsStarted: z(), actionsOk: z(), actionsFailed: z(), actionsAbandoned: z(), deadLettered: z(), peopleLeft: z(), actionsStayedAway: z(), journeysStarted: z(), journeysCompleted: z(), journeysFailed: z(), journeyTimeS: z(),
      queueLen: z(), busySlots: z(), slots: z(), latencyP50S: z(), latencyP99S: z(), actionLatencyP50S: z(), actionLatencyP99S: z(),
      routeActionsOk: Array.from({ length: routes }, z), routeActionsFailed: Array.from({ length: routes }, z),
      dependencyCalls: [], dependencyRefused: [], workS: z(), wastedWorkS: z(), lostAttempts: z(),
      populations: populations.map(pop),
    },
    fine: { cellS: 1, n: cells, actionsOk: new Float64Array(cells), actionsEnded: new Float64Array(cells), attempts: new Float64Array(cells), firstTries: new Float64Array(cells), firstTriesOk: new Float64Array(cells) },
    faults,
    attemptsPerAction: [0],
    attemptsPerActionByPopulation: populations.map(() => [0]),
    routes: Array.from({ length: routes }, (_, i) => (i === 0 ? 'default' : `route${i}`)),
    populations: populations.map((p, i) => {
      const role: Role = p.role ?? (p.partner ? 'partner' : p.legitimate === false ? 'attacker' : 'user');
      const legitimate = p.legitimate ?? (role === 'user' || role === 'internal');
      return { name: p.name ?? `pop${i}`, route: p.route ?? 0, role, legitimate, subject: p.subject ?? legitimate, partner: p.partner ?? null };
    }),
    quotas: [],
    actions: [],
    totals: { actionsStarted: 0, actionsOk: 0, actionsFailed: 0, attempts: 0, served: 0, queueWaitS: 0, workS: 0, wastedWorkS: 0, capacityS: 0, eventsProcessed: 0, fingerprintPeakEntries: 0, lostAttempts: 0 },
    actionTimes: populations.map(() => ({ ended: 0, timeS: 0 })),
    latency: populations.map(() => ({ actions: new LatencyHistogram(), attempts: new LatencyHistogram() })),
  };
}

export interface Bucket {
  started?: number;
  attempts?: number;
  retries?: number;
  ok?: number;
  /** Attempts answered with success (default: not set). */
  attemptsOk?: number;
  failed?: number;
  firstTries?: number;
  firstTriesOk?: number;
  abandoned?: number;
  deadLettered?: number;
}

const FIELDS: Array<[keyof Bucket, (typeof POPULATION_COUNTERS)[number]]> = [
  ['started', 'actionsStarted'], ['attempts', 'attempts'], ['retries', 'retries'], ['ok', 'actionsOk'], ['attemptsOk', 'attemptsOk'], ['failed', 'actionsFailed'],
  ['firstTries', 'firstTries'], ['firstTriesOk', 'firstTriesOk'], ['abandoned', 'actionsAbandoned'], ['deadLettered', 'deadLettered'],
];

/** Sets buckets [from, to) of population `pop` and keeps the run's totals equal to the populations' sums. */
export function set(r: RunRecord, from: number, to: number, b: Bucket, pop = 0): void {
  const s = r.series;
  for (let i = from; i < to; i++) {
    for (const [field, key] of FIELDS) if (b[field] !== undefined) s.populations[pop][key][i] = b[field]!;
  }
  for (const [, key] of FIELDS) for (let i = from; i < to; i++) s[key][i] = s.populations.reduce((a, p) => a + p[key][i], 0);
  // The verdict's users' first tries per second (new users served reads them): each bucket's
  // count of the subject populations, spread evenly over its seconds.
  for (const key of ['firstTries', 'firstTriesOk'] as const) {
    for (let i = from; i < to; i++) {
      const perS = s.populations.reduce((a, p, k) => a + (r.populations[k].subject ? p[key][i] : 0), 0) / s.bucketS;
      for (let t = i * s.bucketS; t < Math.min((i + 1) * s.bucketS, r.fine.n); t++) r.fine[key][t] = perS;
    }
  }
}

export interface PerSecond {
  attempts: number;
  ok: number;
  failed: number;
  /** Actions started per second (default: as many as attempts). */
  started?: number;
}

const startedPerSecond = new WeakMap<RunRecord, Float64Array>();

/**
 * Sets seconds [fromS, toS) of the verdict's per-second series, and rebuilds the buckets of
 * population 0 (attempts, actions started, succeeded, failed) from the seconds, so the
 * baseline (read from buckets) and recovery (read per second) see the same run.
 */
export function setSeconds(r: RunRecord, fromS: number, toS: number, x: PerSecond): void {
  const f = r.fine;
  let started = startedPerSecond.get(r);
  if (!started) startedPerSecond.set(r, (started = new Float64Array(f.n)));
  for (let t = fromS; t < toS; t++) {
    f.attempts[t] = x.attempts;
    f.actionsOk[t] = x.ok;
    f.actionsEnded[t] = x.ok + x.failed;
    started[t] = x.started ?? x.attempts;
  }
  const s = r.series;
  const p = s.populations[0];
  for (let i = Math.floor(fromS / s.bucketS); i <= Math.min(s.n - 1, Math.floor((toS - 1) / s.bucketS)); i++) {
    let a = 0, ok = 0, ended = 0, st = 0;
    for (let t = i * s.bucketS; t < Math.min((i + 1) * s.bucketS, f.n); t++) { a += f.attempts[t]; ok += f.actionsOk[t]; ended += f.actionsEnded[t]; st += started[t]; }
    p.attempts[i] = s.attempts[i] = a;
    p.actionsOk[i] = s.actionsOk[i] = ok;
    p.actionsFailed[i] = s.actionsFailed[i] = ended - ok;
    p.actionsStarted[i] = s.actionsStarted[i] = st;
  }
}
