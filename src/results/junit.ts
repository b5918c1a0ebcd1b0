/**
 * expectations.xml: the scenario's expectations as a JUnit XML report, the format CI systems
 * render as tests (GitLab's `artifacts:reports:junit`, GitHub Actions' JUnit reporters,
 * Jenkins), so that a broken expectation shows in the pipeline's test view with what was
 * measured, not only as an exit code and a line of the log.
 *
 * The shape: one <testsuites> for the experiment; one <testsuite> per sweep point (one for
 * the whole experiment without a sweep, and one for the bounds on tipping points, which are
 * the whole variant's), each with the tests, failures, errors and skipped counts the
 * renderers read; one <testcase> per checked bound, named as summary.md and the terminal
 * name the check ("recovery time at most 1m at faults[0].duration=5m"), its classname
 * "scenario/variant". A failed check has a <failure> whose message says what was measured
 * against the bound; a passed one says what was measured in <system-out>.
 *
 * A check is <skipped> when it could not be judged at all: on a shard's results (checked
 * when the shards are merged), at a point where no run finished (an interrupted or failed
 * experiment), or a tipping point the search did not find. A value the runs did not give
 * (a recovery time where a seed never recovered) is judged, as the CLI judges it: a failure.
 * So the file agrees with the exit code: a failure here is a failed expectation there.
 *
 * Same results, same bytes: no timestamp, host name or duration.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import { resolveMeasureReferences, scopeText } from '../experiment/expectations.js';
import { formatValue } from '../measures/format.js';
import { sameValue } from '../scenario/sweep.js';
import { valueText } from '../scenario/search-apply.js';
import type { Results } from './results.js';

/** A check that could not be judged, and why (see the module's comment). */
export interface UnjudgedCheck {
  variant: string;
  /** The sweep point's values ({} without a sweep, and for a tipping point). */
  at: Record<string, string | number>;
  /** The check in words, as a judged one's `check`. */
  check: string;
  why: string;
}

type Values = Record<string, string | number>;

/** " at faults[0].duration=5m" for a sweep point, as the checks' names say it; "" without one. */
const whereText = (at: Values) => (Object.keys(at).length ? ` at ${Object.entries(at).map(([k, x]) => `${k}=${x}`).join(', ')}` : '');

const boundWords = (kind: 'atMost' | 'atLeast') => (kind === 'atMost' ? 'at most' : 'at least');

const matches = (at: Values | undefined, values: Values) => !at || Object.entries(at).every(([k, v]) => Object.hasOwn(values, k) && sameValue(values[k], v));

/**
 * The checks of the scenario's expectations that the experiment could not judge: every check
 * of a shard, the checks at points where no run finished, the tipping points the search did
 * not give. The judged ones are `x.expectations`; these are what is left of the scenario's.
 */
export function unjudgedChecks(x: ExperimentResult): UnjudgedCheck[] {
  const sharded = x.shard !== undefined && x.shard.count > 1;
  const shardWhy = `this is shard ${x.shard?.index}/${x.shard?.count}: expectations are checked when the shards are merged ("retrystorm merge")`;
  const out: UnjudgedCheck[] = [];
  for (const e of resolveMeasureReferences(x.loaded, x.measures).expectations) {
    const v = x.variants.find((y) => y.name === e.variant);
    if (!v) continue;
    for (const p of v.points) {
      if (!matches(e.at, p.values) || (!sharded && p.runs > 0)) continue;
      const why = sharded ? shardWhy : 'no run of this variant at this point finished (the experiment was interrupted, or its runs failed)';
      for (const b of e.bounds) out.push({ variant: e.variant, at: p.values, check: `${b.measure.label}${scopeText(e.scope)} ${boundWords(b.kind)} ${formatValue(b.measure.unit, b.limit)}`, why });
    }
    const search = x.loaded.search;
    if (!search || e.tipping.length === 0 || x.search?.variants.some((s) => s.variant === e.variant)) continue;
    const why = sharded ? shardWhy : x.search ? 'the search gave no result for this variant' : 'the search did not run (an unsharded, uninterrupted "retrystorm run" runs it after the runs, "retrystorm edge" on its own)';
    for (const b of e.tipping) out.push({ variant: e.variant, at: {}, check: `tipping point of ${search.parameter} ${boundWords(b.kind)} ${valueText(search.kind, b.limit)}`, why });
  }
  return out;
}

// XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 on, less the
// surrogates and U+FFFE/U+FFFF; C1 controls (U+007F-U+009F) are allowed but discouraged, and
// some parsers refuse them. Names come from the user's scenario: all of these are dropped.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content: markup escaped, a carriage return kept as a reference (a parser turns a bare one into a line feed). */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** An attribute value in double quotes: also quotes escaped, and tab, line feed and carriage return as references (a parser would turn them into spaces). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

interface Case {
  name: string;
  classname: string;
  suite: string;
  /** The suite's place: tipping points (the whole variant's) first, then the sweep points in order. */
  order: number;
  body: string;
  failed: boolean;
  skipped: boolean;
}

/** Renders expectations.xml from the Results (the judged checks) and the checks that could not be judged. */
export function expectationsJunit(r: Pick<Results, 'scenario' | 'expectations' | 'sweep'>, unjudged: readonly UnjudgedCheck[] = []): string {
  const pointOrder = (at: Values) => {
    if (!Object.keys(at).length) return -1;
    const i = r.sweep?.points.findIndex((p) => matches(at, p.values) && matches(p.values, at)) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const classname = (variant: string) => `${r.scenario}/${variant}`;
  const suiteName = (at: Values) => `${r.scenario}${whereText(at)}`;
  const cases: Case[] = [];
  for (const e of r.expectations) {
    const name = `${e.check}${whereText(e.at)}`;
    const measured = `measured ${e.actual}`;
    const detail = `${e.name}: measured ${e.actual} (${e.measure} ${e.kind} ${e.limit}, value ${e.value ?? 'none'})`;
    const body = e.passed
      ? `<system-out>${xmlText(detail)}</system-out>`
      : `<failure message="${xmlAttr(`${measured}; expected ${e.check}`)}" type="expectation">${xmlText(detail)}</failure>`;
    cases.push({ name, classname: classname(e.variant), suite: suiteName(e.at), order: pointOrder(e.at), body, failed: !e.passed, skipped: false });
  }
  for (const u of unjudged) {
    cases.push({ name: `${u.check}${whereText(u.at)}`, classname: classname(u.variant), suite: suiteName(u.at), order: pointOrder(u.at), body: `<skipped message="${xmlAttr(`not judged: ${u.why}`)}"/>`, failed: false, skipped: true });
  }
  // Suites in a fixed order (a stable sort keeps each suite's cases in the order they were checked).
  const suites = new Map<string, Case[]>();
  for (const c of [...cases].sort((a, b) => a.order - b.order)) {
    const list = suites.get(c.suite) ?? [];
    list.push(c);
    suites.set(c.suite, list);
  }
  const counts = (cs: readonly Case[]) => `tests="${cs.length}" failures="${cs.filter((c) => c.failed).length}" errors="0" skipped="${cs.filter((c) => c.skipped).length}"`;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xmlAttr(r.scenario)}" ${counts(cases)}>`];
  // A scenario without expectations still gets one (empty) suite: some readers refuse a report without any.
  if (suites.size === 0) suites.set(r.scenario, []);
  for (const [name, cs] of suites) {
    lines.push(`  <testsuite name="${xmlAttr(name)}" ${counts(cs)}>`);
    for (const c of cs) lines.push(`    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}">${c.body}</testcase>`);
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}
