import type { JsonObject, JsonValue } from '@docflow/storage';
import { EngineError, EngineErrorCode } from '../errors.ts';
import { approveReview } from './control/control-steps.ts';
import type { RunState } from './run-state.ts';
import { rejectReview, rerouteFrom } from './run-transitions.ts';
import type { Effects, TransitionContext } from './transition-context.ts';

/**
 * Human review of a run waiting for one (NEEDS_REVIEW): reject ends it REJECTED; approve applies
 * the corrected outputs, keeping the originals, re-routes from a corrected classification and
 * resumes every parked HUMAN_REVIEW path. Synchronous: the corrections are loaded before.
 */

/** A corrected output, with the output it replaces (loaded before the transition). */
export interface Correction {
  readonly stepRunId: string;
  readonly before: JsonValue;
  readonly after: JsonValue;
}

/** A review decision. */
export interface ReviewDecision {
  readonly decision: 'approve' | 'reject';
  readonly reviewer: string;
  readonly note?: string | undefined;
}

/** Review decisions take effect only while the run waits for one. */
export function canReview(state: RunState): boolean {
  return state.status === 'NEEDS_REVIEW';
}

/** Applies a review decision; throws INVALID_STATE unless the run waits for review. */
export function applyReview(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  decision: ReviewDecision,
  corrections: readonly Correction[],
): boolean {
  if (!canReview(state)) {
    throw new EngineError(
      EngineErrorCode.INVALID_STATE,
      `workflow run ${state.id} is ${state.status}, not NEEDS_REVIEW`,
    );
  }
  if (decision.decision === 'reject') {
    rejectReview(state, fx, ctx.now, { reviewer: decision.reviewer, note: decision.note ?? null });
    return true;
  }
  for (const c of corrections) {
    const sr = state.stepRuns.find((s) => s.id === c.stepRunId);
    if (!sr) continue;
    sr.review = { initialOutput: c.before, edits: diffEdits(c.before, c.after) };
    sr.output = c.after;
    delete sr.outputRef;
  }
  // A corrected classification re-routes first: what descended from the old route
  // (including its parked review) is INVALIDATED; then every remaining review resumes.
  for (const c of corrections) {
    const sr = state.stepRuns.find((s) => s.id === c.stepRunId);
    const route = (c.after as { id?: unknown } | null)?.id;
    if (sr?.stepType === 'CLASSIFY' && typeof route === 'string' && route !== sr.route) {
      rerouteFrom(state, ctx, fx, sr, route);
    }
  }
  approveReview(state, ctx, fx, { reviewer: decision.reviewer });
  return true;
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
