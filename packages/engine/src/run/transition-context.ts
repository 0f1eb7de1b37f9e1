import type { JsonObject, JsonValue, RunEventInput } from '@docflow/storage';
import type { StepType } from '../step-executor.ts';
import type { RunGraph } from './run-graph.ts';

/** Step types the engine runs itself, inline, without an executor or a queue item. */
export const CONTROL_STEP_TYPES: ReadonlySet<StepType> = new Set<StepType>([
  'TRIGGER',
  'CONDITIONAL',
  'RULE_VALIDATION',
  'HUMAN_REVIEW',
  'COLLECT',
  'WEBHOOK_RESPONSE',
]);

/** An engine event to emit once the commit that caused it has succeeded. */
export interface PendingEngineEvent {
  readonly eventType: string;
  /** The step run, for `workflow_run.step_run.processed`. */
  readonly stepRunId?: string;
  /** A payload of its own; default the run (or the step run). */
  readonly payload?: JsonObject;
  /** Deliver to this endpoint only, instead of routing by subscriptions. */
  readonly endpointId?: string;
}

/**
 * Work a transition asks for. Transitions say what should happen to executor step runs; the
 * runtime's work plan (`runtime/work-plan.ts`) decides how: a queue row, or a start in the same
 * commit when the engine has room for the step.
 */
export type WorkIntent =
  /** The step run is PENDING and may start (not before `at`, when given: a retry's backoff). */
  | { readonly type: 'run'; readonly stepRunId: string; readonly at?: string }
  /** The step run's pending attempt is no longer wanted (cancelled, failed run, invalidated). */
  | { readonly type: 'drop'; readonly stepRunId: string }
  /** The step run's executing attempt must stop, after the commit. */
  | { readonly type: 'abort'; readonly stepRunId: string };

/** What a transition causes besides the new snapshot; committed with it. */
export interface Effects {
  /** The run's event log entries. */
  readonly events: RunEventInput[];
  /** The interface events, prepared for the commit (payloads, outbox rows) and published after it. */
  readonly engineEvents: PendingEngineEvent[];
  readonly work: WorkIntent[];
  /**
   * Control steps (CONDITIONAL, RULE_VALIDATION, WEBHOOK_RESPONSE) that `drive` reached without
   * their evaluated inputs: the run store loads and evaluates them, then drives on.
   */
  readonly awaiting: string[];
}

/** A fresh effects collector. */
export function newEffects(): Effects {
  return { events: [], engineEvents: [], work: [], awaiting: [] };
}

/** The evaluation of a control step that computes something, from its loaded inputs. */
export type ControlResult =
  | {
      readonly kind: 'done';
      readonly output: JsonValue;
      readonly route?: string | null;
      /** An event the step raises (WEBHOOK_RESPONSE's `workflow_run.webhook_response`). */
      readonly event?: PendingEngineEvent;
    }
  | { readonly kind: 'fail'; readonly reason: string; readonly message: string };

/** What transitions read besides the state: all of it loaded before, so that they are synchronous. */
export interface TransitionContext {
  readonly graph: RunGraph;
  readonly now: string;
  newId(prefix: string): string;
  /** Evaluated control steps of this mutation, by step run id (see {@link Effects.awaiting}). */
  readonly controlResults: ReadonlyMap<string, ControlResult>;
}
