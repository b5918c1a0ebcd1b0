/**
 * The engine benchmark (not a test: these machines are noisy, so it reports medians and
 * leaves judging to people). It runs the reference model of the foundation issue —
 * 10,000 clients, 800 actions/s, 100 slots, exponential 100 ms service, 1 s timeout, up to
 * 4 attempts with full-jitter backoff, the dependency down from 600 s to 720 s — as a
 * storm (1 h) and, without the outage, as a stable system (1 h and 10 h).
 *
 * Each case runs in its own child process so that its peak RSS is its own.
 * Usage: npm run bench [-- --reps 5]     (from compiled JS: node dist/bench/engine.bench.js)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../src/scenario/load.js';
import { simulate } from '../src/model/simulate.js';

const CASES = {
  'storm-1h': { horizon: '1h', outage: true },
  'stable-1h': { horizon: '1h', outage: false },
  'stable-10h': { horizon: '10h', outage: false },
} as const;
type CaseName = keyof typeof CASES;

export function referenceScenario(horizon: string, outage: boolean): string {
  return `
name: reference
horizon: ${horizon}
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 800/s }
    retry:
      maxAttempts: 4
      timeout: 1s
      # cap = min(8s, 0.5s x 2^retry), retry counted from 0 for the first retry
      backoff: { kind: exponential, base: 500ms, multiplier: 2, max: 8s, jitter: full }
server:
  slots: 100
  queue: unbounded
  serviceTime: { kind: exponential, mean: 100ms }
faults: ${outage ? '[{ kind: dependency-down, at: 600s, duration: 120s }]' : '[]'}
`;
}

interface Measured {
  case: CaseName;
  events: number;
  attempts: number;
  wallS: number;
  attemptsPerS: number;
  eventsPerS: number;
  peakRssMiB: number;
}

function runCase(name: CaseName): Measured {
  const c = CASES[name];
  const scenario = loadScenario(referenceScenario(c.horizon, c.outage), `${name}.yaml`).base;
  const t0 = performance.now();
  const record = simulate(scenario, 1);
  const wallS = (performance.now() - t0) / 1000;
  return {
    case: name,
    events: record.totals.eventsProcessed,
    attempts: record.totals.attempts,
    wallS,
    attemptsPerS: record.totals.attempts / wallS,
    eventsPerS: record.totals.eventsProcessed / wallS,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function main(): void {
  const args = process.argv.slice(2);
  const only = args.indexOf('--case');
  if (only >= 0) {
    process.stdout.write(JSON.stringify(runCase(args[only + 1] as CaseName)) + '\n');
    return;
  }
  const repsAt = args.indexOf('--reps');
  const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : 3;
  const self = fileURLToPath(import.meta.url);
  console.log(`retrystorm engine benchmark: ${reps} runs per case, each in its own process (node ${process.version})`);
  console.log('case         events        attempts      wall s   attempts/s   events/s     peak RSS MiB');
  const results: Record<string, Measured[]> = {};
  for (const name of Object.keys(CASES) as CaseName[]) {
    results[name] = [];
    for (let r = 0; r < reps; r++) {
      const p = spawnSync(process.execPath, [self, '--case', name], { encoding: 'utf8' });
      if (p.status !== 0) throw new Error(`case ${name} failed: ${p.stderr}`);
      results[name].push(JSON.parse(p.stdout) as Measured);
    }
    const rs = results[name];
    const med = (f: (m: Measured) => number) => median(rs.map(f));
    console.log(
      [
        name.padEnd(12),
        String(rs[0].events).padEnd(13),
        String(rs[0].attempts).padEnd(13),
        med((m) => m.wallS).toFixed(2).padEnd(8),
        Math.round(med((m) => m.attemptsPerS)).toLocaleString('en-US').padEnd(12),
        Math.round(med((m) => m.eventsPerS)).toLocaleString('en-US').padEnd(12),
        med((m) => m.peakRssMiB).toFixed(0),
      ].join(' '),
    );
  }
  const rss1 = median(results['stable-1h'].map((m) => m.peakRssMiB));
  const rss10 = median(results['stable-10h'].map((m) => m.peakRssMiB));
  console.log(`\nmedians over ${reps} runs; stable peak RSS 10h / 1h = ${(rss10 / rss1).toFixed(2)}`);
  console.log('targets: >= 1.5M attempts/s on every case; stable RSS at 10h no larger than at 1h');
}

main();
