import type { JsonObject } from '@docflow/storage';
import type { WorkflowDefinition } from '../definition/workflow-definition.ts';
import { buildWorkflowGraph } from '../definition/workflow-graph.ts';
import type { StepType } from '../step-executor.ts';

/** A `next` entry as the runtime reads it. */
export interface RuntimeNext {
  readonly step: string;
  readonly classificationId?: string;
  readonly conditionId?: string;
  readonly result?: 'pass' | 'fail';
}

/** A step as the runtime reads it (a validated definition step). */
export interface RuntimeStep {
  readonly name: string;
  readonly type: StepType;
  readonly config?: JsonObject;
  readonly next?: readonly RuntimeNext[];
  /** Per-step retry overrides of the engine's policy. */
  readonly retry?: {
    readonly maxAttempts?: number;
    readonly initialIntervalMs?: number;
    readonly backoffCoefficient?: number;
    readonly maxIntervalMs?: number;
  };
  /** An attempt that runs longer is aborted through its AbortSignal. */
  readonly timeoutMs?: number;
}

/** A validated definition prepared for execution: lookups and reachability. */
export interface RunGraph {
  readonly steps: readonly RuntimeStep[];
  readonly trigger: RuntimeStep;
  step(name: string): RuntimeStep | undefined;
  /** True when a path at `from` can still arrive at `to` (`from !== to`). */
  canReach(from: string, to: string): boolean;
}

/** Builds the runtime view of a definition that already passed validation. */
export function toRunGraph(steps: readonly RuntimeStep[]): RunGraph {
  const graph = buildWorkflowGraph({ steps } as unknown as WorkflowDefinition);
  const byName = new Map(steps.map((s) => [s.name, s]));
  const trigger = byName.get(graph.trigger.name) as RuntimeStep;
  return {
    steps,
    trigger,
    step: (name) => byName.get(name),
    // The definition graph is reflexive; a path never "still reaches" the step it is at.
    canReach: (from, to) => from !== to && graph.canReach(from, to),
  };
}
