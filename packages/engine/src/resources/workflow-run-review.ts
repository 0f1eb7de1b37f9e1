import type { JsonValue } from '@docflow/storage';
import { assertNoIssues, type ValidationIssue } from '../errors.ts';
import type { Correction } from '../run/review.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import type { RunStore } from '../runtime/run-store.ts';

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
  /** The reviewer's e-mail address (SPEC.md `reviewedByUser`). */
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
 * run each corrected output belongs to, with its output before the correction. Throws
 * VALIDATION_FAILED naming every output that names no processed, reviewable step run.
 */
export async function loadCorrections(
  store: RunStore,
  s: RunState,
  outputs: readonly ReviewOutput[],
): Promise<Correction[]> {
  const issues: ValidationIssue[] = [];
  const planned: Correction[] = [];
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
    planned.push({
      stepRunId: stepRun.id,
      before: await store.loadOutput(stepRun),
      after: o.output,
    });
  }
  assertNoIssues(issues, 'review');
  return planned;
}
