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
import { durationSchema, rateSchema, name, positiveInt } from './schema-primitives.js';
import { populationSchema } from './schema-clients.js';
import { serverSchema } from './schema-server.js';
import { distributionSchema } from './schema-distributions.js';
import { arrivalsSchema } from './schema-arrivals.js';
import { faultSchema } from './schema-faults.js';
import { actionSchema } from './schema-actions.js';
import { LIMITS } from './limits.js';

// ── Measures ─────────────────────────────────────────────────────────────────

export const measuresSchema = z.strictObject({
  bucket: durationSchema('Width of a time bucket in the series ("auto": about 1,000 buckets over the horizon, at least 1s).').optional(),
  warmup: durationSchema('Start-up time left out of the pre-fault baseline.').prefault('60s'),
  hold: durationSchema('How long the service must stay healthy to count as recovered.').prefault('2m'),
  successRatioDrop: z.number().min(0).max(1).default(0.02).meta({ description: 'Healthy: success ratio at least the pre-fault ratio minus this.' }),
  loadExcess: z.number().min(0).default(0.2).meta({ description: 'Healthy: offered load at most the pre-fault load times (1 + this).' }),
  perceivedOutageThreshold: z.number().min(0).max(1).default(0.9).meta({ description: 'Users perceive an outage while the success ratio is below this.' }),
  relapseUp: durationSchema('How long users must see the service up again, after the faults, before a fall counts as a relapse.').prefault('1m'),
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
    route: z.string().optional().meta({ description: 'Check successRatio on this route\'s user actions only (e.g. login).' }),
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

// ── Comparison ───────────────────────────────────────────────────────────────

export const compareSchema = z
  .strictObject({
    baseline: name.optional().meta({ description: 'The variant the others are measured against (default: the first variant).' }),
    at: z
      .record(z.string(), sweepValue)
      .optional()
      .meta({ description: 'The sweep point the ranking reads, e.g. { "faults[0].duration": 12m } (quoted inside { }; default: every point, each ranked on its own).' }),
  })
  .meta({ description: 'How the report ranks the variants: which one the others are measured against, and at which sweep point.' });

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
    actions: z.array(actionSchema).default([]).meta({ description: 'What operators (or their automation) do during the run, and when: at a time or on an alert (see docs/incidents.md).' }),
    sweep: z.array(sweepSchema).max(2, 'sweep one or two parameters').optional().meta({ description: 'Parameters to vary; every variant runs at every point (two parameters: every combination).' }),
    expectations: z.array(expectationSchema).optional().meta({ description: 'Checks on the results, for CI: a failing one makes `run` exit with code 1.' }),
    compare: compareSchema.optional().meta({ description: 'The ranking of the variants against a baseline, shown at the top of the report (default: against the first variant, at every sweep point).' }),
    variants: z.record(name, variantSchema).optional().meta({ description: 'Policy variants by name (overlays on this base scenario). Without any, the base runs as variant "base".' }),
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
