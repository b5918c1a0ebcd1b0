/**
 * Checks that need more than one field at a time, or arithmetic the schema cannot say:
 * a fault after the horizon, a ramp that ends before it starts, a run so large it would
 * exhaust memory or patience. They run after the schema accepted the file, on each
 * variant's merged scenario.
 */
import { subjectOf } from './subject.js';
import type { Scenario, Distribution, Arrivals, Behaviour } from './schema.js';
import { LIMITS, formatCount } from './limits.js';
import { formatDuration } from './units.js';
import type { SemanticProblem } from './semantic-problem.js';
import { validateDistribution, distributionMean } from '../engine/distributions.js';
import { toDistributionSpec } from './distribution-spec.js';
import { meanRate, populationRates } from './arrival-profile.js';
import { fairQueueCodelProblems, fairQueueProblems } from './semantics-fair-queue.js';
import { actionProblems, partialFaultProblems, retryBreakerProblems } from './semantics-incidents.js';

export type { SemanticProblem } from './semantic-problem.js';

export function semanticProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const horizon = s.horizon;
  if (horizon <= 0) out.push({ path: ['horizon'], message: 'the horizon must be longer than 0s' });
  if (horizon > LIMITS.horizonS) {
    out.push({ path: ['horizon'], message: `a horizon of ${formatDuration(horizon)} is beyond the limit of ${formatDuration(LIMITS.horizonS)}; simulate a shorter window` });
  }

  // Every distribution the model will sample, where it is written: one that validate passes
  // must not fail every run when it is first drawn.
  checkServerDistributions(s.server, ['server'], out);
  for (const [name, svc] of Object.entries(s.services ?? {})) checkServerDistributions(svc, ['services', name], out);
  s.faults.forEach((f, i) => {
    if (f.kind === 'latency' && f.add) checkDistribution(f.add, ['faults', i, 'add'], out);
  });
  out.push(...fairQueueProblems(s), ...fairQueueCodelProblems(s));

  let expectedActions = 0;
  /** Per population, in scenario order: the actions it is expected to start (surges included). */
  const actionsOf: number[] = [];
  const rates = populationRates(s.clients, horizon);
  for (const [name, pop] of Object.entries(s.clients)) {
    const before = expectedActions;
    checkArrivals(pop.arrivals, ['clients', name, 'arrivals'], out);
    // Hedges are attempts: only the layer that sends attempts can hedge.
    const layerNames = Object.keys(pop.layers ?? {});
    layerNames.slice(0, -1).forEach((l) => {
      if (pop.layers![l].hedge) out.push({ path: ['clients', name, 'layers', l, 'hedge'], message: `only the innermost layer (here "${layerNames.at(-1)}", the one that sends attempts) can hedge: move hedge there` });
    });
    checkOffline(pop.behaviour?.offline, s.faults.length, ['clients', name, 'behaviour', 'offline'], out);
    const leave = pop.behaviour?.leave;
    if (leave) checkDistribution(leave.comeBackAfter, ['clients', name, 'behaviour', 'leave', 'comeBackAfter'], out);
    if (pop.peopleOf !== undefined) checkPeopleOf(s, name, pop.peopleOf, out);
    if (pop.arrivals.kind === 'after') checkStep(s, name, pop.arrivals.population, out);
    const rate = rates.get(name)!;
    if (Number.isFinite(rate)) expectedActions += rate * horizon; // not finite: a think time of mean 0, reported above
    // A surge adds (factor - 1) x the usual rate over its window; one to an absolute rate, at most that rate.
    for (const f of s.faults) {
      if (f.kind !== 'surge' || (f.population !== undefined && f.population !== name)) continue;
      const within = Math.max(0, Math.min(f.duration, horizon - f.at));
      expectedActions += (f.rate !== undefined ? f.rate : (f.factor! - 1) * meanRate(pop.arrivals, horizon)) * within;
    }
    actionsOf.push(Number.isFinite(rate) ? expectedActions - before : Infinity);
  }
  out.push(...silentSubjectProblems(s, actionsOf));
  // A horizon beyond the limit is reported above; the action count would only repeat it.
  if (horizon <= LIMITS.horizonS && expectedActions > LIMITS.actionsPerRun) {
    out.push({
      path: ['clients'],
      message: `this run would simulate about ${expectedActions.toExponential(1)} user actions, above the limit of ${LIMITS.actionsPerRun.toExponential(0)}; lower the rates or the horizon`,
    });
  }

  s.faults.forEach((f, i) => {
    if (f.at >= horizon) out.push({ path: ['faults', i, 'at'], message: `the fault starts at ${formatDuration(f.at)}, at or after the horizon (${formatDuration(horizon)})` });
    if (f.duration <= 0 && f.kind !== 'crash') out.push({ path: ['faults', i, 'duration'], message: 'a fault must last longer than 0s' });
    if (f.kind === 'capacity-cut' && f.slots > s.server.slots) {
      out.push({ path: ['faults', i, 'slots'], message: `a cut leaves at most the server's ${s.server.slots} slots (got ${f.slots})` });
    }
    // Own keys only: a population named "valueOf" is not the mapping's inherited function.
    const surged = f.kind === 'surge' && f.population !== undefined && Object.hasOwn(s.clients, f.population) ? s.clients[f.population] : undefined;
    if (f.kind === 'surge' && surged?.arrivals.kind === 'closed') {
      out.push({ path: ['faults', i, 'population'], message: `"${f.population}" is a closed population (arrivals kind closed): its load follows its users, a surge cannot reach it; surge an open population, or add users` });
    }
    if (f.kind === 'surge' && f.population !== undefined && surged === undefined) {
      out.push({ path: ['faults', i, 'population'], message: `no client population "${f.population}" (the populations are: ${Object.keys(s.clients).join(', ')}); leave it out to surge every population` });
    }
  });

  out.push(...actionProblems(s), ...partialFaultProblems(s), ...retryBreakerProblems(s));

  const bucket = s.measures.bucket;
  if (bucket !== undefined) {
    if (bucket <= 0) out.push({ path: ['measures', 'bucket'], message: 'a bucket must be longer than 0s' });
    else if (horizon / bucket > LIMITS.buckets) {
      out.push({ path: ['measures', 'bucket'], message: `${formatCount(Math.ceil(horizon / bucket))} buckets over the horizon is above the limit of ${formatCount(LIMITS.buckets)} per run; use a bucket of at least ${formatDuration(horizon / LIMITS.buckets)}` });
    }
  }
  out.push(...measureWindowProblems(s), ...contractBucketProblems(s), ...minMaxProblems(s), ...guardReserveProblems(s));
  return out;
}

/**
 * A guard's reserves are shares of its budget held for their routes (src/model/server/
 * dependencies.ts): together they can hold at most the whole budget. Above it, the routes
 * without a reserve could never call, and no reserved route would be sure of its share.
 */
function guardReserveProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  for (const [name, dep] of Object.entries(s.server.dependencies ?? {})) {
    const reserve = dep.guard?.reserve ?? {};
    const total = Object.values(reserve).reduce((a, b) => a + b, 0);
    // A little slack for shares written in decimals (0.1 + 0.2 is not 0.3 in binary).
    if (total > 1 + 1e-9) {
      const shares = Object.entries(reserve).map(([r, x]) => `${r} ${x}`).join(', ');
      out.push({ path: ['server', 'dependencies', name, 'guard', 'reserve'], message: `the reserves add up to ${+total.toFixed(6)} of the budget (${shares}); they hold shares of one budget, so together at most 1: lower them` });
    }
  }
  return out;
}

/**
 * The partner measures count a contract's window in whole buckets (src/measures/partner.ts).
 * A bucket the scenario sets that is longer than the window, or does not divide it, would
 * read a different contract than the one written: 100 a minute in 45 s buckets is judged
 * over 45 s or 90 s. (With the automatic bucket the window is rounded, as docs/measures.md says.)
 */
function contractBucketProblems(s: Scenario): SemanticProblem[] {
  const bucket = s.measures.bucket;
  if (bucket === undefined || !(bucket > 0)) return [];
  const out: SemanticProblem[] = [];
  for (const [name, pop] of Object.entries(s.clients)) {
    const w = pop.contract?.window;
    if (w === undefined) continue;
    const k = w / bucket;
    if (k >= 1 && Math.abs(k - Math.round(k)) < 1e-9) continue;
    out.push({
      path: ['clients', name, 'contract', 'window'],
      message: `the partner measures count the contract's window in whole buckets, and ${formatDuration(w)} is ${k < 1 ? 'shorter than' : 'not a whole number of'} the ${formatDuration(bucket)} buckets (measures.bucket): set measures.bucket to a divisor of ${formatDuration(w)}, a tenth of it or less (e.g. ${formatDuration(w / 10 >= 1 ? Math.floor(w / 10) : w / 10)})`,
    });
  }
  return out;
}

/**
 * Measures' windows the run cannot hold: a bucket or a health window longer than the horizon
 * (one bucket for the whole run: no series, no peak, no perceived outage, every variant "not
 * recovered"). A hold longer than what the run leaves after a fault is not refused: short
 * worlds with faults are run for other measures than recovery.
 */
function measureWindowProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const { bucket, healthWindow } = s.measures;
  const horizon = s.horizon;
  if (horizon <= 0) return out; // reported above
  const longer = (what: string, d: number) => `${what} of ${formatDuration(d)} is longer than the horizon (${formatDuration(horizon)})`;
  if (bucket !== undefined && bucket > horizon) out.push({ path: ['measures', 'bucket'], message: `${longer('a bucket', bucket)}: the run would be one bucket; use at most ${formatDuration(horizon)}, or leave bucket out for about 1,000 buckets` });
  if (healthWindow !== undefined && healthWindow > horizon) out.push({ path: ['measures', 'healthWindow'], message: `${longer('a health window', healthWindow)}: recovery could never be judged; use a window shorter than the hold` });
  return out;
}

/**
 * The verdict's users must send something: success, perceived outage and recovery are read
 * from their actions, and with none the service read "not recovered" (a metastable failure)
 * of a run that had nobody to serve. Whether anyone is the verdict's subject at all is the
 * compare block's check (compare-check.ts).
 */
function silentSubjectProblems(s: Scenario, actionsOf: number[]): SemanticProblem[] {
  const names = Object.keys(s.clients);
  const subject = subjectOf(s);
  const users = names.filter((_, i) => subject[i]);
  if (users.length === 0 || names.some((_, i) => subject[i] && actionsOf[i] > 0)) return [];
  const who = users.length === 1 ? `"${users[0]}" sends` : `${users.map((u) => `"${u}"`).join(', ')} send`;
  return [{
    path: s.compare?.for ? ['compare', 'for'] : ['clients'],
    message: `the verdict's users send nothing (${who} no user action over the run): there is no success to judge, and every variant would read "not recovered"; give them a rate above 0/s${s.compare?.for ? ', or name users who send traffic here' : ''}`,
  }];
}

/** Ranges given by their two ends, the smaller one second: nothing can be drawn from them. */
function minMaxProblems(s: Scenario): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const ra = s.server.overload?.retryAfter;
  if (ra?.kind === 'random' && ra.min > ra.max) {
    out.push({ path: ['server', 'overload', 'retryAfter', 'max'], message: `the largest Retry-After (max: ${formatDuration(ra.max)}) is below the smallest (min: ${formatDuration(ra.min)})` });
  }
  s.server.stages.forEach((st, i) => {
    if (st.kind === 'adaptive-concurrency' && st.minLimit !== undefined && st.maxLimit !== undefined && st.minLimit > st.maxLimit) {
      out.push({ path: ['server', 'stages', i, 'maxLimit'], message: `the limit's ceiling (maxLimit: ${st.maxLimit}) is below its floor (minLimit: ${st.minLimit})` });
    }
  });
  return out;
}

/** A server's (or a service's) service time, its routes' own, and its dependencies' latencies. */
function checkServerDistributions(server: Scenario['server'], path: PropertyKey[], out: SemanticProblem[]): void {
  checkDistribution(server.serviceTime, [...path, 'serviceTime'], out);
  for (const [route, r] of Object.entries(server.routes ?? {})) {
    if (r.serviceTime) checkDistribution(r.serviceTime, [...path, 'routes', route, 'serviceTime'], out);
  }
  for (const [dep, d] of Object.entries(server.dependencies ?? {})) {
    if (d.latency) checkDistribution(d.latency, [...path, 'dependencies', dep, 'latency'], out);
  }
}

function checkDistribution(d: Distribution, path: PropertyKey[], out: SemanticProblem[]): void {
  const why = validateDistribution(toDistributionSpec(d));
  if (why) out.push({ path, message: why });
}

/** A fault-tied offline window must name a fault that exists (in this variant, at this sweep point). */
function checkOffline(off: Behaviour['offline'], faults: number, path: PropertyKey[], out: SemanticProblem[]): void {
  if (!off) return;
  if (off.fault !== undefined && off.fault >= faults) {
    const have = faults === 0 ? 'the scenario has no faults' : faults === 1 ? 'the scenario has 1 fault: use 0' : `the scenario has ${faults} faults: use 0 to ${faults - 1}`;
    out.push({ path: [...path, 'fault'], message: `no fault with index ${off.fault} (${have})` });
  }
  if (off.from !== undefined && off.to !== undefined && off.to <= off.from) {
    out.push({ path: [...path, 'to'], message: `the devices must reconnect (to: ${formatDuration(off.to)}) after they go offline (from: ${formatDuration(off.from)})` });
  }
}

/** peopleOf names another open or closed population of this scenario, one that owns its people, with enough of them. */
function checkPeopleOf(s: Scenario, name: string, of: string, out: SemanticProblem[]): void {
  const path = ['clients', name, 'peopleOf'];
  const pop = s.clients[name];
  // An own key only: "toString" or "constructor" names no population (the prototype's).
  const owner = Object.hasOwn(s.clients, of) ? s.clients[of] : undefined;
  const others = Object.keys(s.clients).filter((n) => n !== name);
  if (of === name) return void out.push({ path, message: `a population cannot take its people from itself: name another population (${others.join(', ') || 'there is none'}), or remove peopleOf` });
  if (owner === undefined) return void out.push({ path, message: `no population named "${of}" (the populations are ${others.join(', ') || 'none other'})` });
  if (owner.peopleOf !== undefined) return void out.push({ path, message: `"${of}" takes its people from "${owner.peopleOf}": name that one here (people belong to one population)` });
  if (pop.arrivals.kind === 'closed') return void out.push({ path, message: 'a closed population\'s users are its own people: peopleOf is for open populations' });
  const people = owner.arrivals.kind === 'closed' ? owner.arrivals.users : owner.clients;
  if (pop.clients > people) out.push({ path, message: `"${of}" has ${people} people and client c here is its person c: give this population at most ${people} clients` });
}

/**
 * A journey's step follows another population of this scenario, without a cycle, and a
 * population has at most one next step (so a journey is a line and "completed" means its
 * last step succeeded).
 */
function checkStep(s: Scenario, name: string, previous: string, out: SemanticProblem[]): void {
  const path = ['clients', name, 'arrivals', 'population'];
  const others = Object.keys(s.clients).filter((n) => n !== name);
  if (previous === name) return void out.push({ path, message: `a step cannot follow itself: repeat does that (repeat: 8 runs it 8 times in a row); name the previous step (${others.join(', ') || 'there is none'})` });
  if (!Object.hasOwn(s.clients, previous)) return void out.push({ path, message: `no population named "${previous}" (the populations are ${others.join(', ') || 'none other'})` });
  const rival = others.find((n) => n < name && s.clients[n].arrivals.kind === 'after' && (s.clients[n].arrivals as { population: string }).population === previous);
  if (rival !== undefined) return void out.push({ path, message: `"${rival}" already follows "${previous}": a step has one next step (a journey is a line); make this one follow "${rival}"` });
  const seen = new Set([name]);
  for (let at = previous; ; ) {
    if (seen.has(at)) return void out.push({ path, message: `the steps go round in a circle (${[...seen, at].join(' -> ')}): a journey must start with a population that is not a step` });
    seen.add(at);
    const a = Object.hasOwn(s.clients, at) ? s.clients[at].arrivals : undefined;
    if (a === undefined || a.kind !== 'after') return;
    at = a.population;
  }
}

function checkArrivals(a: Arrivals, path: PropertyKey[], out: SemanticProblem[]): void {
  if (a.kind === 'closed') {
    const before = out.length;
    checkDistribution(a.thinkTime, [...path, 'thinkTime'], out);
    // Users who never think, answered at once (a refusal at the edge), would act again and
    // again without the clock moving.
    if (out.length === before && distributionMean(toDistributionSpec(a.thinkTime)) <= 0) {
      out.push({ path: [...path, 'thinkTime'], message: 'the think time must have a mean above 0s (users who never pause would act again at the same instant)' });
    }
  }
  if (a.kind === 'ramp' && a.end < a.start) out.push({ path: [...path, 'end'], message: 'the ramp ends before it starts' });
  if (a.kind === 'diurnal' && a.period <= 0) out.push({ path: [...path, 'period'], message: 'the period must be longer than 0s' });
  if (a.kind === 'steps') {
    for (let i = 1; i < a.steps.length; i++) {
      if (a.steps[i].at <= a.steps[i - 1].at) {
        out.push({ path: [...path, 'steps', i, 'at'], message: 'steps must be in increasing order of "at"' });
      }
    }
  }
}
