/**
 * How a run's cost grows (a benchmark, not a test): wall time and peak RSS of one run, each
 * in its own process, against the simulated attempts, the population size, the number of
 * retry layers and the horizon. Cost should grow linearly in attempts, and memory should
 * follow what is in flight (queues, actions waiting, per-client state), never the horizon
 * or the number of events.
 *
 * Every probe is the reference model (scenarios/reference-storm.yaml, without its outage:
 * 80% load, 4 attempts, 1 s timeout) with one thing changed; the scenario is written as
 * YAML and read by the real loader. Each probe runs with a 2 GiB run budget, so none can
 * take more than a few GiB.
 *
 * Usage (from compiled JS; `npm run bench:cost --` builds first and passes the flags on):
 *   node dist/bench/cost.bench.js [--quick] [--only attempts,population,layers,horizon]
 *                                 [--max-attempts 1e7] [--write docs/benchmarks.md]
 *   --quick stops each series an order of magnitude early (a smoke run of a minute or two).
 *   --max-attempts skips the attempt probes above it and prints, for the next one up, a row
 *     extrapolated from the largest measured one (linear in attempts), marked as such.
 *   --write puts the table into that file between the cost-growth markers, instead of
 *     anyone typing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { loadScenario } from '../src/scenario/load.js';
import { simulate } from '../src/model/simulate.js';
import { runNode } from './whole-process.js';

/** One probe: the reference model's stable case with these changes. */
interface Probe {
  series: 'attempts' | 'population' | 'layers' | 'horizon';
  label: string;
  /** Actions per second, and slots to keep the load at 80% (100 ms service: 10/s a slot). */
  rate: number;
  clients: number;
  layers: number;
  horizonS: number;
  /** A circuit breaker per client: per-client state, to see memory follow the population. */
  breaker: boolean;
}

const BASE: Omit<Probe, 'series' | 'label'> = { rate: 800, clients: 10_000, layers: 1, horizonS: 3600, breaker: false };

/** The retry layers: the reference model's one layer (with a per-client breaker if asked), or
 * n nested layers, outermost first, of 2 tries each with timeouts that leave room for the
 * layers inside (1 s innermost, 4x per layer outwards). */
function layersYaml(p: Probe): string {
  const backoff = 'backoff: { kind: exponential, base: 1s, multiplier: 2, max: 8s, jitter: full }';
  if (p.layers === 1) {
    const breaker = p.breaker ? ', breaker: { window: { calls: 10 }, minimumCalls: 10 }' : '';
    return `    retry: { maxAttempts: 4, timeout: 1s, ${backoff}${breaker} }`;
  }
  const lines = ['    layers:'];
  for (let l = 0; l < p.layers; l++) lines.push(`      l${l}: { maxAttempts: 2, timeout: ${4 ** (p.layers - 1 - l)}s, ${backoff} }`);
  return lines.join('\n');
}

function scenarioYaml(p: Probe): string {
  const slots = Math.max(1, Math.round(p.rate / 8));
  return `name: cost-${p.series}-${p.label}
horizon: ${p.horizonS}s
clients:
  app:
    clients: ${p.clients}
    arrivals: { kind: constant, rate: ${p.rate}/s }
${layersYaml(p)}
server:
  slots: ${slots}
  queue: unbounded
  serviceTime: { kind: exponential, mean: 100ms }
`;
}

function probes(quick: boolean): Probe[] {
  const cut = <T>(xs: T[]) => (quick ? xs.slice(0, -1) : xs);
  const out: Probe[] = [];
  // Attempts: the rate (and slots) scaled over one simulated hour, about 3,600 attempts per action/s.
  for (const [label, rate] of cut([['1e5', 28], ['1e6', 278], ['1e7', 2778], ['1e8', 27_778]] as const)) {
    out.push({ ...BASE, series: 'attempts', label, rate });
  }
  for (const [label, clients] of cut([['1e3', 1e3], ['1e4', 1e4], ['1e5', 1e5], ['1e6', 1e6], ['1e7', 1e7]] as const)) {
    out.push({ ...BASE, series: 'population', label, clients, breaker: true });
  }
  for (const layers of quick ? [1, 2, 3] : [1, 2, 3, 4, 5]) out.push({ ...BASE, series: 'layers', label: String(layers), layers });
  // Horizon: at 100 actions/s (13 slots), so that 24 h stays a few minutes of work; what
  // matters is whether memory follows the horizon, not the rate.
  for (const [label, h] of cut([['1h', 1], ['2h', 2], ['6h', 6], ['12h', 12], ['24h', 24]] as const)) {
    out.push({ ...BASE, series: 'horizon', label, horizonS: h * 3600, rate: 100 });
  }
  return out;
}

interface Measured {
  attempts: number;
  events: number;
  /** The simulation alone. */
  simulateS: number;
  /** CPU seconds of the simulation alone, and of the whole process (user + system): less sensitive than wall time to other work on the machine. */
  simulateCpuS: number;
  cpuS: number;
}

/** Child mode: run one probe and print what it did. */
function runProbe(p: Probe): Measured {
  const s = loadScenario(scenarioYaml(p), `${p.series}-${p.label}.yaml`).base;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = simulate(s, 1, { budget: { memoryBytes: 2 * 1024 ** 3 } });
  const simulateS = (performance.now() - t0) / 1000;
  const c1 = process.cpuUsage(c0);
  const cpu = process.cpuUsage();
  return {
    attempts: r.totals.attempts,
    events: r.totals.eventsProcessed,
    simulateS,
    simulateCpuS: (c1.user + c1.system) / 1e6,
    cpuS: (cpu.user + cpu.system) / 1e6,
  };
}

const SERIES_DOC: Record<Probe['series'], string> = {
  attempts: 'the rate (and slots, keeping 80% load) scaled over 1 h',
  population: 'clients in the population, each with its own circuit breaker (10 calls)',
  layers: 'nested retry layers of 2 tries each (timeouts 1 s innermost, 4x outwards)',
  horizon: 'the simulated time, at 100 actions/s (13 slots)',
};

function main(): void {
  const args = process.argv.slice(2);
  const probeAt = args.indexOf('--probe');
  if (probeAt >= 0) {
    process.stdout.write(JSON.stringify(runProbe(JSON.parse(args[probeAt + 1]) as Probe)) + '\n');
    return;
  }
  const quick = args.includes('--quick');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(',')) : undefined;
  const maxAt = args.indexOf('--max-attempts');
  const maxAttempts = maxAt >= 0 ? Number(args[maxAt + 1]) : Infinity;
  if (!(maxAttempts > 0)) throw new Error(`--max-attempts takes a number such as 1e7 (got ${args[maxAt + 1]})`);
  const writeAt = args.indexOf('--write');
  const self = fileURLToPath(import.meta.url);
  const loads = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  say(`Generated by \`node dist/bench/cost.bench.js ${args.join(' ')}\` (one process per probe), node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC, load average at the start ${loads()}.`);
  say('');
  say('| series | probe | attempts | events | wall s (process) | CPU s (process) | simulate: wall s | simulate: CPU s | CPU µs per attempt | peak RSS MiB | load (1 min) |');
  say('|---|---|---|---|---|---|---|---|---|---|---|');
  let largest: { p: Probe; m: Measured; rss: number } | undefined;
  for (const p of probes(quick)) {
    if (only && !only.has(p.series)) continue;
    const label = Number(p.label);
    if (p.series === 'attempts' && label > maxAttempts) {
      if (largest) {
        const k = label / largest.m.attempts;
        const usPer = (largest.m.simulateCpuS / largest.m.attempts) * 1e6;
        say(`| ${p.series} | ${p.label} | not run: extrapolated from ${largest.p.label} | | | | | ~${(largest.m.simulateCpuS * k).toFixed(0)} (x${k.toFixed(1)}) | ${usPer.toFixed(3)} (assumed the same) | not measured | |`);
        largest = undefined;
      }
      continue;
    }
    const run = runNode([self, '--probe', JSON.stringify(p)]);
    const m = JSON.parse(run.stdout) as Measured;
    if (p.series === 'attempts') largest = { p, m, rss: run.peakRssMiB };
    say(
      `| ${p.series} | ${p.label} | ${m.attempts.toLocaleString('en-US')} | ${m.events.toLocaleString('en-US')} | ${run.wallS.toFixed(2)} | ${m.cpuS.toFixed(2)} | ${m.simulateS.toFixed(2)} | ${m.simulateCpuS.toFixed(2)} | ${((m.simulateCpuS / m.attempts) * 1e6).toFixed(3)} | ${run.peakRssMiB.toFixed(0)} | ${loadavg()[0].toFixed(1)} |`,
    );
  }
  say('');
  for (const [k, v] of Object.entries(SERIES_DOC)) if (!only || only.has(k)) say(`- ${k}: ${v}`);
  say(`- load average at the end: ${loads()}`);
  if (writeAt >= 0) writeTable(args[writeAt + 1], lines);
}

const BEGIN = '<!-- cost-growth:begin (written by bench/cost.bench.ts --write; do not edit by hand) -->';
const END = '<!-- cost-growth:end -->';

/** Replaces what is between the markers in `file` with the table. */
function writeTable(file: string, lines: string[]): void {
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${file} has no cost-growth markers:\n${BEGIN}\n${END}`);
  writeFileSync(file, `${text.slice(0, a + BEGIN.length)}\n${lines.join('\n')}\n${text.slice(b)}`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`cost benchmark: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
