/**
 * A problem the semantic checks found: where (a path into the scenario) and what. Its own
 * file so the families of checks (semantics.ts, semantics-incidents.ts) share it without
 * importing each other.
 */
export interface SemanticProblem {
  path: PropertyKey[];
  message: string;
}
