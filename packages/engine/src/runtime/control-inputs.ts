import type { JsonObject, JsonValue, StorageAdapter } from '@docflow/storage';
import { type ControlInputs, scopeValue } from '../run/control/evaluate-control.ts';
import type { RunGraph, RuntimeStep } from '../run/run-graph.ts';
import { toWorkflowRun } from '../run/run-resource.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';

/** How control-step inputs read step outputs (the run store's loaders). */
export interface OutputReader {
  /** The outputs a step run's path carries, by step name, each passed through `map`. */
  loadLineage(
    state: RunState,
    sr: StepRunState,
    map?: (source: StepRunState, output: JsonValue) => JsonValue,
  ): Promise<Record<string, JsonValue>>;
  /** A step run's output, from the snapshot or the blob store. */
  loadOutput(sr: StepRunState): Promise<JsonValue>;
}

/**
 * Loads what a CONDITIONAL, RULE_VALIDATION or WEBHOOK_RESPONSE step run is evaluated from: the
 * formula scope of its path (outputs from the snapshot or the blob store), and for
 * WEBHOOK_RESPONSE the run as `workflowRuns.get` shows it and the endpoint its own `url` got.
 * The transition that applies the evaluation then stays synchronous.
 */
export async function loadControlInputs(
  reader: OutputReader,
  storage: StorageAdapter,
  state: RunState,
  stepRun: StepRunState,
  step: RuntimeStep,
  graph?: RunGraph,
): Promise<ControlInputs> {
  const config = (step.config ?? {}) as JsonObject;
  const scope = await reader.loadLineage(state, stepRun, (source, output) =>
    scopeValue(source.stepType, output),
  );
  scope.metadata = state.metadata;
  const base = {
    stepType: step.type,
    stepName: stepRun.stepName,
    workflowRunId: state.id,
    config,
    scope,
  };
  if (step.type !== 'WEBHOOK_RESPONSE') return base;
  // Outputs kept in the blob store are loaded, so the body sees what workflowRuns.get shows.
  const stored = new Map<string, JsonValue>();
  for (const sr of state.stepRuns) {
    if (sr.outputRef !== undefined) stored.set(sr.id, await reader.loadOutput(sr));
  }
  let endpointId: string | undefined;
  if (typeof config.url === 'string') {
    const version = await storage.getDocument('workflowVersions', state.definitionId);
    const endpoints = (version?.data.stepEndpoints ?? {}) as Record<string, string>;
    endpointId = endpoints[stepRun.stepName];
  }
  return {
    ...base,
    run: toWorkflowRun(state, stored, undefined, graph) as unknown as JsonObject,
    endpointId,
  };
}
