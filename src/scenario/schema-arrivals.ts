/**
 * How user actions arrive: the rate profile of a population's Poisson process (open loop),
 * a fixed number of users who each wait for their answer and think before acting again
 * (closed loop), the next step of a journey, or recorded traffic replayed from a file (trace).
 */
import { z } from 'zod';
import { durationSchema, rateSchema, positiveInt, name } from './schema-primitives.js';
import { distributionSchema } from './schema-distributions.js';
import { LIMITS } from './limits.js';
import { isTraceData, playedSpan, type TraceData } from './trace/trace-data.js';

const column = (what: string) => z.string().min(1, 'a column name cannot be empty').optional().meta({ description: what });

/**
 * Recorded traffic (docs/traces.md). The loader reads `file` before validation and hands the
 * parsed numbers forward in `data`, which no one writes (read-traces.ts refuses it): it is
 * hidden from the JSON Schema and the format reference (`x-loaded`).
 */
const traceSchema = z.strictObject({
  kind: z.literal('trace'),
  file: z.string().min(1, 'give the path of the trace file').meta({ description: 'The recorded traffic: a path relative to the scenario file\'s folder (CSV, the JSON of a Prometheus range query, or OTLP JSON traces).' }),
  format: z.enum(['csv', 'prometheus', 'otlp']).meta({ description: 'csv: a header row and one row per request (its time) or per step (a count or a rate). prometheus: the JSON that Prometheus\' HTTP API returns for a range query (/api/v1/query_range, resultType matrix). otlp: OpenTelemetry traces as OTLP JSON (or the Collector\'s JSON Lines): each server span\'s start is a request.' }),
  columns: z.strictObject({
    time: column('The column of times, as seconds (see timeUnit) or RFC 3339 timestamps with a zone (2026-12-07T10:00:00Z). Default "time".'),
    count: column('The column of request counts per step (a row covers [its time, its time + step)). Without count or rate, each row is one request at its time.'),
    rate: column('The column of request rates per second per step (a row covers [its time, its time + step)).'),
  }).optional().meta({ description: 'CSV: which columns hold what, by their names in the header row.' }),
  timeUnit: z.enum(['s', 'ms']).default('s').meta({ description: 'CSV: the unit of numeric times (seconds or milliseconds, since 1970 or since any origin).' }),
  values: z.enum(['rate', 'increase']).optional().meta({ description: 'prometheus (required there): what each value is: rate, requests per second (rate(...[step])); increase, requests during the step that ends at the value\'s time (increase(...[step])).' }),
  select: z.record(z.string(), z.string()).optional().meta({ description: 'prometheus: the labels of the one series to replay, e.g. { route: "/login" }, when the result holds several.' }),
  service: z.string().min(1).optional().meta({ description: 'otlp: the service whose requests to replay (resource attribute service.name), when the file holds several.' }),
  span: z.string().min(1).optional().meta({ description: 'otlp: only the server spans of this name (a route, e.g. "GET /login").' }),
  step: durationSchema('The length of each step of count or rate data (default: the smallest spacing between two rows or values; every spacing must be a whole number of steps, and more than one is a gap).', { positive: true }).optional(),
  gaps: z.enum(['refuse', 'zero']).default('refuse').meta({ description: 'A missing step in count or rate data (rows two steps apart or more): refused, or replayed as steps with no requests. Refused by default: a hole in an export is more often missing data than a silent service.' }),
  scale: z.number().gt(0, 'a scale is more than 0: 2 doubles the traffic, 0.5 halves it').default(1).meta({ description: 'Multiplies the traffic: each step\'s rate, or for request times each request (scale 2.5: every request twice, and a third time with probability 0.5).' }),
  shift: durationSchema('When the trace starts in the run: before it, no requests.').prefault('0s'),
  window: z.strictObject({
    from: durationSchema('Start of the part to replay, after the trace\'s own start.').prefault('0s'),
    to: durationSchema('End of the part to replay (default: the end of the trace).').optional(),
  }).optional().meta({ description: 'Replay only [from, to) of the trace; its from becomes the trace\'s start (then shift applies).' }),
  loop: z.boolean().default(false).meta({ description: 'Replay the trace (or its window) again and again until the horizon; otherwise no requests after its end.' }),
  // Optional here so that what is wrong with the other fields is said first (superRefine);
  // a validated trace always has it (tracePlay).
  data: z.custom<TraceData>((v) => isTraceData(v), {
    // A trace first read at a sweep point (its file swept) says here why it could not be read.
    error: (iss) => {
      const unread = (iss.input as { unread?: unknown } | undefined)?.unread;
      return typeof unread === 'string' ? unread : 'is read by the loader from `file`, not written';
    },
  }).optional().meta({ 'x-loaded': true }),
}).superRefine((t, ctx) => {
  const before = ctx.issues?.length ?? 0;
  const only = (keys: ReadonlyArray<'columns' | 'values' | 'select' | 'service' | 'span'>, format: string) => {
    for (const k of keys) if (t[k] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: `${k} is for format: ${format} (this trace's format is ${t.format})` });
  };
  if (t.format !== 'csv') only(['columns'], 'csv');
  if (t.format !== 'prometheus') only(['values', 'select'], 'prometheus');
  if (t.format !== 'otlp') only(['service', 'span'], 'otlp');
  const times = t.format === 'otlp' || (t.format === 'csv' && t.columns?.count === undefined && t.columns?.rate === undefined);
  if (times && t.step !== undefined) ctx.addIssue({ code: 'custom', path: ['step'], message: 'step is for counts or rates per step: request times have none (name a count or rate column, or remove step)' });
  if (t.format === 'prometheus' && t.values === undefined) ctx.addIssue({ code: 'custom', path: ['values'], message: 'say what the values are: values: rate (requests per second) or values: increase (requests per step)' });
  if (t.columns?.count !== undefined && t.columns.rate !== undefined) ctx.addIssue({ code: 'custom', path: ['columns', 'rate'], message: 'give count (requests per step) or rate (requests per second), not both' });
  if (t.window?.to !== undefined && t.window.to <= t.window.from) ctx.addIssue({ code: 'custom', path: ['window', 'to'], message: 'the window ends after it starts' });
  if (!isTraceData(t.data)) {
    // The loader attaches the data of every trace it can read; none is here only without a loader.
    if ((ctx.issues?.length ?? 0) === before) ctx.addIssue({ code: 'custom', path: ['data'], message: 'was not read: a trace is read by the scenario loader, from file' });
    return;
  }
  const length = t.data.length;
  if ((t.window?.from ?? 0) >= length) ctx.addIssue({ code: 'custom', path: ['window', 'from'], message: `the window starts after the trace ends (it lasts ${length}s)` });
  else if (t.loop && playedSpan({ ...t, data: t.data }).length <= 0) ctx.addIssue({ code: 'custom', path: ['loop'], message: 'a loop needs a window longer than 0s' });
}).meta({ description: 'Recorded traffic replayed (docs/traces.md): request times exactly, or counts and rates per step as a Poisson process at each step\'s rate (each step keeps its count in expectation). Read once, when the scenario is loaded.' });

export const arrivalsSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('constant'), rate: rateSchema('User actions per unit of time, for the whole population.') }),
    z.strictObject({
      kind: z.literal('steps'),
      steps: z
        .array(z.strictObject({ at: durationSchema('When this rate starts (offset from the start).'), rate: rateSchema('Rate from then on.') }))
        .min(1)
        .meta({ description: 'Piecewise-constant rate; before the first step the rate is 0.' }),
    }),
    z.strictObject({
      kind: z.literal('ramp'),
      from: rateSchema('Rate before and at the start of the ramp.'),
      to: rateSchema('Rate at the end of the ramp and after it.'),
      start: durationSchema('When the ramp begins.'),
      end: durationSchema('When the ramp ends.'),
    }),
    z.strictObject({
      kind: z.literal('diurnal'),
      mean: rateSchema('Average rate over a period.'),
      amplitude: z.number().min(0).max(1).meta({ description: 'Relative swing: the rate goes from mean*(1-amplitude) to mean*(1+amplitude).' }),
      period: durationSchema('Length of one cycle.').prefault('24h'),
      peakAt: durationSchema('Offset of the first peak from the start.').prefault('0s'),
    }),
    z.strictObject({
      kind: z.literal('closed'),
      users: positiveInt(LIMITS.clients, 'users').meta({
        description: 'How many users there are. Each has one action at a time: it waits for the answer (success, or failure after its retry layers give up, or its own giveUpAfter), thinks, then acts again. User u is client u mod `clients`.',
      }),
      thinkTime: distributionSchema.meta({ description: 'Think time between the end of a user\'s action and the start of the next (also drawn once before each user\'s first action, so they start spread out).' }),
    }).meta({
      description: 'A closed loop (the interactive users of a terminal system): the load follows the answers. Throughput is N / (R + Z) with R the response time and Z the mean think time, so slow answers slow the users down; at most `users` actions are in progress at once. Surge faults do not reach a closed population.',
    }),
    z.strictObject({
      kind: z.literal('after'),
      population: name.meta({ description: 'The population whose successful actions start these: the previous step of a journey.' }),
      delay: durationSchema('How long after the previous step succeeded this one starts: the person reading and typing, or a session\'s refresh period.').prefault('0s'),
      repeat: positiveInt(100_000, 'times').default(1).meta({ description: 'How many times in a row this step runs, each `delay` after the one before succeeded: a session revalidated every 30 minutes for four hours is delay 30m, repeat 8. A failure ends the journey there.' }),
    }).meta({
      description: 'A step of a journey (signup, then login, then session refreshes): each action of `population` that succeeds starts one here, for the same person (client c there is client c mod `clients` here), `delay` later. The next step starts only after the previous one succeeded, so a failing step stops the journey and the steps after it see less traffic. A journey starts with an action of a population that is not a step, and completes when its last step has succeeded `repeat` times; journeyCompletion and journeyTimeMean measure it.',
    }),
    traceSchema,
  ], { error: () => 'expected kind: constant, steps, ramp, diurnal, closed, after or trace' })
  .meta({ description: 'How user actions arrive: a Poisson process whose rate follows a profile (open loop: users come whatever the service does), closed: a fixed number of users who wait and think, after: the next step of a journey, started when a step of another population succeeds, or trace: recorded traffic.' });

