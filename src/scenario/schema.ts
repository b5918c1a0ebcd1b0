/**
 * The scenario file format: the single source of its types, defaults, limits and docs.
 * The loader validates against it, `retrystorm schema` prints it as JSON Schema for
 * editors, and docs/scenario-format.md is generated from it. Change the format here and
 * nowhere else.
 *
 * Durations and rates are written with units ("250ms", "1h30m", "800/s") and come out as
 * plain seconds and per-second numbers. Objects are strict: an unknown key is an error,
 * because a misspelt key silently ignored is a policy silently not tested.
 */
import { z } from 'zod';
import { parseDuration, parseRate } from './units.js';
import { LIMITS } from './limits.js';
import { FAILURE_CAUSES as FAILURE_KINDS } from '../model/series.js';

const durationSchema = (what: string) =>
  z
    .union([z.string(), z.number()], { error: () => 'expected a duration such as "250ms", "12m" or "1h30m"' })
    .transform((text, ctx) => {
      const r = parseDuration(text);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      return r.value;
    })
    .meta({ description: `${what} A duration with a unit: "250ms", "30s", "12m", "1h30m", "1d".`, 'x-unit': 'duration' });

const rateSchema = (what: string) =>
  z
    .union([z.string(), z.number()], { error: () => 'expected a rate such as "800/s" or "100/min"' })
    .transform((text, ctx) => {
      const r = parseRate(text);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message });
        return z.NEVER;
      }
      return r.value;
    })
    .meta({ description: `${what} A count per unit of time: "800/s", "100/min", "5000/h".`, 'x-unit': 'rate' });

const name = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'use letters, digits, "-" and "_" (it becomes a file and column name)');

const positiveInt = (max: number, what: string) =>
  z
    .number({ error: `expected a whole number (${what})` })
    .int(`expected a whole number (${what})`)
    .min(1, `must be at least 1 (${what})`)
    .max(max, `at most ${max.toLocaleString('en-US')} ${what} (this is a simulator limit, to keep a run within memory and time)`);

// ── Distributions ────────────────────────────────────────────────────────────

const percentileKey = /^p(100|\d{1,2}(\.\d+)?)$/;

export const distributionSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('constant'), value: durationSchema('The fixed value.') }),
    z.strictObject({
      kind: z.literal('uniform'),
      min: durationSchema('Smallest value.'),
      max: durationSchema('Largest value.'),
    }),
    z.strictObject({ kind: z.literal('exponential'), mean: durationSchema('Mean (1 / rate).') }),
    z.strictObject({
      kind: z.literal('lognormal'),
      mean: durationSchema('Mean of the distribution.'),
      p99: durationSchema('99th percentile; must be above the mean and at most ~15x it.'),
    }),
    z.strictObject({
      kind: z.literal('lognormal-params'),
      mu: z.number().meta({ description: 'Mean of ln(seconds).' }),
      sigma: z.number().positive().meta({ description: 'Standard deviation of ln(seconds).' }),
    }),
    z.strictObject({
      kind: z.literal('empirical'),
      percentiles: z
        .record(z.string().regex(percentileKey, 'percentile keys look like p0, p50, p99.9, p100'), durationSchema('Value at this percentile.'))
        .meta({ description: 'Measured percentiles, e.g. {p0: 5ms, p50: 40ms, p99: 900ms, p100: 3s}; p0 and p100 are required. Values between are interpolated linearly.' }),
    }),
  ], { error: () => 'expected kind: constant, uniform, exponential, lognormal, lognormal-params or empirical' })
  .meta({ description: 'A distribution of durations.' });

// ── Arrivals ─────────────────────────────────────────────────────────────────

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
  ], { error: () => 'expected kind: constant, steps, ramp or diurnal' })
  .meta({ description: 'How user actions arrive (a Poisson process whose rate follows this profile).' });

// ── Clients ──────────────────────────────────────────────────────────────────


export const backoffSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('none') }).meta({ description: 'Retry at once.' }),
    z.strictObject({ kind: z.literal('constant'), delay: durationSchema('Wait between attempts.') }),
    z.strictObject({
      kind: z.literal('exponential'),
      base: durationSchema('Wait cap before the first retry (before jitter).').prefault('100ms'),
      multiplier: z.number().min(1).default(2).meta({ description: 'Growth per retry.' }),
      max: durationSchema('Upper bound on the wait (before jitter).').prefault('10s'),
      jitter: z.enum(['none', 'full']).default('full').meta({ description: 'full: wait uniform(0, cap) (AWS "full jitter"); none: wait exactly the cap.' }),
    }),
  ], { error: () => 'expected kind: none, constant or exponential' })
  .meta({ description: 'Wait before a retry. Exponential: cap = min(max, base * multiplier^(retry-1)).' });

export const retrySchema = z
  .strictObject({
    maxAttempts: positiveInt(LIMITS.maxAttempts, 'attempts per action').default(3).meta({ description: 'Attempts per user action, the first try included (1 = no retries).' }),
    timeout: z
      .union([z.literal('none'), durationSchema('Per-try timeout.')])
      .prefault('none')
      .meta({ description: 'Per-try timeout: after it the client stops waiting and the attempt fails with cause "timeout" ("none": wait for the answer).' }),
    backoff: backoffSchema.prefault({ kind: 'exponential' }),
    retryOn: z
      .array(z.enum(FAILURE_KINDS))
      .default([...FAILURE_KINDS])
      .meta({ description: 'Failure causes that are retried; others end the action at once.' }),
  })
  .meta({ description: 'The client retry layer.' });

export const populationSchema = z.strictObject({
  description: z.string().optional().meta({ description: 'Who these clients are.' }),
  clients: positiveInt(LIMITS.clients, 'clients per population').default(1000).meta({ description: 'Number of distinct clients (each user action belongs to one, drawn uniformly).' }),
  arrivals: arrivalsSchema,
  retry: retrySchema.prefault({}),
});

// ── Server ───────────────────────────────────────────────────────────────────

export const serverSchema = z.strictObject({
  slots: positiveInt(LIMITS.slots, 'concurrency slots').meta({ description: 'Attempts served at once.' }),
  queue: z
    .union([z.literal('unbounded'), z.number().int().min(0).max(LIMITS.queue)])
    .default('unbounded')
    .meta({ description: 'FIFO queue capacity in attempts; a full queue rejects at once (cause "queue-full"). 0 = no queue.' }),
  serviceTime: distributionSchema.meta({ description: 'Slot time of one attempt.' }),
  failFastTime: durationSchema('Slot time of an attempt that fails fast because the dependency is down.').prefault('0s'),
});

// ── Faults ───────────────────────────────────────────────────────────────────

export const faultSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('dependency-down'),
      at: durationSchema('Start, as an offset from the start of the run.'),
      duration: durationSchema('How long the dependency stays down.'),
    }).meta({ description: 'The server\'s dependency is down: an attempt that reaches a slot fails fast.' }),
    z.strictObject({
      kind: z.literal('capacity-cut'),
      at: durationSchema('Start, as an offset from the start of the run.'),
      duration: durationSchema('How long the cut lasts.'),
      slots: z.number().int().min(0).meta({ description: 'Slots left during the cut.' }),
    }).meta({ description: 'The server loses capacity: attempts in service finish, but no new one starts above the remaining slots.' }),
  ], { error: () => 'expected kind: dependency-down or capacity-cut' });

// ── Measures ─────────────────────────────────────────────────────────────────

export const measuresSchema = z.strictObject({
  bucket: durationSchema('Width of a time bucket in the series ("auto": about 1,000 buckets over the horizon, at least 1s).').optional(),
  warmup: durationSchema('Start-up time left out of the pre-fault baseline.').prefault('60s'),
  hold: durationSchema('How long the service must stay healthy to count as recovered.').prefault('2m'),
  successRatioDrop: z.number().min(0).max(1).default(0.02).meta({ description: 'Healthy: success ratio at least the pre-fault ratio minus this.' }),
  loadExcess: z.number().min(0).default(0.2).meta({ description: 'Healthy: offered load at most the pre-fault load times (1 + this).' }),
  perceivedOutageThreshold: z.number().min(0).max(1).default(0.9).meta({ description: 'Users perceive an outage while the success ratio is below this.' }),
  baseline: rateSchema('Declared 1x user-action rate (default: measured before the first fault).').optional(),
});

// ── Variants ─────────────────────────────────────────────────────────────────

export const variantSchema = z.strictObject({
  description: z.string().optional().meta({ description: 'What this policy changes, shown next to its results.' }),
  overlay: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: 'Merged into the base scenario (objects merge key by key; lists and values replace).' }),
});

// ── Sweeps ──────────────────────────────────────────────────────────────────

const sweepValue = z.union([z.string(), z.number()]);

export const sweepSchema = z
  .strictObject({
    parameter: z.string().meta({ description: 'Path of the value to vary, e.g. faults[0].duration or clients.app.arrivals.rate; "load" multiplies every arrival rate.' }),
    values: z.array(sweepValue).min(1).optional().meta({ description: 'The values, written as in the scenario ("5m", "800/s", 0.9).' }),
    range: z
      .strictObject({
        from: sweepValue,
        to: sweepValue,
        steps: z.number().int().min(2).max(LIMITS.sweepPoints),
      })
      .optional()
      .meta({ description: 'Evenly spaced values from `from` to `to` (same unit), `steps` of them.' }),
  })
  .refine((s) => (s.values === undefined) !== (s.range === undefined), 'give either values or range');

// ── Expectations ─────────────────────────────────────────────────────────────

const atMostDuration = z.strictObject({ atMost: durationSchema('Upper bound.') });
const fractionAtLeast = z.strictObject({ atLeast: z.number().min(0).max(1) });
const numberAtMost = z.strictObject({ atMost: z.number().min(0) });

export const expectationSchema = z
  .strictObject({
    variant: name.meta({ description: 'The variant this expectation is about.' }),
    at: z.record(z.string(), sweepValue).optional().meta({ description: 'Only at the sweep points with these values (default: every point).' }),
    recoveryTime: atMostDuration.optional().meta({ description: 'Mean recovery time across seeds at most this (fails when a seed did not recover).' }),
    recovered: fractionAtLeast.optional().meta({ description: 'Fraction of seeds that recovered at least this.' }),
    perceivedOutage: atMostDuration.optional().meta({ description: 'Mean perceived outage at most this.' }),
    peakLoadMultiple: numberAtMost.optional().meta({ description: 'Mean peak offered load multiple at most this.' }),
    peakRetryShare: z.strictObject({ atMost: z.number().min(0).max(1) }).optional().meta({ description: 'Mean peak retry share at most this.' }),
    successRatio: fractionAtLeast.optional().meta({ description: 'Mean success ratio of user actions at least this.' }),
    attemptsPerAction: numberAtMost.optional().meta({ description: 'Mean attempts per user action at most this.' }),
  })
  .meta({ description: 'A check on the results; `retrystorm run` exits with code 1 when one fails.' });

// ── Scenario ─────────────────────────────────────────────────────────────────

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: name.meta({ description: 'Short identifier; names the output folder (reports/<name>).' }),
    question: z.string().optional().meta({ description: 'The question this scenario answers, shown at the top of the report.' }),
    description: z.string().optional().meta({ description: 'Longer explanation, shown in the report.' }),
    horizon: durationSchema('Simulated time.'),
    seed: z.number().int().min(0).max(2 ** 31).default(1).meta({ description: 'Base seed; run i uses seed + i.' }),
    seeds: positiveInt(LIMITS.seeds, 'seeds').default(1).meta({ description: 'Runs per variant, each with its own seed.' }),
    measures: measuresSchema.prefault({}).meta({ description: 'How the run is bucketed and how recovery and outage are judged (see docs/measures.md).' }),
    clients: z
      .record(name, populationSchema)
      .refine((r) => Object.keys(r).length > 0, 'declare at least one client population')
      .meta({ description: 'Client populations by name.' }),
    server: serverSchema.meta({ description: 'The server under test.' }),
    faults: z.array(faultSchema).default([]).meta({ description: 'What goes wrong, and when (offsets from the start of the run).' }),
    sweep: z.array(sweepSchema).max(2, 'sweep one or two parameters').optional().meta({ description: 'Parameters to vary; every variant runs at every point (two parameters: every combination).' }),
    expectations: z.array(expectationSchema).optional().meta({ description: 'Checks on the results, for CI: a failing one makes `run` exit with code 1.' }),
    variants: z.record(name, variantSchema).optional().meta({ description: 'Policy variants by name (overlays on this base scenario). Without any, the base runs as variant "base".' }),
  })
  .meta({ title: 'retrystorm scenario', description: 'A world of clients, a server and faults, and the policy variants to compare.' });

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type Population = z.output<typeof populationSchema>;
export type RetryPolicy = z.output<typeof retrySchema>;
export type Backoff = z.output<typeof backoffSchema>;
export type Arrivals = z.output<typeof arrivalsSchema>;
export type ServerSpec = z.output<typeof serverSchema>;
export type Fault = z.output<typeof faultSchema>;
export type Distribution = z.output<typeof distributionSchema>;
export type MeasuresSpec = z.output<typeof measuresSchema>;
export type Expectation = z.output<typeof expectationSchema>;
export type SweepSpec = z.output<typeof sweepSchema>;

/** The JSON Schema for editors (`# yaml-language-server: $schema=...`). Input side: defaulted keys are optional. */
export function scenarioJsonSchema(): object {
  return z.toJSONSchema(scenarioSchema, {
    io: 'input',
    unrepresentable: 'any',
    // Durations and rates accept a bare number only to explain that it needs a unit;
    // editors should offer (and check) the string forms.
    override: ({ jsonSchema }) => {
      const unit = jsonSchema['x-unit'];
      if (unit !== 'duration' && unit !== 'rate') return;
      delete jsonSchema['x-unit'];
      delete jsonSchema.anyOf;
      jsonSchema.type = 'string';
      jsonSchema.pattern = unit === 'duration' ? DURATION_PATTERN : RATE_PATTERN;
    },
  });
}

const DURATION_PATTERN = '^\\s*(\\d+(\\.\\d+)?(ms|s|m|h|d))+\\s*$';
const RATE_PATTERN = '^\\s*\\d+(\\.\\d+)?(e\\d+)?\\s*/\\s*(s|sec|second|m|min|minute|h|hour|d|day)\\s*$';
