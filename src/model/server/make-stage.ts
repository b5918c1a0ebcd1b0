/**
 * A pipeline stage made from its spec, with what it needs from the run: the instances (for
 * the stages that read their load), the identities, the records, its own random stream.
 *
 * Why a module of its own: it is the one place that knows every kind of stage, so the stages
 * themselves (stages.ts, rate-limit-stage.ts) need not know one another.
 */
import type { Engine } from '../../engine/engine.js';
import { stream } from '../../engine/rng.js';
import type { Recorder } from '../recorder.js';
import type { Actions } from '../records.js';
import type { Identities } from './request.js';
import type { Instance } from './instance.js';
import { RetryDetection, Admission, AdaptiveConcurrency, MinVersion, Shed, Challenge, type Stage, type StageSpec } from './stages.js';
import { RateLimit } from './rate-limit-stage.js';

export function makeStage(spec: StageSpec, ctx: { instances: Instance[]; ids: Identities; actions: Actions; rec: Recorder; engine: Engine; seed: number; rateLimits?: RateLimit[] }): Stage {
  switch (spec.kind) {
    case 'retry-detection':
      return new RetryDetection(spec.window, spec.useHeader, ctx.ids, ctx.actions, ctx.rec);
    case 'admission':
      return new Admission(spec.capacity, spec.reserveForOriginals, ctx.instances);
    case 'rate-limit':
    {
      // Every rate limit made, in order, also one an operator removed later: the results report each.
      const stage = new RateLimit(spec, ctx.instances.length, ctx.ids, ctx.seed);
      ctx.rateLimits?.push(stage);
      return stage;
    }
    case 'adaptive-concurrency':
      return new AdaptiveConcurrency(spec, ctx.instances, stream(ctx.seed, 'server/concurrency-limit'));
    case 'min-version':
      return new MinVersion(spec.minimum, ctx.ids);
    case 'shed':
      return new Shed(spec, ctx.instances, stream(ctx.seed, 'server/shed'));
    case 'challenge':
      return new Challenge(spec, ctx.ids, ctx.actions, stream(ctx.seed, 'server/challenge'));
  }
}
