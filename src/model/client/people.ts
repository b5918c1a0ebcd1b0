/**
 * The people behind a population's clients, when they can give up on the service
 * (behaviour.leave): who is away and until when, how many of their actions in a row have
 * failed, the groups of populations that share people (peopleOf), and the decision to leave
 * after an action ends. Clients asks it when an arrival falls on a person and when an action
 * ends; a closed population's user who left comes back to act when their time away ends.
 */
import { stream, type Rng } from '../../engine/rng.js';
import { sampler, type Sampler } from '../../engine/distributions.js';
import { toDistributionSpec } from '../../scenario/distribution-spec.js';
import type { Behaviour } from '../../scenario/schema.js';

/**
 * Per person (an open population's client, a closed population's user): when they come back
 * (0 while present, Infinity once gone for good), and how many of their actions in a row
 * ended without success since they last succeeded or left (behaviour.leave.afterFailures).
 */
export interface People {
  awayUntil: Float64Array;
  failedInARow: Uint16Array;
}

/**
 * Gives the populations that share people (peopleOf) one People per group, so that a person
 * who left through any of them starts nothing in any of them. A group has one when one of its
 * populations lets people leave; it is as long as the owner's people (validated to cover every
 * member's clients).
 */
/** What sharePeople reads and sets of a population (population.ts's PopulationState has it). */
interface Member {
  name: string;
  spec: { peopleOf?: string };
  clients: number;
  closed?: { users: number };
  leave?: LeaveState;
  people?: People;
}

export function sharePeople(pops: Member[]): void {
  const owner = (p: Member) => (p.spec.peopleOf !== undefined ? pops.find((o) => o.name === p.spec.peopleOf) ?? p : p);
  for (const o of pops) {
    const group = pops.filter((p) => owner(p) === o);
    if (!group.some((p) => p.leave !== undefined)) continue;
    const n = o.closed !== undefined ? o.closed.users : o.clients;
    const people: People = { awayUntil: new Float64Array(n), failedInARow: new Uint16Array(n) };
    for (const p of group) p.people = people;
  }
}

/** behaviour.leave, prepared: its own random streams, so the draws of scenarios without it are unchanged. */
export interface LeaveState {
  probability: number;
  never: number;
  afterFailures: number;
  comeBack: Sampler;
  rng: Rng;
}

/** behaviour.leave of population `name`, prepared (its streams keyed by the name). */
export function leaveState(spec: NonNullable<Behaviour['leave']>, name: string, seed: number): LeaveState {
  return {
    probability: spec.probability,
    never: spec.never,
    afterFailures: spec.afterFailures,
    comeBack: sampler(toDistributionSpec(spec.comeBackAfter), stream(seed, `clients/${name}/come-back`)),
    rng: stream(seed, `clients/${name}/leave`),
  };
}

/**
 * After an action of `person` ended (a success, or not), do they leave the service? A success
 * starts their count of failures in a row again; from the `afterFailures`-th failure in a row
 * on, each is a chance to leave, for a time drawn from `comeBack` or (a share `never`) for good.
 * Returns whether they left; their time away is then in people.awayUntil.
 */
export function mayLeave(leave: LeaveState, people: People, person: number, ok: boolean, now: number): boolean {
  if (ok) {
    people.failedInARow[person] = 0;
    return false;
  }
  const failed = people.failedInARow[person] + 1;
  people.failedInARow[person] = failed < 0xffff ? failed : 0xffff;
  if (failed < leave.afterFailures || leave.rng() >= leave.probability) return false;
  const until = leave.rng() < leave.never ? Infinity : now + leave.comeBack();
  if (until > people.awayUntil[person]) people.awayUntil[person] = until;
  people.failedInARow[person] = 0;
  return true;
}
