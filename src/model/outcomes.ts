/**
 * What each outcome of a try means on the wire: the status a client library sees and
 * whether the server marks it retryable. Retry layers decide on these (retryOn: 5xx, 429,
 * timeout…), so the mapping is defined once, here.
 */
import { FAILURE_CAUSES, type FailureCause } from './series.js';

export const OUTCOME_OK = 0;

/** Outcome code of a failure cause (1 + its index). */
export const outcomeOf = (cause: FailureCause): number => 1 + FAILURE_CAUSES.indexOf(cause);

export const OUTCOME_TIMEOUT = outcomeOf('timeout');
export const OUTCOME_DEPENDENCY = outcomeOf('dependency');
export const OUTCOME_QUEUE_FULL = outcomeOf('queue-full');
export const OUTCOME_SHED = outcomeOf('shed');
export const OUTCOME_SERVER_DEADLINE = outcomeOf('server-deadline');
export const OUTCOME_RATE_LIMITED = outcomeOf('rate-limited');
export const OUTCOME_INVALID = outcomeOf('invalid');
export const OUTCOME_RESET = outcomeOf('reset');
export const OUTCOME_REFUSED_LOCALLY = outcomeOf('refused-locally');
export const OUTCOME_UNSUPPORTED_VERSION = outcomeOf('unsupported-version');
export const OUTCOME_BLOCKED = outcomeOf('blocked');
export const OUTCOME_DISABLED = outcomeOf('disabled');
export const OUTCOME_ERROR = outcomeOf('error');
export const OUTCOME_EXECUTION_DEADLINE = outcomeOf('execution-deadline');
export const OUTCOME_CHALLENGED = outcomeOf('challenged');

export const OUTCOME_COUNT = 1 + FAILURE_CAUSES.length;

const DEFAULT_ANSWER: Record<FailureCause, { status: number; retryable: boolean }> = {
  // No response at all: the client gave up waiting, or the connection was reset.
  timeout: { status: 0, retryable: true },
  reset: { status: 0, retryable: true },
  // 503 Service Unavailable: the server's dependency failed, or it shed load.
  dependency: { status: 503, retryable: true },
  'queue-full': { status: 503, retryable: true },
  shed: { status: 503, retryable: true },
  'server-deadline': { status: 503, retryable: true },
  // 429 Too Many Requests from a rate limiter.
  'rate-limited': { status: 429, retryable: true },
  // 400 Bad Request: the same request will always fail.
  invalid: { status: 400, retryable: false },
  // Refused before sending (breaker open, client-side throttling): nothing reached the wire.
  'refused-locally': { status: 0, retryable: false },
  // 426 Upgrade Required: the client's version is below the server's minimum. A cause of
  // its own, not 'invalid' (400): the request is fine, the app is too old, and the measures
  // must not count a forced upgrade as a validation loop. Not retryable: only an upgrade helps.
  'unsupported-version': { status: 426, retryable: false },
  // 403 Forbidden from the edge: an operator blocked this client (a population, a version,
  // a share of IPs). Not retryable: nothing changes until someone lifts the block.
  blocked: { status: 403, retryable: false },
  // 503 from the edge: an operator switched the route off. Retryable: it will come back.
  disabled: { status: 503, retryable: true },
  // A request that failed on its own (an error-rate fault): 500 by default; the fault may
  // say 502, 503 or 504 and whether it is retryable (server.faults[].status / retryable).
  error: { status: 500, retryable: true },
  // The server's execution deadline cut a request that ran too long and freed its slot.
  'execution-deadline': { status: 503, retryable: true },
  // 403 with a challenge from the edge's bot challenge (a CAPTCHA page): the request is fine
  // once a person has solved it, so it may be sent again; a client library alone cannot.
  challenged: { status: 403, retryable: true },
};

/**
 * The response contract of one run: status and retryable flag of every outcome, indexed by
 * outcome code. The server's overload refusals (queue full, shed) answer with the status and
 * flag the scenario chose (server.overload.status / retryable), and the errors of an
 * error-rate fault with the fault's; everything else is fixed.
 */
export interface ResponseContract {
  status: number[];
  retryable: boolean[];
}

export function responseContract(overload: { status?: 503 | 429; retryable?: boolean } = {}, error: { status?: number; retryable?: boolean } = {}): ResponseContract {
  const status = [200], retryable = [false];
  for (const cause of FAILURE_CAUSES) {
    const w = DEFAULT_ANSWER[cause];
    const chosen = cause === 'queue-full' || cause === 'shed' ? overload : cause === 'error' ? error : {};
    status.push(chosen.status ?? w.status);
    retryable.push(chosen.retryable ?? w.retryable);
  }
  return { status, retryable };
}

/**
 * Whether an answer carries a Retry-After: it travels as seconds, NaN when there is none
 * (a number, so that the hot path passes it without allocating). NaN is the one value not
 * equal to itself.
 */
export function carriesRetryAfter(seconds: number): boolean {
  return seconds === seconds;
}

/** The contract when the scenario says nothing about overload answers. */
export const DEFAULT_CONTRACT = responseContract();

/** Status code of an outcome (200 for ok, 0 when no response came back). */
export function statusOf(outcome: number, w: ResponseContract = DEFAULT_CONTRACT): number {
  return w.status[outcome];
}

/** The server's `retryable` flag on an outcome. */
export function retryableFlagOf(outcome: number, w: ResponseContract = DEFAULT_CONTRACT): boolean {
  return w.retryable[outcome];
}
