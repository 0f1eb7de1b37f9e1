import { assertNoIssues } from '../errors.ts';
import { analyzeGraph } from './analyze-graph.ts';
import { viewSteps } from './step-view.ts';
import type { StepDefinition, TriggerStep, WorkflowDefinition } from './workflow-definition.ts';

/** The step graph of a valid definition, precomputed for the runtime. */
export interface WorkflowGraph {
  /** The steps in definition order. */
  readonly steps: readonly StepDefinition[];
  /** Steps by name. */
  readonly stepByName: ReadonlyMap<string, StepDefinition>;
  /** The TRIGGER, where every run starts. */
  readonly trigger: TriggerStep;
  /** Every step name such that each step comes after all its predecessors (ties: definition order). */
  readonly topologicalOrder: readonly string[];
  /** The step of `name`; throws for an unknown name (a programming error in the engine). */
  step(name: string): StepDefinition;
  /** Distinct names `next` routes to from `name`, in `next` order. */
  successors(name: string): readonly string[];
  /** Distinct names of the steps whose `next` routes to `name`, in definition order. */
  predecessors(name: string): readonly string[];
  /**
   * True when a path at `from` can still arrive at `to` (reflexive: a step reaches itself).
   * COLLECT waits while any live path elsewhere can reach it.
   */
  canReach(from: string, to: string): boolean;
}

/**
 * Indexes a validated definition for the runtime: steps by name, successors, predecessors,
 * topological order and reachability (one bitset row per step, computed once).
 * Throws EngineError VALIDATION_FAILED when the graph is not a DAG rooted at one TRIGGER; run
 * `validateWorkflowDefinition` first to get every other issue too.
 *
 * @example
 * const graph = buildWorkflowGraph(version.definition);
 * const mustWait = livePaths.some((p) => p.step !== collect && graph.canReach(p.step, collect));
 */
export function buildWorkflowGraph(definition: WorkflowDefinition): WorkflowGraph {
  const views = viewSteps(definition) ?? [];
  const analysis = analyzeGraph(views);
  assertNoIssues(analysis.issues, 'workflow definition');
  const steps = definition.steps;
  const n = steps.length;
  const trigger = steps[analysis.triggerIndex ?? -1];
  if (trigger?.type !== 'TRIGGER') throw new Error('unreachable: analyzeGraph found a TRIGGER');

  const predecessorIndices: number[][] = steps.map(() => []);
  const inDegree = new Array<number>(n).fill(0);
  analysis.successors.forEach((targets, from) => {
    for (const to of targets) {
      predecessorIndices[to]?.push(from);
      inDegree[to] = (inDegree[to] ?? 0) + 1;
    }
  });

  // Kahn's algorithm, always taking the lowest ready index so the order is stable.
  const order: number[] = [];
  const ready = new Set<number>();
  inDegree.forEach((d, i) => {
    if (d === 0) ready.add(i);
  });
  while (ready.size > 0) {
    const next = Math.min(...ready);
    ready.delete(next);
    order.push(next);
    for (const to of analysis.successors[next] ?? []) {
      inDegree[to] = (inDegree[to] ?? 0) - 1;
      if (inDegree[to] === 0) ready.add(to);
    }
  }

  // Reachability as bitsets, filled in reverse topological order: reach(v) = {v} ∪ reach(succ).
  const words = Math.ceil(n / 32);
  const reach = new Uint32Array(n * words);
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k] ?? 0;
    const row = v * words;
    reach[row + (v >>> 5)] = (reach[row + (v >>> 5)] ?? 0) | (1 << (v & 31));
    for (const s of analysis.successors[v] ?? []) {
      const other = s * words;
      for (let w = 0; w < words; w++) {
        reach[row + w] = (reach[row + w] ?? 0) | (reach[other + w] ?? 0);
      }
    }
  }

  const indexByName = analysis.indexByName;
  const stepByName = new Map<string, StepDefinition>(steps.map((s) => [s.name, s]));
  const indexOf = (name: string): number => {
    const index = indexByName.get(name);
    if (index === undefined) throw new Error(`Unknown step "${name}"`);
    return index;
  };
  const nameOf = (i: number): string => steps[i]?.name ?? '';
  const successorNames = analysis.successors.map((targets) => targets.map(nameOf));
  const predecessorNames = predecessorIndices.map((sources) =>
    [...sources].sort((a, b) => a - b).map(nameOf),
  );

  return {
    steps,
    stepByName,
    trigger,
    topologicalOrder: order.map(nameOf),
    step: (name) => steps[indexOf(name)] as StepDefinition,
    successors: (name) => successorNames[indexOf(name)] ?? [],
    predecessors: (name) => predecessorNames[indexOf(name)] ?? [],
    canReach: (from, to) => {
      const f = indexOf(from);
      const t = indexOf(to);
      return (((reach[f * words + (t >>> 5)] ?? 0) >>> (t & 31)) & 1) === 1;
    },
  };
}
