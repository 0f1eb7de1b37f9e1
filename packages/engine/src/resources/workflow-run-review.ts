import type { JsonObject, JsonValue } from '@docflow/storage';
import { assertNoIssues, EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import {
  approveReview,
  canReview,
  type Effects,
  rejectReview,
  rerouteFrom,
  type TransitionContext,
} from '../run/run-transitions.ts';
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
 * Applies a review decision to a run waiting for one: a rejection ends it REJECTED; an approval
 * applies the corrected outputs (keeping the originals), re-routes from a corrected
 * classification, and resumes every parked review.
 */
export async function applyReview(
  store: RunStore,
  s: RunState,
  tctx: TransitionContext,
  fx: Effects,
  input: ReviewInput,
): Promise<boolean> {
  if (!canReview(s)) {
    throw new EngineError(
      EngineErrorCode.INVALID_STATE,
      `workflow run ${s.id} is ${s.status}, not NEEDS_REVIEW`,
    );
  }
  if (input.decision === 'reject') {
    rejectReview(s, fx, tctx.now, { reviewer: input.reviewer, note: input.note ?? null });
    return true;
  }
  const corrections = await planCorrections(store, s, input.outputs ?? []);
  for (const c of corrections) {
    c.stepRun.review = { initialOutput: c.before, edits: diffEdits(c.before, c.after) };
    c.stepRun.output = c.after;
    delete c.stepRun.outputRef;
  }
  // A corrected classification re-routes first: what descended from the old route
  // (including its parked review) is INVALIDATED; then every remaining review resumes.
  for (const c of corrections) {
    const route = (c.after as { id?: unknown } | null)?.id;
    if (
      c.stepRun.stepType === 'CLASSIFY' &&
      typeof route === 'string' &&
      route !== c.stepRun.route
    ) {
      rerouteFrom(s, tctx, fx, c.stepRun, route);
    }
  }
  await approveReview(s, tctx, fx, { reviewer: input.reviewer });
  return true;
}

/** Finds the step run each corrected output belongs to, with its output before the correction. */
async function planCorrections(
  store: RunStore,
  s: RunState,
  outputs: readonly ReviewOutput[],
): Promise<{ stepRun: StepRunState; before: JsonValue; after: JsonValue }[]> {
  const issues: ValidationIssue[] = [];
  const planned: { stepRun: StepRunState; before: JsonValue; after: JsonValue }[] = [];
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
    planned.push({ stepRun, before: await store.loadOutput(stepRun), after: o.output });
  }
  assertNoIssues(issues, 'review');
  return planned;
}

/** The leaves that changed between two outputs, by path (`value.total`, `value.items[0].sku`). */
export function diffEdits(
  before: JsonValue,
  after: JsonValue,
  path = '',
  out: Record<string, JsonValue> = {},
): JsonObject {
  const isObj = (v: JsonValue): v is JsonObject =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      diffEdits(before[key] ?? null, after[key] ?? null, path === '' ? key : `${path}.${key}`, out);
    }
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++)
      diffEdits(before[i] ?? null, after[i] ?? null, `${path}[${i}]`, out);
    return out;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out[path === '' ? '$' : path] = after;
  return out;
}
