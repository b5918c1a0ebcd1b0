/**
 * The server's pipeline of stages as the run changes it: the stages in order, the spec each
 * was made from, and the operator actions that add, remove and replace them, each with its
 * undo. It also keeps every rate-limit stage ever made, for the results.
 *
 * Why a module of its own: which stages are in the pipeline, and which an undo may put back,
 * is state only stage editing reads; the frontend only runs the stages, through the array
 * `stages`, which this edits in place (so the frontend may keep a reference to it).
 */
import type { Engine } from '../../engine/engine.js';
import type { Recorder } from '../recorder.js';
import type { Actions } from '../records.js';
import type { Instance } from './instance.js';
import type { Identities } from './request.js';
import type { RateLimitReport } from './rate-limit-report.js';
import { AdaptiveConcurrency, RetryDetection, type Stage, type StageSpec } from './stages.js';
import type { RateLimit } from './rate-limit-stage.js';
import { makeStage } from './make-stage.js';

/** What a stage is made with. */
export interface PipelineContext {
  instances: Instance[];
  ids: Identities;
  actions: Actions;
  rec: Recorder;
  engine: Engine;
  seed: number;
}

export class Pipeline {
  /** The stages in the order requests go through them (edited in place). */
  readonly stages: Stage[];
  /** The spec each stage was made from (same order as `stages`), to find a stage by kind. */
  private readonly specs: StageSpec[];
  /** Every rate-limit stage made, in order (also those an operator removed): for the results. */
  private readonly rateLimits: RateLimit[] = [];
  private readonly ctx: Parameters<typeof makeStage>[1];
  /** Stages an undone add-stage put in, replaced or removed by a later action meanwhile: that action's undo leaves them out. */
  private readonly withdrawn = new WeakSet<Stage>();

  constructor(specs: readonly StageSpec[], ctx: PipelineContext) {
    this.ctx = { ...ctx, rateLimits: this.rateLimits };
    this.specs = [...specs];
    this.stages = specs.map((st) => makeStage(st, this.ctx));
  }

  /** What each rate-limit stage made in this run saw (its store's queue, its top consumers), in the order they were made. */
  rateLimitReports(populations: readonly string[]): RateLimitReport[] {
    return this.rateLimits.map((st, i) => st.report(i, populations));
  }

  /** Peak size of the retry-detection table, if there is one (entries). */
  get fingerprintPeakEntries(): number {
    const d = this.stages.find((st): st is RetryDetection => st instanceof RetryDetection);
    return d ? d.peakEntries : 0;
  }

  /**
   * Adds a stage, before the first of kind `before` or at the end; returns the undo. An undo
   * takes back its own action only (as overridable.ts does for settings): when a later action
   * has replaced or removed the stage meanwhile, the stage is marked withdrawn, so that undoing
   * that later action does not put it back.
   */
  add(spec: StageSpec, before?: string): () => void {
    const stage = makeStage(spec, this.ctx);
    const at = before === undefined ? -1 : this.specs.findIndex((st) => st.kind === before);
    this.insert(at < 0 ? this.stages.length : at, stage, spec);
    return () => {
      const i = this.stages.indexOf(stage);
      if (i < 0) this.withdrawn.add(stage);
      else this.removeAt(i);
    };
  }

  /** Removes the first stage of a kind; returns the undo (nothing to undo when there was none). */
  remove(kind: string): () => void {
    const at = this.specs.findIndex((st) => st.kind === kind);
    if (at < 0) return () => {};
    const stage = this.stages[at], spec = this.specs[at];
    this.removeAt(at);
    return () => {
      if (!this.withdrawn.has(stage)) this.insert(Math.min(at, this.stages.length), stage, spec);
    };
  }

  /** Replaces the first stage of a kind (adds it at the end when there is none); returns the undo. */
  replace(kind: string, spec: StageSpec): () => void {
    const at = this.specs.findIndex((st) => st.kind === kind);
    if (at < 0) return this.add(spec);
    const old = this.stages[at], oldSpec = this.specs[at];
    const stage = makeStage(spec, this.ctx);
    this.removeAt(at);
    this.insert(at, stage, spec);
    return () => {
      const i = this.stages.indexOf(stage);
      if (i < 0) return;
      this.removeAt(i);
      if (!this.withdrawn.has(old)) this.insert(i, old, oldSpec);
    };
  }

  /** The kinds of the stages in the pipeline now, in order. */
  get kinds(): string[] {
    return this.specs.map((st) => st.kind);
  }

  // A request parked in a stage's delay resumes at the index after that stage; when the
  // pipeline changed meanwhile, that index is read in the new pipeline.
  private insert(at: number, stage: Stage, spec: StageSpec): void {
    this.stages.splice(at, 0, stage);
    this.specs.splice(at, 0, spec);
    if (stage instanceof AdaptiveConcurrency) stage.attach();
  }

  private removeAt(at: number): void {
    if (at < 0) return;
    const [stage] = this.stages.splice(at, 1);
    this.specs.splice(at, 1);
    if (stage instanceof AdaptiveConcurrency) stage.detach();
  }
}
