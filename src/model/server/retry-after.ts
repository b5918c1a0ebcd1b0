/**
 * The response contract's Retry-After: what the server puts on each 503 and 429 it sends
 * (none, fixed, spread per client as base + hash(client) mod window, or random), and the
 * operator actions that change it for a while.
 *
 * Why a module of its own: the policy, its random stream and its undo history are one piece
 * of state that the edge, the pipeline's refusals and the instances' answers all read; the
 * frontend asks it for a value and no longer keeps the policy beside the balancer's and the
 * capacity's state.
 */
import { stream, type Rng } from '../../engine/rng.js';
import type { z } from 'zod';
import type { retryAfterSchema } from '../../scenario/schema-server.js';
import { statusOf, type ResponseContract } from '../outcomes.js';
import { Overridable } from '../overridable.js';
import { mix } from './hash.js';
import type { RequestView } from './request.js';

export type RetryAfterPolicy = z.output<typeof retryAfterSchema>;

export class RetryAfter {
  private policy: RetryAfterPolicy | undefined;
  /** What operator actions change and undo (overridable.ts): it writes `policy` when it changes hands. */
  private readonly setting: Overridable<RetryAfterPolicy | undefined>;
  private readonly rng: Rng;

  /** `req` is the frontend's one request view: the spread policy fills it to read the client. */
  constructor(policy: RetryAfterPolicy | undefined, private readonly contract: ResponseContract, private readonly req: RequestView, seed: number) {
    this.policy = policy;
    this.setting = new Overridable(policy, (p) => { this.policy = p; });
    this.rng = stream(seed, 'server/retry-after');
  }

  /** The Retry-After (s) of the answer `outcome` to attempt a; NaN for none. */
  of(a: number, outcome: number): number {
    const policy = this.policy;
    const status = statusOf(outcome, this.contract);
    if (!policy || (status !== 503 && status !== 429)) return NaN;
    switch (policy.kind) {
      case 'none':
        return NaN;
      case 'fixed':
        return policy.after;
      case 'random':
        return policy.min + this.rng() * (policy.max - policy.min);
      case 'spread': {
        // Deterministic per client: the same client always comes back at the same offset.
        const client = this.req.fill(a).client;
        return policy.base + (mix(client + 0x9e3779b9) % Math.max(1, Math.round(policy.window)));
      }
    }
  }

  /** Changes the policy; returns the undo. */
  set(policy: RetryAfterPolicy): () => void {
    return this.setting.override(policy);
  }
}
