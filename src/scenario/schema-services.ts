/**
 * Calls between services, in the scenario format: what a route of one service asks of
 * another, through which retry layers, and whether the caller's deadline travels with it.
 * The services themselves are servers (schema-server.ts), listed under `services:`; this
 * file holds only the edges of the graph, so a route's schema can name them without the
 * server schema knowing about client layers.
 */
import { z } from 'zod';
import { name, routeName, positiveInt } from './schema-primitives.js';
import { layerSchema } from './schema-clients.js';
import { LIMITS } from './limits.js';
import { DEFAULT_ROUTE } from './server-defaults.js';
import { distributionSchema } from './schema-distributions.js';

export const serviceCallSchema = z
  .strictObject({
    service: name.meta({ description: 'The service called (a key of `services`).' }),
    route: routeName.default(DEFAULT_ROUTE).meta({ description: 'The route of the called service; its route settings (services.<name>.routes.<route>) apply.' }),
    retry: layerSchema.optional().meta({ description: 'A single retry layer for this call (shorthand for layers: {http: …}); the same layer model and presets as clients, so a service\'s HTTP library retries like a client\'s. Without any, the call is sent once and waited for.' }),
    layers: z
      .record(name, layerSchema)
      .refine((r) => Object.keys(r).length <= LIMITS.layers, `at most ${LIMITS.layers} retry layers per call (a simulator limit: a call's state is kept per layer)`)
      .optional()
      .meta({ maxProperties: LIMITS.layers, description: 'Retry layers by name, outermost first, as for a client population.' }),
    networkDelay: distributionSchema.optional().meta({
    description:
      'One-way network latency between the caller\'s instances and the called service (another zone, region or hop): each attempt of the call pays one draw on its way there and its answer another on the way back, so a round trip pays two. The call\'s timeouts, deadline and hedges count it; an attempt whose caller stopped waiting while it was on the wire is not delivered, and an answer that comes back after its caller stopped waiting is dropped. Default none.',
  }),
  propagateDeadline: z.boolean().default(false).meta({
      description:
        'Carry the caller\'s remaining deadline with the call, gRPC style: the call\'s layers never try or retry past it, every attempt carries it, and the called service drops queued work whose deadline has passed (or whose caller has cancelled) instead of serving it. The caller\'s deadline is the one its own request carried (from a client with identity.sendsDeadline, or from a call that propagated it). Off (the default), each hop retries on its own clock: the classic cross-tier amplification.',
    }),
  })
  .refine((c) => !(c.retry && c.layers), { message: 'give either retry (one layer) or layers, not both', path: ['retry'] })
  .meta({ 'x-at-most-one-of': ['retry', 'layers'], description: 'One call to another service of the graph, made while the request holds its slot.' });

export const routeServiceCalls = {
  services: z.array(serviceCallSchema).max(64, 'at most 64 service calls per route (a simulator limit)').optional().meta({
    description: 'Calls to other services of the graph (see docs/topologies.md), made when a request of this route starts service, before its own service time; the request holds its slot while it waits. A call that fails (after its retry layers) fails the request with a dependency failure (503, retryable).',
  }),
  fanOut: z.enum(['sequential', 'parallel']).default('sequential').meta({
    description: 'sequential: the calls one after another, in order, the first failure failing the request; parallel: all at once.',
  }),
  fanIn: positiveInt(64, 'calls to wait for').optional().meta({
    description: 'parallel only: the request goes on once this many calls have succeeded (the first k; the others are cancelled), and fails once that can no longer happen (default: every call).',
  }),
};

export type ServiceCall = z.output<typeof serviceCallSchema>;
