import type { JsonObject, JsonValue } from '@docflow/storage';
import { assertNoIssues, type ValidationIssue } from '../errors.ts';
import { evaluateControl, scopeValue } from '../run/control/evaluate-control.ts';
import type { Correction } from '../run/review.ts';
import type { RunGraph, RuntimeStep } from '../run/run-graph.ts';
import { lineageOf } from '../run/run-lineage.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import type { RunStore } from '../runtime/run-store.ts';
import { userSchemaIssues } from '../validation/json-schema.ts';

/** A corrected output given with an approval. */
export interface ReviewOutput {
  /** The step whose output is corrected, by step name (or `stepRunId` when a step ran on several paths). */
  readonly stepName?: string;
  readonly stepRunId?: string;
  readonly output: JsonValue;
}

/** Input of `workflowRuns.review`. */
export interface ReviewInput {
  readonly decision: 'approve' | 'reject';
  /** The reviewer's e-mail address (the interface's `reviewedByUser`). */
  readonly reviewer: string;
  readonly note?: string;
  readonly outputs?: readonly ReviewOutput[];
}

/** Step types whose outputs a reviewer may correct. */
const REVIEWABLE: ReadonlySet<string> = new Set([
  'EXTRACT',
  'CLASSIFY',
  'SPLIT',
  'MERGE_EXTRACT',
  'CONDITIONAL_EXTRACT',
]);

/** Every problem of a review decision's input, with paths. */
export function reviewInputIssues(input: ReviewInput | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input?.decision !== 'approve' && input?.decision !== 'reject') {
    issues.push({
      code: 'INVALID_DECISION',
      path: 'decision',
      message: 'must be "approve" or "reject"',
    });
  }
  if (typeof input?.reviewer !== 'string' || input.reviewer.trim() === '') {
    issues.push({
      code: 'REQUIRED',
      path: 'reviewer',
      message: 'the reviewer (an e-mail address) is required',
    });
  }
  if (input?.note !== undefined && typeof input.note !== 'string') {
    issues.push({ code: 'INVALID_TYPE', path: 'note', message: 'must be a string' });
  }
  if (input?.outputs !== undefined && input.decision === 'reject') {
    issues.push({
      code: 'NOT_ALLOWED',
      path: 'outputs',
      message: 'corrected outputs are only taken with "approve"',
    });
  }
  return issues;
}

/**
 * The inputs of a review decision, loaded under the run's lock before the transition: the step
 * run each corrected output belongs to, with its output before the correction; corrected
 * extraction values checked against the extractor's schema; and the RULE_VALIDATION steps that
 * read a corrected output, evaluated again over the corrected outputs. Throws VALIDATION_FAILED
 * naming every output that names no processed, reviewable step run or does not fit its schema,
 * and changes nothing.
 */
export async function loadCorrections(
  store: RunStore,
  s: RunState,
  outputs: readonly ReviewOutput[],
): Promise<Correction[]> {
  const issues: ValidationIssue[] = [];
  const planned: Correction[] = [];
  const graph = await store.graph(s.definitionId);
  for (const [i, o] of outputs.entries()) {
    const path = `outputs[${i}]`;
    const candidates = s.stepRuns.filter(
      (sr) =>
        sr.status === 'PROCESSED' &&
        (o.stepRunId !== undefined ? sr.id === o.stepRunId : sr.stepName === o.stepName),
    );
    if (candidates.length !== 1) {
      issues.push({
        code: candidates.length === 0 ? 'NOT_FOUND' : 'AMBIGUOUS_STEP',
        path: o.stepRunId !== undefined ? `${path}.stepRunId` : `${path}.stepName`,
        message:
          candidates.length === 0
            ? 'names no processed step run of this run'
            : 'the step ran on several paths: name the step run with stepRunId',
      });
      continue;
    }
    const stepRun = candidates[0] as StepRunState;
    if (!REVIEWABLE.has(stepRun.stepType)) {
      issues.push({
        code: 'NOT_REVIEWABLE',
        path,
        message: `${stepRun.stepType} outputs cannot be corrected`,
      });
      continue;
    }
    issues.push(...schemaIssues(stepRun, graph.step(stepRun.stepName), o.output, `${path}.output`));
    planned.push({
      stepRunId: stepRun.id,
      before: await store.loadOutput(stepRun),
      after: o.output,
    });
  }
  assertNoIssues(issues, 'review');
  return [...planned, ...(await reevaluateRules(store, s, graph, planned))];
}

/** Step types whose output is one extractor's: a correction must fit that extractor's schema. */
const ONE_EXTRACTOR: ReadonlySet<string> = new Set(['EXTRACT', 'CONDITIONAL_EXTRACT']);

/**
 * A corrected extraction checked against the schema of the extractor that ran (the saved
 * processor's version it ran, a CONDITIONAL_EXTRACT's chosen one included, or the step's inline
 * config): the correction's `value` (or the correction itself, given bare) must fit it.
 */
function schemaIssues(
  stepRun: StepRunState,
  step: RuntimeStep | undefined,
  output: JsonValue,
  path: string,
): ValidationIssue[] {
  if (!ONE_EXTRACTOR.has(stepRun.stepType)) return [];
  const config =
    stepRun.processor?.config ??
    (step?.config?.extractorConfig as JsonObject | undefined) ??
    undefined;
  const schema = config?.schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const wrapped =
    typeof output === 'object' && output !== null && !Array.isArray(output) && 'value' in output;
  return userSchemaIssues(schema, wrapped ? (output as JsonObject).value : output, {
    code: 'OUTPUT_DOES_NOT_FIT_SCHEMA',
    basePath: wrapped ? `${path}.value` : path,
  });
}

/**
 * The RULE_VALIDATION step runs that read a corrected output, evaluated again over the corrected
 * outputs: their results become what the correction makes them, their first results are kept
 * (as a corrected step's are). Their routes are not taken again: the paths have moved on.
 */
async function reevaluateRules(
  store: RunStore,
  s: RunState,
  graph: RunGraph,
  corrections: readonly Correction[],
): Promise<Correction[]> {
  if (corrections.length === 0) return [];
  const corrected = new Map(corrections.map((c) => [c.stepRunId, c.after]));
  const out: Correction[] = [];
  for (const sr of s.stepRuns) {
    if (sr.stepType !== 'RULE_VALIDATION' || sr.status !== 'PROCESSED') continue;
    const lineage = Object.values(lineageOf(s, sr)).flat();
    if (!lineage.some((id) => corrected.has(id))) continue;
    const step = graph.step(sr.stepName);
    if (!step) continue;
    const scope = await store.loadLineage(s, sr, (source, output) =>
      scopeValue(
        source.stepType,
        corrected.has(source.id) ? (corrected.get(source.id) ?? null) : output,
      ),
    );
    scope.metadata = s.metadata;
    const result = await evaluateControl({
      stepType: 'RULE_VALIDATION',
      stepName: sr.stepName,
      workflowRunId: s.id,
      config: (step.config ?? {}) as JsonObject,
      scope,
    });
    if (result.kind !== 'done') continue;
    out.push({ stepRunId: sr.id, before: await store.loadOutput(sr), after: result.output });
  }
  return out;
}
