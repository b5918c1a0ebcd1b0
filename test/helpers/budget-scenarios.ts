/**
 * Scenarios that would never end or would take the host's memory (issue 17's reproducers),
 * shared by the run-budget tests in-process (test/model) and as a process (test/cli).
 */

// Three layers of 1,000 tries with no backoff against a dependency that is down: every
// attempt fails at once and is retried at the same instant, a billion tries per action.
export const UNBOUNDED_TRIES = `
name: unbounded-tries
horizon: 1m
clients:
  app:
    clients: 100
    arrivals: { kind: constant, rate: 1/s }
    layers:
      outer: { maxAttempts: 1000, timeout: 10s, backoff: { kind: none } }
      middle: { maxAttempts: 1000, timeout: 5s, backoff: { kind: none } }
      inner: { maxAttempts: 1000, timeout: 1s, backoff: { kind: none } }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 0s, duration: 1h }
`;
