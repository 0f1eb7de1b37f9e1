import type { JsonObject } from '@docflow/storage';
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
  const byName = new Map(steps.map((s) => [s.name, s]));
  const trigger = steps.find((s) => s.type === 'TRIGGER');
  if (!trigger) throw new Error('definition has no TRIGGER (it should have failed validation)');
  const reach = new Map<string, Set<string>>();
  const visit = (name: string): Set<string> => {
    const known = reach.get(name);
    if (known) return known;
    const out = new Set<string>();
    reach.set(name, out);
    for (const n of byName.get(name)?.next ?? []) {
      out.add(n.step);
      for (const r of visit(n.step)) out.add(r);
    }
    return out;
  };
  for (const s of steps) visit(s.name);
  return {
    steps,
    trigger,
    step: (name) => byName.get(name),
    canReach: (from, to) => reach.get(from)?.has(to) ?? false,
  };
}
