import { isFinalRunStatus, isLiveStepRunStatus } from '../lifecycle.ts';
import { lineageOf, mergedLineage } from '../run-lineage.ts';
import type { RunState, StepRunState } from '../run-state.ts';
import {
  addStepRun,
  completeStep,
  failStep,
  moveRun,
  moveStep,
  settle,
} from '../run-transitions.ts';
import { CONTROL_STEP_TYPES, type Effects, type TransitionContext } from '../transition-context.ts';

/**
 * The six control steps, which the engine runs itself, inline, in the transition that reaches
 * them: TRIGGER (the run's start), CONDITIONAL and RULE_VALIDATION (route by formulas),
 * HUMAN_REVIEW (parks a path until a review decision), COLLECT (joins paths) and
 * WEBHOOK_RESPONSE (the path's result to the workflow's endpoints). The three that compute are
 * evaluated from their loaded inputs by `evaluate-control.ts`; everything here is synchronous.
 */

/**
 * Starts a new run: TRIGGER is processed at once and the path moves on to its first executor
 * step. The run stays PENDING (no `startTime`) until that step starts: in the same commit when
 * the engine has room for it, else once the engine picks it from the queue.
 */
export function startRun(state: RunState, ctx: TransitionContext, fx: Effects): void {
  addStepRun(state, ctx, fx, ctx.graph.trigger.name, [...state.fileIds], []);
  drive(state, ctx, fx);
}

/**
 * A path arriving at an open COLLECT joins it: the open step run gets the arriving one's parents
 * too (a new list: values below a step run are shared with the committed state). Where either
 * holds a whole lineage (snapshots from before 2026-11-23), the open one gets the merged lineage.
 */
function joinPaths(state: RunState, open: StepRunState, arriving: StepRunState): void {
  if (open.lineage === undefined && arriving.lineage === undefined) {
    const parents = [...(open.parents ?? [])];
    for (const id of arriving.parents ?? []) if (!parents.includes(id)) parents.push(id);
    open.parents = parents;
    return;
  }
  open.lineage = mergedLineage(lineageOf(state, open), lineageOf(state, arriving));
  delete open.parents;
}

/**
 * Runs control steps inline until only executor work, waits and ends remain, releases COLLECTs
 * that nothing can reach any more, and derives the run status. A control step that computes
 * something (CONDITIONAL, RULE_VALIDATION, WEBHOOK_RESPONSE) needs its evaluation in
 * `ctx.controlResults`: without it, drive stops and names the step in `fx.awaiting`, and the run
 * store, having evaluated it, drives on.
 */
export function drive(state: RunState, ctx: TransitionContext, fx: Effects): void {
  for (;;) {
    if (isFinalRunStatus(state.status) || state.status === 'CANCELLING') break;
    const sr = state.stepRuns.find(
      (s) => s.status === 'PENDING' && CONTROL_STEP_TYPES.has(s.stepType),
    );
    if (sr) {
      if (!runControlStep(state, ctx, fx, sr)) return;
      continue;
    }
    if (!releaseOneCollect(state, ctx, fx)) break;
  }
  settle(state, fx, ctx.now);
}

/** Runs one control step; false when its evaluation is still to be loaded. */
function runControlStep(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  sr: StepRunState,
): boolean {
  const step = ctx.graph.step(sr.stepName);
  if (!step) throw new Error(`unknown step ${sr.stepName}`);
  switch (step.type) {
    case 'TRIGGER':
      completeStep(state, ctx, fx, sr, { output: null });
      return true;
    case 'HUMAN_REVIEW':
      // Parks the path; `approveReview` resumes it.
      moveStep(state, sr, 'WAIT', fx, ctx.now);
      return true;
    case 'COLLECT': {
      const open = state.stepRuns.find(
        (s) => s.stepName === sr.stepName && s.status === 'WAITING' && s.id !== sr.id,
      );
      if (open) {
        // Join: the arriving path's files and lineage move into the open collect.
        // New lists, not pushes: values below a step run are shared with the committed state.
        open.collected = [...(open.collected ?? []), sr.id];
        const fileIds = [...open.fileIds];
        for (const f of sr.fileIds) if (!fileIds.includes(f)) fileIds.push(f);
        open.fileIds = fileIds;
        joinPaths(state, open, sr);
        moveStep(state, sr, 'COMPLETE', fx, ctx.now);
        sr.output = { collectedInto: open.id };
        return true;
      }
      // Waits until no live path can still reach it (`releaseOneCollect`).
      sr.collected = [sr.id];
      moveStep(state, sr, 'WAIT', fx, ctx.now);
      return true;
    }
    default: {
      // CONDITIONAL, RULE_VALIDATION, WEBHOOK_RESPONSE: evaluated from inputs loaded before.
      const result = ctx.controlResults.get(sr.id);
      if (result === undefined) {
        fx.awaiting.push(sr.id);
        return false;
      }
      if (result.kind === 'fail') {
        failStep(state, ctx, fx, sr, { reason: result.reason, message: result.message });
        return true;
      }
      if (result.event) fx.engineEvents.push(result.event);
      completeStep(state, ctx, fx, sr, {
        output: result.output,
        ...(result.route === undefined ? {} : { route: result.route }),
      });
      return true;
    }
  }
}

function releaseOneCollect(state: RunState, ctx: TransitionContext, fx: Effects): boolean {
  for (const collect of state.stepRuns) {
    if (collect.stepType !== 'COLLECT' || collect.status !== 'WAITING') continue;
    const blocked = state.stepRuns.some(
      (other) =>
        other !== collect &&
        isLiveStepRunStatus(other.status) &&
        ctx.graph.canReach(other.stepName, collect.stepName),
    );
    if (blocked) continue;
    const files = collect.fileIds.map((id) => state.fileIndex[id]).filter((f) => f !== undefined);
    completeStep(state, ctx, fx, collect, {
      output: { fileIds: files.map((f) => f.id), collected: collect.collected ?? [] },
    });
    return true;
  }
  return false;
}

/**
 * Approves a run waiting for review: every parked HUMAN_REVIEW path continues. Corrected outputs
 * are applied by the caller before this, on the step runs they belong to.
 */
export function approveReview(
  state: RunState,
  ctx: TransitionContext,
  fx: Effects,
  review: { reviewer: string },
): void {
  moveRun(state, 'APPROVE', fx, ctx.now);
  state.reviewed = true;
  state.reviewedByUser = review.reviewer;
  state.reviewedAt = ctx.now;
  for (const sr of state.stepRuns) {
    if (sr.stepType === 'HUMAN_REVIEW' && sr.status === 'WAITING') {
      completeStep(state, ctx, fx, sr, {
        output: { decision: 'approve', reviewer: review.reviewer },
      });
    }
  }
  drive(state, ctx, fx);
}
