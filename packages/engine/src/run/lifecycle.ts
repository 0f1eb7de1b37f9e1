import { type AnyStateMachine, createMachine, transition } from 'xstate';

/** Workflow run statuses (SPEC.md). */
export const RUN_STATUSES = [
  'PENDING',
  'PROCESSING',
  'NEEDS_REVIEW',
  'REJECTED',
  'PROCESSED',
  'FAILED',
  'CANCELLING',
  'CANCELLED',
] as const;
/** A workflow run status. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Step run statuses (SPEC.md and DESIGN.md). */
export const STEP_RUN_STATUSES = [
  'PENDING',
  'WAITING',
  'PROCESSING',
  'PROCESSED',
  'FAILED',
  'CANCELLED',
  'INVALIDATED',
] as const;
/** A step run status. */
export type StepRunStatus = (typeof STEP_RUN_STATUSES)[number];

/** Events that move a run between statuses. */
export type RunLifecycleEvent =
  | 'START'
  | 'AWAIT_REVIEW'
  | 'APPROVE'
  | 'REJECT'
  | 'COMPLETE'
  | 'FAIL'
  | 'CANCEL'
  | 'SETTLED';

/** Events that move a step run between statuses. */
export type StepRunLifecycleEvent =
  | 'START'
  | 'WAIT'
  | 'COMPLETE'
  | 'FAIL'
  | 'RETRY'
  | 'CANCEL'
  | 'INVALIDATE';

/**
 * The run lifecycle: the single source of legal run transitions. Everything else asks
 * {@link nextRunStatus}, which reads a table computed from this machine once at load time, so the
 * hot path pays a map lookup, not an interpreter step.
 */
export const runLifecycleMachine = createMachine({
  id: 'workflowRun',
  initial: 'PENDING',
  states: {
    PENDING: { on: { START: 'PROCESSING', FAIL: 'FAILED', CANCEL: 'CANCELLED' } },
    PROCESSING: {
      on: {
        AWAIT_REVIEW: 'NEEDS_REVIEW',
        COMPLETE: 'PROCESSED',
        FAIL: 'FAILED',
        CANCEL: 'CANCELLING',
      },
    },
    NEEDS_REVIEW: {
      on: { APPROVE: 'PROCESSING', REJECT: 'REJECTED', CANCEL: 'CANCELLING', FAIL: 'FAILED' },
    },
    CANCELLING: { on: { SETTLED: 'CANCELLED' } },
    REJECTED: { type: 'final' },
    PROCESSED: { type: 'final' },
    FAILED: { type: 'final' },
    CANCELLED: { type: 'final' },
  },
});

/** The step run lifecycle: the single source of legal step-run transitions. */
export const stepRunLifecycleMachine = createMachine({
  id: 'workflowStepRun',
  initial: 'PENDING',
  states: {
    PENDING: {
      on: {
        START: 'PROCESSING',
        WAIT: 'WAITING',
        COMPLETE: 'PROCESSED',
        FAIL: 'FAILED',
        CANCEL: 'CANCELLED',
        INVALIDATE: 'INVALIDATED',
      },
    },
    PROCESSING: {
      on: {
        COMPLETE: 'PROCESSED',
        FAIL: 'FAILED',
        RETRY: 'PENDING',
        CANCEL: 'CANCELLED',
        INVALIDATE: 'INVALIDATED',
      },
    },
    WAITING: {
      on: { COMPLETE: 'PROCESSED', FAIL: 'FAILED', CANCEL: 'CANCELLED', INVALIDATE: 'INVALIDATED' },
    },
    PROCESSED: { on: { INVALIDATE: 'INVALIDATED' } },
    FAILED: { type: 'final' },
    CANCELLED: { type: 'final' },
    INVALIDATED: { type: 'final' },
  },
});

function tableOf<S extends string, E extends string>(
  machine: AnyStateMachine,
  states: readonly S[],
  events: readonly E[],
): ReadonlyMap<string, S> {
  const table = new Map<string, S>();
  for (const state of states) {
    const snapshot = machine.resolveState({ value: state, context: undefined });
    for (const event of events) {
      const [next] = transition(machine, snapshot, { type: event });
      const value = String(next.value);
      if (value !== state) table.set(`${state}|${event}`, value as S);
    }
  }
  return table;
}

const RUN_TABLE = tableOf<RunStatus, RunLifecycleEvent>(runLifecycleMachine, RUN_STATUSES, [
  'START',
  'AWAIT_REVIEW',
  'APPROVE',
  'REJECT',
  'COMPLETE',
  'FAIL',
  'CANCEL',
  'SETTLED',
]);

const STEP_TABLE = tableOf<StepRunStatus, StepRunLifecycleEvent>(
  stepRunLifecycleMachine,
  STEP_RUN_STATUSES,
  ['START', 'WAIT', 'COMPLETE', 'FAIL', 'RETRY', 'CANCEL', 'INVALIDATE'],
);

/** The run status after `event`, or `undefined` when the machine does not allow it. */
export function nextRunStatus(from: RunStatus, event: RunLifecycleEvent): RunStatus | undefined {
  return RUN_TABLE.get(`${from}|${event}`);
}

/** The step run status after `event`, or `undefined` when the machine does not allow it. */
export function nextStepRunStatus(
  from: StepRunStatus,
  event: StepRunLifecycleEvent,
): StepRunStatus | undefined {
  return STEP_TABLE.get(`${from}|${event}`);
}

/** Final run statuses: nothing happens to the run any more. */
export function isFinalRunStatus(status: RunStatus): boolean {
  return (
    status === 'PROCESSED' || status === 'FAILED' || status === 'CANCELLED' || status === 'REJECTED'
  );
}

/** Statuses that `waitFor` returns on, as SDK polling treats them (SPEC.md). */
export function isSettledRunStatus(status: RunStatus): boolean {
  return isFinalRunStatus(status) || status === 'NEEDS_REVIEW';
}

/** Step runs that are still alive: they may produce work or block a COLLECT. */
export function isLiveStepRunStatus(status: StepRunStatus): boolean {
  return status === 'PENDING' || status === 'PROCESSING' || status === 'WAITING';
}
