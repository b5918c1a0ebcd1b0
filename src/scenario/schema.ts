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
import { observedSchema } from './observed-schema.js';
import { z } from 'zod';
import { durationSchema, rateSchema, name, positiveInt } from './schema-primitives.js';
import { populationSchema } from './schema-clients.js';
import { serverSchema } from './schema-server.js';
import { distributionSchema } from './schema-distributions.js';
import { arrivalsSchema } from './schema-arrivals.js';
import { faultSchema } from './schema-faults.js';
import { actionSchema } from './schema-actions.js';
import { LIMITS, formatCount } from './limits.js';
import { searchSchema } from './schema-search.js';
import { calibrateSchema } from './schema-calibrate.js';
import { AUTO_SEEDS_DEFAULT } from './seed-count.js';

// ── Measures ─────────────────────────────────────────────────────────────────

export const measuresSchema = z.strictObject({
  bucket: z
    .union([z.literal('auto'), durationSchema('Width of a time bucket in the series ("auto", or left out: about 1,000 buckets over the horizon, at least 1s).', { positive: true })])
    .transform((v) => (v === 'auto' ? undefined : v))
    .optional(),
  warmup: durationSchema('Start-up time left out of the pre-fault baseline.').prefault('60s'),
  hold: durationSchema('How long the service must stay healthy to count as recovered.').prefault('2m'),
  healthWindow: durationSchema('Width of the window health is judged over (default: the bucket width, widened to a round duration, at most the hold, until a window holds (5 / loadExcess)² attempts at the pre-fault load, so that ordinary traffic noise stays inside the load allowance); recovery time slides it a second at a time, so it is resolved to the second whatever the buckets.').optional(),
  successRatioDrop: z.number().min(0).max(1).default(0.02).meta({ description: 'Healthy: success ratio at least the pre-fault ratio minus this.' }),
  loadExcess: z.number().min(0).default(0.2).meta({ description: 'Healthy: offered load at most the pre-fault load times (1 + this).' }),
  perceivedOutageThreshold: z.number().min(0).max(1).default(0.9).meta({ description: 'Users perceive an outage while the success ratio is below this; below it before the first fault, a variant is marked unhealthy before the fault.' }),
  saturation: z.number().min(0).max(1).default(0.98).meta({ description: 'Busy slots over available slots, before the first fault, at or above which the server counts as saturated: the variant is marked unhealthy before the fault.' }),
  relapseUp: durationSchema('How long users must see the service up again, after the faults, before a fall counts as a relapse.').prefault('1m'),
  baseline: rateSchema('Declared 1x user-action rate (default: measured before the first fault).', { positive: true }).optional(),
});

// ── Variants ─────────────────────────────────────────────────────────────────

/**
 * Keys that describe the experiment rather than the world: an overlay cannot set them,
 * because the experiment is one (its seeds, sweep, checks and ranking apply to every
 * variant) and a value set in an overlay would be silently ignored.
 */
export const EXPERIMENT_KEYS = ['$schema', 'name', 'question', 'description', 'seed', 'seeds', 'sweep', 'search', 'calibrate', 'expectations', 'compare', 'observed', 'variants'] as const;

const overlayKey = z.string().refine((k) => !(EXPERIMENT_KEYS as readonly string[]).includes(k), {
  error: 'it belongs to the whole experiment, not to one variant: set it at the top level (an overlay changes the world: clients, server, faults, horizon, measures)',
});

export const variantSchema = z.strictObject({
  description: z.string().optional().meta({ description: 'What this policy changes, shown next to its results.' }),
  overlay: z
    .record(overlayKey, z.unknown())
    .default({})
    .meta({ description: 'Merged into the base scenario: mappings merge key by key; lists and values replace; a key set to null is removed (so a default or a preset applies again). It changes the world (clients, server, faults, horizon, measures), not the experiment (name, seeds, sweep, expectations, compare).', 'x-overlay': true }),
});

// ── Sweeps ──────────────────────────────────────────────────────────────────

const sweepValue = z.union([z.string(), z.number()]);

export const sweepSchema = z
  .strictObject({
    parameter: z.string().meta({ description: 'Path of the value to vary, e.g. faults[0].duration or clients.app.arrivals.rate; "load" multiplies every arrival rate.' }),
    values: z
      .array(sweepValue)
      .min(1, 'give at least one value')
      .max(LIMITS.sweepPoints, `at most ${formatCount(LIMITS.sweepPoints)} values in one sweep (a simulator limit, to keep validation and the runs within time): use fewer values, or a range with fewer steps`)
      .optional()
      .meta({ description: 'The values, written as in the scenario ("5m", "800/s", 0.9).' }),
    range: z
      .strictObject({
        from: sweepValue.meta({ description: 'The first value, written as in the scenario ("1m", "100/s", 0.5).' }),
        to: sweepValue.meta({ description: 'The last value, in the same unit as `from`.' }),
        steps: z
          .number({ error: 'expected a whole number of steps, at least 2' })
          .int('expected a whole number of steps, at least 2')
          .min(2, 'a range needs at least 2 steps (its two ends)')
          .max(LIMITS.sweepPoints, `at most ${formatCount(LIMITS.sweepPoints)} steps in one sweep (a simulator limit, to keep validation and the runs within time): use fewer steps`)
          .meta({ description: 'How many values, both ends included.' }),
      })
      .optional()
      .meta({ description: 'Evenly spaced values from `from` to `to` (same unit), `steps` of them.' }),
  })
  .refine((s) => (s.values === undefined) !== (s.range === undefined), 'give either values (a list) or range (from, to, steps), not both and not neither')
  .meta({ 'x-exactly-one-of': [['values'], ['range']] });

// ── Expectations ─────────────────────────────────────────────────────────────

const boundValue = z.union([z.number(), z.string()], { error: () => 'expected a number, or a duration such as "10m" for a measure in seconds' });

const changeValue = z.union([z.number(), z.string()], { error: () => 'expected a percentage such as "10%", or an amount in the measure\'s unit ("30s" for a measure in seconds, 0.05 for a share)' });

export const boundSchema = z
  .strictObject({
    atMost: boundValue.optional().meta({ description: 'Upper bound (in the measure\'s unit: a duration such as "10m" for seconds, a share between 0 and 1).' }),
    atLeast: boundValue.optional().meta({ description: 'Lower bound.' }),
    worsenBy: z
      .strictObject({
        atMost: changeValue.meta({ description: 'The most the measure may get worse (in its better direction) against the base: a percentage of the base\'s value ("10%"), or an amount in the measure\'s unit ("30s", 0.05). A measure whose null means the worst outcome (recovery time: never recovered) fails when the base had a value and the head has none.' }),
      })
      .optional()
      .meta({ description: 'A guard on change: checked only against a base (`retrystorm run --base DIR`, or `retrystorm diff`), on the mean across seeds at each matching variant and point; exit code 1 when the measure got worse by more than this. Absolute bounds can keep passing while a change makes a policy worse; this fails it.' }),
  })
  .refine((b) => b.atMost !== undefined || b.atLeast !== undefined || b.worsenBy !== undefined, 'give atMost, atLeast or worsenBy');

export const expectationSchema = z
  .object({
    variant: name.meta({ description: 'The variant this expectation is about.' }),
    population: name.optional().meta({ description: 'Check this population\'s users only (per-population measures; see docs/measures.md).' }),
    route: z.string().optional().meta({ description: 'Check the legitimate users of this route only (e.g. login; per-population measures).' }),
    tier: name.optional().meta({ description: 'Check one tier of the service graph: `server` (the edge) or a service of `services:`, with the per-tier measures (tierAmplification, tierPeakLoadMultiple, tierSuccess, …; see docs/measures.md).' }),
    at: z.record(z.string(), sweepValue).optional().meta({ description: 'Only at the sweep points with these values (default: every point).' }),
  })
  .catchall(boundSchema)
  .meta({
    description:
      'A check on the results; `retrystorm run` exits with code 1 when one fails. Any measure of docs/measures.md is a key, with atMost and/or atLeast: e.g. { variant: spread, recoveryTimeS: { atMost: 10m }, recovered: { atLeast: 0.95 } }, and/or a guard on change against a base: { recoveryTimeS: { worsenBy: { atMost: 10% } } }. Values are compared with the mean across seeds (recovered: the fraction of seeds).',
  });

// ── Comparison ───────────────────────────────────────────────────────────────

export const compareSchema = z
  .strictObject({
    for: z
      .strictObject({
        populations: z.array(name).min(1).optional().meta({ description: 'Only these client populations\' users.' }),
        routes: z.array(z.string()).min(1).optional().meta({ description: 'Only the users of populations calling these routes.' }),
      })
      .optional()
      .meta({ description: 'Whose users the verdict is about (default: every population whose role is user). Success, perceived outage and recovery are measured for them; load is the server\'s, whoever sends it.' }),
    objectives: z
      .array(z.string())
      .min(1)
      .optional()
      .meta({ description: 'The measures the ranking weighs, most important first, each in its better direction (default: recovered, recoveryTimeS, perceivedOutageS, originalSuccessAfterFault and the users\' latency, then the costs peakLoadMultiple, excessAttempts, wastedWorkShare, attemptsPerAction). A variant worse on every objective than another never ranks above it; between variants that trade objectives, the one better on more weight of them ranks first, and the order here breaks ties (docs/measures.md, The ranking). Variants unhealthy before the first fault, or below a floor, always rank last.' }),
    weights: z
      .record(z.string(), z.number().positive('a weight is a number above 0'))
      .optional()
      .meta({ description: 'How much each objective weighs when two variants trade objectives, e.g. { recoveryTimeS: 3, peakLoadMultiple: 1 } (default: 1 for each cost, and for each objective users feel the costs\' total plus 1, so the costs together never outweigh one thing users feel).' }),
    floors: z
      .array(
        z
          .object({ population: name.meta({ description: 'The client population whose users the floor protects.' }) })
          .catchall(boundSchema)
          .meta({ description: 'One population\'s floor: a per-population measure with atLeast or atMost, e.g. { population: signup, successRatio: { atLeast: 0.95 } }.' }),
      )
      .optional()
      .meta({ description: 'What no policy may sacrifice: a variant below a floor at a point is flagged and ranks below every variant healthy before the fault that meets its floors, however well it does otherwise. Without floors, a variant under which a population with role user or internal succeeds more than 3 points less than under the baseline before the first fault is flagged the same way.' }),
    baseline: name.optional().meta({ description: 'The variant the others are measured against (default: the first variant).' }),
    at: z
      .record(z.string(), sweepValue)
      .optional()
      .meta({ description: 'The sweep point the ranking reads, e.g. { "faults[0].duration": 12m } (quoted inside { }; default: every point, each ranked on its own).' }),
  })
  .meta({ description: 'How the report ranks the variants: which one the others are measured against, and at which sweep point.' });

// ── Seeds ────────────────────────────────────────────────────────────────────

const autoSeedsSchema = z
  .strictObject({
    start: positiveInt(LIMITS.seeds, 'seeds').default(AUTO_SEEDS_DEFAULT.start).meta({ description: `Seeds every variant runs at every sweep point first (default ${AUTO_SEEDS_DEFAULT.start}).` }),
    max: positiveInt(LIMITS.seeds, 'seeds').default(AUTO_SEEDS_DEFAULT.max).meta({ description: `The most seeds a variant gets at a sweep point (default ${AUTO_SEEDS_DEFAULT.max}). A cell doubles its seeds at each look (start, 2 x start, ... up to max).` }),
    budget: positiveInt(LIMITS.runs, 'runs').optional().meta({ description: 'The most runs the whole experiment may do; the seeds go first to the variants ranked highest. Default: no budget beyond max.' }),
  })
  .refine((a) => a.max >= a.start, { path: ['max'], message: 'max must be at least start (the seeds every cell runs first)' });

const seedsSchema = z
  .union([
    positiveInt(LIMITS.seeds, 'seeds'),
    z.literal('auto'),
    z.strictObject({ auto: autoSeedsSchema }),
  ], { error: () => 'expected a whole number of seeds, "auto", or { auto: { start, max, budget } }' })
  .default(1)
  .meta({
    description:
      'Runs per variant and sweep point, each with its own seed: a number, or "auto" (also { auto: { start, max, budget } }): every cell starts with a few seeds, and only the variants whose place in the ranking the paired seeds have not decided get more, judged at a confidence that keeps the chance of a false difference at 5% over every look (docs/measures.md "Seeds where they decide").',
  });

// ── Scenario ─────────────────────────────────────────────────────────────────

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: name.meta({ description: 'Short identifier; names the output folder (reports/<name>).' }),
    question: z.string().optional().meta({ description: 'The question this scenario answers, shown at the top of the report.' }),
    description: z.string().optional().meta({ description: 'Longer explanation, shown in the report.' }),
    horizon: durationSchema('Simulated time.'),
    seed: z.number().int().min(0).max(2 ** 31).default(1).meta({ description: 'Base seed; run i uses seed + i.' }),
    seeds: seedsSchema,
    measures: measuresSchema.prefault({}).meta({ description: 'How the run is bucketed and how recovery and outage are judged (see docs/measures.md).' }),
    clients: z
      .record(name, populationSchema)
      .refine((r) => Object.keys(r).length > 0, 'declare at least one client population')
      .meta({ description: 'Client populations by name.', minProperties: 1 }),
    server: serverSchema.meta({ description: 'The server under test: the service the client populations call (the edge of the graph when there are services).' }),
    services: z
      .record(name, serverSchema)
      .refine((r) => Object.keys(r).length <= LIMITS.services, `at most ${LIMITS.services} services (a simulator limit)`)
      .optional()
      .meta({ maxProperties: LIMITS.services, description: 'Further services by name, each a full server (instances, slots, queue, stages, service time, overload contract), called by the routes of the server or of other services (routes.<route>.services) through their own retry layers. Without any, the scenario is the single server (see docs/topologies.md).' }),
    faults: z.array(faultSchema).default([]).meta({ description: 'What goes wrong, and when (offsets from the start of the run).' }),
    actions: z.array(actionSchema).default([]).meta({ description: 'What operators (or their automation) do during the run, and when: at a time or on an alert (see docs/incidents.md).' }),
    sweep: z.array(sweepSchema).max(2, 'sweep one or two parameters').optional().meta({ description: 'Parameters to vary; every variant runs at every point (two parameters: every combination).' }),
    search: searchSchema.optional().meta({ description: 'Find each variant\'s tipping point: the value of one parameter at which the probability of recovering crosses a level, by an adaptive search (`retrystorm edge`, or with `run`; docs/search.md).' }),
    calibrate: calibrateSchema.optional().meta({ description: 'What `retrystorm calibrate` may change to make the incident match the `observed:` series: parameters with ranges, the variant that lived it (docs/calibrate.md).' }),
    expectations: z.array(expectationSchema).optional().meta({ description: 'Checks on the results, for CI: a failing one makes `run` exit with code 1.' }),
    observed: observedSchema,
    compare: compareSchema.optional().meta({ description: 'The ranking of the variants against a baseline, shown at the top of the report (default: against the first variant, at every sweep point).' }),
    variants: z
      .record(name, variantSchema)
      // An empty mapping would run nothing (and failed half way through writing the report).
      .refine((v) => Object.keys(v).length > 0, { message: 'an empty mapping of variants runs nothing: name at least one, or leave variants out to run the scenario as one variant "base"' })
      .optional()
      .meta({ description: 'Policy variants by name (overlays on this base scenario). Without any, the base runs as variant "base".' }),
  })
  .meta({ title: 'retrystorm scenario', description: 'A world of clients, a server and faults, and the policy variants to compare.' });

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type Arrivals = z.output<typeof arrivalsSchema>;
export type { Population, LayerInput, BudgetSpec, BreakerSpec, Behaviour } from './schema-clients.js';
export type ServerSpec = z.output<typeof serverSchema>;
export type { Fault } from './schema-faults.js';
export type { ActionSpec, Effect, Trigger } from './schema-actions.js';
export type Distribution = z.output<typeof distributionSchema>;
export type MeasuresSpec = z.output<typeof measuresSchema>;
export type Expectation = z.output<typeof expectationSchema>;
export type CompareSpec = z.output<typeof compareSchema>;
export type SweepSpec = z.output<typeof sweepSchema>;
export type { SearchSpec } from './schema-search.js';
export type { CalibrateSpec } from './schema-calibrate.js';
