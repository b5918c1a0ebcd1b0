/**
 * What the server can see of a request: who sent it (client, IP), where (route), under
 * which API-key tier and app version, its body fingerprint, and the attempt number a
 * client may declare.
 * One reusable view, filled per request, so the pipeline allocates nothing per request.
 * Identities are made global across populations: client and IP indices never collide.
 */
import type { Population } from '../../scenario/schema.js';
import type { Actions, Attempts } from '../records.js';
import { ATTEMPT_HEADER } from '../records.js';

export interface PopulationIdentity {
  clientOffset: number;
  ipOffset: number;
  clientsPerIp: number;
  route: number;
  tier: string | undefined;
  idempotencyKeys: boolean;
  distinctBodies: number;
  /** The app version every request of the population carries, if it sends one. */
  version: string | undefined;
  /** Its requests are sent by software, not people (role attacker): a bot challenge stops them. */
  automated: boolean;
}

export interface Identities {
  pops: PopulationIdentity[];
  clients: number;
  ips: number;
  routes: string[];
}

export function identities(populations: Array<[string, Population]>): Identities {
  const routes: string[] = [];
  let clients = 0, ips = 0;
  const pops = populations.map(([, p]) => {
    const id = p.identity;
    const route = id.route;
    if (!routes.includes(route)) routes.push(route);
    const perIp = id.clientsPerIp;
    const out: PopulationIdentity = {
      clientOffset: clients,
      ipOffset: ips,
      clientsPerIp: perIp,
      route: routes.indexOf(route),
      tier: id.tier,
      idempotencyKeys: id.idempotencyKeys,
      distinctBodies: id.distinctBodies,
      version: id.version,
      automated: p.role === 'attacker',
    };
    clients += p.clients;
    ips += Math.ceil(p.clients / perIp);
    return out;
  });
  return { pops, clients, ips, routes };
}

export class RequestView {
  attempt = 0;
  gen = 0;
  action = 0;
  population = 0;
  client = 0;
  ip = 0;
  route = 0;
  /** Declared attempt number (0 when the client does not send the header). */
  declaredAttempt = 0;
  /** Ground truth, for measuring detection: is this attempt a retry? */
  isRetry = false;
  detectedRetry = false;
  instance = 0;
  /** Set by a refusing stage that knows when to come back (a rate limiter). */
  retryAfter = NaN;
  /**
   * Set by a refusing stage whose refusal reaches the client only after a while: a limiter
   * in a shared store answers "no" after the store's round trip, as it answers "yes".
   */
  refusalDelay = 0;

  constructor(private readonly ids: Identities, private readonly attempts: Attempts, private readonly actions: Actions) {}

  fill(a: number): this {
    const at = this.attempts;
    const act = at.action[a];
    const pop = this.actions.population[act];
    const id = this.ids.pops[pop];
    const local = this.actions.client[act];
    this.attempt = a;
    this.gen = at.gen[a];
    this.action = act;
    this.population = pop;
    this.client = id.clientOffset + local;
    this.ip = id.ipOffset + Math.floor(local / id.clientsPerIp);
    this.route = id.route;
    this.declaredAttempt = (at.flags[a] & ATTEMPT_HEADER) !== 0 ? at.number[a] : 0;
    this.isRetry = at.number[a] > 1;
    this.detectedRetry = false;
    this.retryAfter = NaN;
    this.refusalDelay = 0;
    return this;
  }
}
