/**
 * The edge in front of the server (a WAF, the load balancer's rules): what operators switch
 * on during an incident to keep requests away from the server — blocking a population, the
 * app versions below a minimum or a share of the IP addresses, and switching a route off.
 * A blocked request is answered 403 (not retryable) or dropped without an answer; a route
 * switched off answers 503 (retryable) or drops. Either way the server does no work.
 *
 * Rules come and go by operator actions (src/model/operator/). While there is none the
 * frontend skips the edge with one test, so a world without actions pays nothing.
 */
import type { Identities, RequestView } from './request.js';
import { OUTCOME_BLOCKED, OUTCOME_DISABLED } from '../outcomes.js';
import { compareVersions } from '../version.js';
import { mix } from './hash.js';

/** `check` passes the request, refuses it with -outcome, or drops it (no answer). */
export const EDGE_PASS = 0;
export const EDGE_DROP = 1;

export interface BlockSpec {
  population?: string;
  versionBelow?: string;
  ips?: number;
  answer?: 403 | 'drop';
}

interface BlockRule {
  /** matches[population]: the population (and its version) is selected. */
  matches: Uint8Array;
  /** Share of IP addresses blocked (1: all). */
  ips: number;
  drop: boolean;
}

interface RouteRule {
  route: number;
  drop: boolean;
}

export class Edge {
  private readonly blocks: BlockRule[] = [];
  private readonly routes: RouteRule[] = [];
  /** True while any rule is in place: the frontend asks the edge only then. */
  active = false;

  constructor(private readonly ids: Identities, private readonly populationNames: readonly string[]) {}

  /** Adds a block; returns what removes it again. */
  block(spec: BlockSpec): () => void {
    const rule: BlockRule = {
      matches: Uint8Array.from(this.ids.pops, (p, i) => {
        if (spec.population !== undefined && this.populationNames[i] !== spec.population) return 0;
        // A population that sends no version cannot be told apart by version: it passes.
        if (spec.versionBelow !== undefined && (p.version === undefined || compareVersions(p.version, spec.versionBelow) >= 0)) return 0;
        return 1;
      }),
      ips: spec.ips ?? 1,
      drop: spec.answer === 'drop',
    };
    this.blocks.push(rule);
    this.active = true;
    return () => this.remove(this.blocks, rule);
  }

  /** Switches a route off; returns what switches it back on. Unknown routes change nothing. */
  disableRoute(route: string, answer: 503 | 'drop' | undefined): () => void {
    const rule: RouteRule = { route: this.ids.routes.indexOf(route), drop: answer === 'drop' };
    this.routes.push(rule);
    this.active = true;
    return () => this.remove(this.routes, rule);
  }

  check(req: RequestView): number {
    for (let i = 0; i < this.blocks.length; i++) {
      const b = this.blocks[i];
      if (!b.matches[req.population]) continue;
      // The same address always falls on the same side of the share.
      if (b.ips < 1 && mix(req.ip + 0x632be5ab) / 4294967296 >= b.ips) continue;
      return b.drop ? EDGE_DROP : -OUTCOME_BLOCKED;
    }
    for (let i = 0; i < this.routes.length; i++) {
      const r = this.routes[i];
      if (r.route === req.route) return r.drop ? EDGE_DROP : -OUTCOME_DISABLED;
    }
    return EDGE_PASS;
  }

  private remove<T>(list: T[], rule: T): void {
    const i = list.indexOf(rule);
    if (i >= 0) list.splice(i, 1);
    this.active = this.blocks.length + this.routes.length > 0;
  }
}
