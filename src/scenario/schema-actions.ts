/**
 * Operator actions in the scenario format: what people (or their tooling) do to the world
 * during a run, and when. Each action is a trigger (`when`: at a time, or when a signal
 * has held beyond a threshold for a while, plus the time it takes to notice and act) and
 * one effect (`do`: block clients at the edge, switch a route off, change the pipeline,
 * the Retry-After contract or the capacity, fail a dependency over, flip the clients'
 * remote switch, restart the server, or undo an earlier action).
 *
 * Kept apart from schema.ts because it is a language of its own (triggers x effects) and
 * grows with every response an incident review asks about.
 */
import { z } from 'zod';
import { durationSchema, name, positiveInt, versionSchema } from './schema-primitives.js';
import { LIMITS } from './limits.js';
import { stageSchema, retryAfterSchema } from './schema-server.js';
import { warmupSchema } from './schema-faults.js';

export const SIGNALS = ['error-ratio', 'success', 'load', 'queue', 'quota', 'utilisation'] as const;

export const STAGE_KINDS = ['retry-detection', 'rate-limit', 'admission', 'adaptive-concurrency', 'shed', 'min-version', 'challenge'] as const;

const routeName = z.string().regex(/^[a-z0-9][a-z0-9_/-]*$/i, 'use letters, digits, "-", "_" and "/"');

export const triggerSchema = z
  .strictObject({
    at: durationSchema('Act at this time (offset from the start of the run). Give `at`, or `signal` with `above` or `below`.').optional(),
    signal: z.enum(SIGNALS, { error: (i) => `unknown signal ${JSON.stringify(i.input)}: expected one of ${SIGNALS.join(', ')}` }).optional().meta({
      description:
        'What the condition watches, measured over each check interval (`every`): error-ratio (failed attempts / attempts that ended, local refusals left out), success (user actions that succeeded / ended; on `route` only if given), load (attempts per second / the 1x rate: measures.baseline, or the arrival profiles\' rate at that time), queue (attempts queued on all instances, at the check), quota (share of a dependency\'s quota used in its current window, at the check), utilisation (busy slots / slots, averaged over the interval).',
    }),
    above: z.number().min(0).optional().meta({ description: 'The condition holds while the signal is above this.' }),
    below: z.number().min(0).optional().meta({ description: 'The condition holds while the signal is below this.' }),
    for: durationSchema('How long the condition must hold: every check over this time must find it true (default 0s: a single check).').optional(),
    after: durationSchema('Time from the condition having held to the effect: detection, paging and a person acting (e.g. 15m; default 0s). Not with `at`.').optional(),
    every: durationSchema('Check interval: the signal is measured over each interval and checked at its end (default 10s, a typical metrics scrape).').optional(),
    route: routeName.optional().meta({ description: 'For signal success: only user actions of this route (e.g. login).' }),
    dependency: z.string().optional().meta({ description: 'For signal quota: the dependency whose quota is watched (default: the only one with a quota).' }),
  })
  .superRefine((t, ctx) => {
    if (t.at !== undefined && t.signal !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['signal'], message: 'give either at (a fixed time) or signal (a condition), not both' });
    } else if (t.at === undefined && t.signal === undefined) {
      ctx.addIssue({ code: 'custom', message: 'give at (act at a fixed time) or signal with above or below (act when a condition has held)' });
    }
    if (t.signal !== undefined && (t.above === undefined) === (t.below === undefined)) {
      ctx.addIssue({ code: 'custom', path: [t.above !== undefined ? 'below' : 'above'], message: 'give exactly one of above or below for the signal\'s threshold' });
    }
    if (t.at !== undefined) {
      for (const key of ['above', 'below', 'for', 'after', 'every', 'route', 'dependency'] as const) {
        if (t[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" belongs to a signal condition; an action at a fixed time takes only at` });
      }
    }
    if (t.route !== undefined && t.signal !== 'success') ctx.addIssue({ code: 'custom', path: ['route'], message: 'route applies to signal success only' });
    if (t.dependency !== undefined && t.signal !== 'quota') ctx.addIssue({ code: 'custom', path: ['dependency'], message: 'dependency applies to signal quota only' });
  })
  .meta({ description: 'When an action happens: at a fixed time, or once a condition on a signal has held for `for`, plus `after` to notice and act. A condition fires its action once.' });

const answer = <N extends number>(refusal: N, what: string) =>
  z.union([z.literal(refusal), z.literal('drop')]).optional().meta({ description: `${what} (default ${refusal}); drop: no answer at all, so the client waits for its timeout.` });

export const effectSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('block'),
      population: name.optional().meta({ description: 'Block this population\'s requests.' }),
      versionBelow: versionSchema('Block requests from app versions below this (identity.version, quoted).').optional(),
      ips: z.number().gt(0).max(1).optional().meta({ description: 'Block this share of the IP addresses (of `population` if given, else of every population), chosen by a hash of the address.' }),
      answer: answer(403, 'What the edge answers: 403 Forbidden, not retryable (cause "blocked")'),
    })
      .refine((b) => b.population !== undefined || b.versionBelow !== undefined || b.ips !== undefined, 'say what is blocked: population, versionBelow or ips (or several: a request is blocked when it matches all of them)')
      .meta({ description: 'Block requests at the edge (a WAF or the load balancer), before the server does any work. The selectors combine: a request is blocked when it matches all those given.' }),
    z.strictObject({
      kind: z.literal('disable-route'),
      route: routeName.meta({ description: 'The route switched off.' }),
      answer: answer(503, 'What the route answers: 503, retryable, with the Retry-After contract (cause "disabled")'),
    }).meta({ description: 'Switch a route off at the edge (a feature flag or a load-balancer rule).' }),
    z.strictObject({
      kind: z.literal('add-stage'),
      stage: stageSchema.meta({ description: 'The stage added to the pipeline, written as in server.stages.', 'x-see': 'server.stages[]' }),
      before: z.enum(STAGE_KINDS).optional().meta({ description: 'Insert it before the first stage of this kind (default: at the end).' }),
    }).meta({ description: 'Add a stage to the server\'s pipeline (admission, a rate limit, load shedding…).' }),
    z.strictObject({
      kind: z.literal('remove-stage'),
      stage: z.enum(STAGE_KINDS).meta({ description: 'The first stage of this kind is removed.' }),
    }).meta({ description: 'Remove a stage from the server\'s pipeline.' }),
    z.strictObject({
      kind: z.literal('replace-stage'),
      stage: z.enum(STAGE_KINDS).meta({ description: 'The first stage of this kind is replaced.' }),
      with: stageSchema.meta({ description: 'The stage that takes its place, written as in server.stages.', 'x-see': 'server.stages[]' }),
    }).meta({ description: 'Replace a stage of the server\'s pipeline (e.g. a tighter admission capacity).' }),
    z.strictObject({
      kind: z.literal('retry-after'),
      retryAfter: retryAfterSchema.meta({ description: 'The new Retry-After on every 503 and 429, written as in server.overload.retryAfter.', 'x-see': 'server.overload.retryAfter' }),
    }).meta({ description: 'Change the Retry-After contract.' }),
    z.strictObject({
      kind: z.literal('scale'),
      instances: positiveInt(1000, 'instances').optional().meta({ description: 'New number of instances behind the load balancer. Removed instances take no new requests and finish what they hold.' }),
      slots: positiveInt(LIMITS.slots, 'concurrency slots').optional().meta({ description: 'New number of slots per instance (a capacity cut still applies on top).' }),
    }).meta({ description: 'Change the server\'s capacity at once (for a delay, put it in the trigger\'s `after`).' }),
    z.strictObject({
      kind: z.literal('fallback'),
      dependency: z.string().meta({ description: 'The dependency.' }),
      routes: z.array(routeName).min(1).optional().meta({ description: 'Routes that stop calling it and answer locally (default: its failover routes, or else every route that calls it).' }),
    }).meta({ description: 'Switch a dependency to its fallback by hand: these routes validate locally instead of calling it (story 003\'s switch to local JWT validation).' }),
    z.strictObject({
      kind: z.literal('remote-switch'),
      population: name.meta({ description: 'The population that reads the switch.' }),
      maxAttempts: positiveInt(LIMITS.maxAttempts, 'tries per call').optional().meta({ description: 'New max attempts of every layer (lowered, never raised).' }),
      minWait: durationSchema('New minimum wait before a retry.').optional(),
    }).meta({ description: 'Flip a population\'s remote config switch (as behaviour.remoteSwitch, but when the action happens).' }),
    z.strictObject({
      kind: z.literal('restart'),
      instance: z.number().int().min(0).optional().meta({ description: 'Index of the instance restarted (0 = the first; default: every instance).' }),
      warmup: warmupSchema.optional(),
    }).meta({ description: 'Restart instances: what they hold (in service and queued) is lost, callers see a connection reset (counted in lost_attempts), and they take traffic again at once, with an optional warm-up. It clears a queue full of requests nobody waits for. There is nothing to undo.' }),
    z.strictObject({
      kind: z.literal('undo'),
      action: name.meta({ description: 'The name of the earlier action whose effect is undone.' }),
    }).meta({ description: 'Undo an earlier action\'s effect: unblock, switch the route back on, restore the stage, the contract, the capacity, the dependency or the switch as it was before that action. Undoing an action that has not happened does nothing.' }),
  ], { error: () => 'expected kind: block, disable-route, add-stage, remove-stage, replace-stage, retry-after, scale, fallback, remote-switch, restart or undo' });

export const actionSchema = z
  .strictObject({
    name: name.optional().meta({ description: 'Names the action in the results and for `undo` (default: its effect\'s kind and its position, e.g. block-1).' }),
    description: z.string().optional().meta({ description: 'What the people did and why, shown next to the results.' }),
    service: name.optional().meta({ description: 'The service of the topology (a key of `services`) the action acts on, and whose signal a condition reads (its own queue, utilisation, error ratio, success of the calls into it, quota); default: the server users call. Not with block or remote-switch, which act on the users\' requests, nor with signal load, which is the users\' rate.' }),
    when: triggerSchema,
    do: effectSchema.meta({ description: 'The effect: what the action changes when it happens.' }),
  })
  .meta({ description: 'One thing an operator (or automation) does during the run.' });

export type Trigger = z.output<typeof triggerSchema>;
export type Effect = z.output<typeof effectSchema>;
export type ActionSpec = z.output<typeof actionSchema>;

