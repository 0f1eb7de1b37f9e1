import { type AnyStateMachine, createMachine, transition } from 'xstate';

/** Workflow run statuses (docs/reference/resources.md). */
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

/** Step run statuses (docs/reference/resources.md). */
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

/**
 * Statuses of standalone runs: the interface's parse, extract, classify and split runs (PENDING only
 * for runs created by a batch, until their step starts).
 */
export const STANDALONE_RUN_STATUSES = [
  'PENDING',
  'PROCESSING',
  'PROCESSED',
  'FAILED',
  'CANCELLED',
] as const;
/** A standalone run status. */
export type StandaloneRunStatus = (typeof STANDALONE_RUN_STATUSES)[number];

/** Events that move a standalone run between statuses. */
export type StandaloneRunLifecycleEvent = 'START' | 'COMPLETE' | 'FAIL' | 'CANCEL';

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

/**
 * The standalone run lifecycle (parse, extract, classify and split runs): the single source of
 * their legal transitions, beside the workflow run's. A retry is no transition: the run stays
 * PROCESSING while its next attempt waits.
 */
export const standaloneRunLifecycleMachine = createMachine({
  id: 'standaloneRun',
  initial: 'PENDING',
  states: {
    PENDING: { on: { START: 'PROCESSING', FAIL: 'FAILED', CANCEL: 'CANCELLED' } },
    PROCESSING: { on: { COMPLETE: 'PROCESSED', FAIL: 'FAILED', CANCEL: 'CANCELLED' } },
    PROCESSED: { type: 'final' },
    FAILED: { type: 'final' },
    CANCELLED: { type: 'final' },
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

const STANDALONE_TABLE = tableOf<StandaloneRunStatus, StandaloneRunLifecycleEvent>(
  standaloneRunLifecycleMachine,
  STANDALONE_RUN_STATUSES,
  ['START', 'COMPLETE', 'FAIL', 'CANCEL'],
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

/** Statuses that `waitFor` returns on, as SDK polling treats them (docs/reference/resources.md). */
export function isSettledRunStatus(status: RunStatus): boolean {
  return isFinalRunStatus(status) || status === 'NEEDS_REVIEW';
}

/** Step runs that are still alive: they may produce work or block a COLLECT. */
export function isLiveStepRunStatus(status: StepRunStatus): boolean {
  return status === 'PENDING' || status === 'PROCESSING' || status === 'WAITING';
}

/** The standalone run status after `event`, or `undefined` when the machine does not allow it. */
export function nextStandaloneRunStatus(
  from: StandaloneRunStatus,
  event: StandaloneRunLifecycleEvent,
): StandaloneRunStatus | undefined {
  return STANDALONE_TABLE.get(`${from}|${event}`);
}

/** Final standalone run statuses: nothing happens to the run any more. */
export function isFinalStandaloneRunStatus(status: StandaloneRunStatus): boolean {
  return status === 'PROCESSED' || status === 'FAILED' || status === 'CANCELLED';
}
