/**
 * Gives V8's optimising compiler a larger inlining budget before the simulation's hot code
 * is compiled (it is imported by engine.ts, so by everything that simulates, in whichever
 * thread).
 *
 * Why: an event's work is a chain of small methods (the handler, the records, the
 * recorder, the heap or a lane), and V8 stops inlining into an optimised function once the
 * callees it has inlined reach --max-inlined-bytecode-size-cumulative bytes of bytecode
 * (920 by default). Past that, the rest of the chain is real calls and each callee is
 * compiled without knowing its caller's types. The reference model's stable case ran 1.3x
 * faster in CPU time with a budget of 4,000 (2,000: 1.2x; 8,000: no better than 4,000;
 * docs/benchmarks.md, "Night of 2026-12-02"). Inlining changes no result: JavaScript's
 * arithmetic is exactly IEEE 754 whether a function is inlined or not, so runs are the
 * same to the byte.
 *
 * V8's flags are the process's (worker threads share them); setting the same value again
 * from another thread changes nothing. A user who sets the flag on node's command line
 * keeps their value: we only raise it when it is still the default.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = '--max-inlined-bytecode-size-cumulative';
const BUDGET = 4000;

if (!process.execArgv.some((a) => a.startsWith(FLAG))) {
  setFlagsFromString(`${FLAG}=${BUDGET}`);
}
