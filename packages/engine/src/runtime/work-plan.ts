import type { JsonObject, LeaseFence, WorkItemInput } from '@docflow/storage';
import { type Clock, isoNow } from '../clock.ts';
import { EngineErrorCode, isEngineError } from '../errors.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import { beginStep } from '../run/run-transitions.ts';
import type { Effects } from '../run/transition-context.ts';
import { STANDALONE_KIND_SPECS } from '../standalone/standalone-kinds.ts';
import type { StandaloneRunState } from '../standalone/standalone-state.ts';
import type { StandaloneEffects } from '../standalone/standalone-transitions.ts';
import type { Scheduler, WorkTicket } from './scheduler.ts';

/** The queue item id of a step run's current attempt. */
export function workItemId(stepRun: StepRunState): string {
  return `${stepRun.id}#${stepRun.attempt}`;
}

/** The queue item of a step run's current attempt. */
export function queueItem(state: RunState, sr: StepRunState, availableAt: string): WorkItemInput {
  return {
    id: workItemId(sr),
    runId: state.id,
    kind: `step:${sr.stepType}`,
    priority: state.priority,
    availableAt,
    payload: { stepRunId: sr.id },
  };
}

/** The queue item of a standalone run's attempt that starts next. */
export function nextAttemptItem(state: StandaloneRunState, availableAt: string): WorkItemInput {
  return {
    id: `${state.id}#${state.attempt + 1}`,
    runId: state.id,
    kind: `step:${STANDALONE_KIND_SPECS[state.kind].stepType}`,
    priority: state.priority,
    availableAt,
    payload: { standaloneRunId: state.id },
  };
}

/** True when a queue item belongs to a standalone run. */
export function isStandaloneItem(item: { readonly payload: JsonObject }): boolean {
  return typeof item.payload.standaloneRunId === 'string';
}

/** What a commit does to the queue and the scheduler, planned from a transition's intents. */
export interface WorkPlan {
  readonly enqueue: WorkItemInput[];
  readonly dequeue: string[];
  /** Steps started on slots this engine reserved: run after the commit, given back if it fails. */
  readonly reserved: { readonly item: WorkItemInput; readonly lease: object }[];
  /** Step runs whose executing attempts stop after the commit. */
  readonly aborts: string[];
  /** The executing item whose outcome the commit records: its slot is released once committed. */
  readonly finishing: WorkTicket | undefined;
}

const NO_INTENTS: WorkPlan['aborts'] = [];

/**
 * Turns transitions' work intents into queue rows or reservations: the one place where the fast
 * path of decision 0007 meets the domain. A step run that may start now starts on a slot this
 * engine reserves, PROCESSING in the very commit that created it, with no queue row (its
 * PROCESSING status is its record), when the scheduler has room and nothing more urgent waits;
 * the finishing item's slot goes to the first such step, so a saturated engine keeps a run's
 * next step on the fast path. Every other step run gets a queue row, due at once or after its
 * backoff. Leases, slots and hand-offs stay here and in the scheduler.
 */
export class WorkPlanner {
  readonly #scheduler: Scheduler;
  readonly #clock: Clock;

  constructor(scheduler: Scheduler, clock: Clock) {
    this.#scheduler = scheduler;
    this.#clock = clock;
  }

  /** The store is shared by processes (see `Scheduler.shared`). */
  get shared(): boolean {
    return this.#scheduler.shared;
  }

  /**
   * Plans the queue changes of a transition's effects on `state` (a draft, about to be
   * committed). Steps started on reserved slots begin in the draft (PENDING → PROCESSING).
   * `finishing`: the item whose outcome this commit records; its row goes with it.
   */
  plan(state: RunState, fx: Effects, now: string, finishing?: WorkTicket): WorkPlan {
    const plan: WorkPlan = {
      enqueue: [],
      dequeue: finishing?.queued ? [finishing.item.id] : [],
      reserved: [],
      aborts: NO_INTENTS,
      finishing,
    };
    if (fx.work.length === 0) return plan;
    const aborts: string[] = [];
    // Step runs created by this transition have no row yet: dropping them dequeues nothing.
    let fresh: Set<string> | undefined;
    for (const intent of fx.work) {
      if (intent.type === 'abort') {
        aborts.push(intent.stepRunId);
        continue;
      }
      const sr = findStepRun(state, intent.stepRunId);
      if (sr === undefined) continue;
      if (intent.type === 'drop') {
        if (!fresh?.has(sr.id)) plan.dequeue.push(workItemId(sr));
        continue;
      }
      if (intent.at === undefined) {
        fresh ??= new Set();
        fresh.add(sr.id);
      }
      if (sr.status !== 'PENDING') continue;
      const lease =
        intent.at === undefined
          ? this.#scheduler.reserve(`step:${sr.stepType}`, state.priority, finishing)
          : undefined;
      if (lease) {
        beginStep(state, fx, sr, now);
        const item = queueItem(state, sr, now);
        plan.reserved.push({ item, lease });
        // On a store shared by processes the step also gets a row, leased to this engine, so
        // that another process takes it over if this one dies (its lease expires).
        if (this.#scheduler.shared) plan.enqueue.push({ ...item, lease: { ...lease } });
      } else plan.enqueue.push(queueItem(state, sr, intent.at ?? now));
    }
    return aborts.length === 0 ? plan : { ...plan, aborts };
  }

  /**
   * Plans a standalone run's queue changes: its attempts always get queue rows (claimed like a
   * step's); `finishing`, the item whose outcome this commit records, goes.
   */
  planStandalone(
    state: StandaloneRunState,
    fx: StandaloneEffects,
    finishing?: string,
  ): { enqueue: WorkItemInput[]; dequeue: string[]; abort: boolean } {
    const enqueue: WorkItemInput[] = [];
    const dequeue = finishing === undefined ? [] : [finishing];
    let abort = false;
    for (const intent of fx.work) {
      if (intent.type === 'run') enqueue.push(nextAttemptItem(state, intent.at));
      else if (intent.type === 'drop') dequeue.push(nextAttemptItem(state, state.updatedAt).id);
      else abort = true;
    }
    return { enqueue, dequeue, abort };
  }

  /** The commit failed: the slots the plan reserved go back. */
  abandon(plan: WorkPlan): void {
    for (const { item, lease } of plan.reserved)
      this.#scheduler.cancelReservation(item.kind, lease);
  }

  /**
   * The commit is stored: the finishing item's slot is free (before the commit's events are
   * published: a client that creates its next run on hearing this one ended finds room for it).
   */
  released(plan: WorkPlan): void {
    plan.finishing?.release();
  }

  /** After the commit: reserved steps start, the scheduler hears of queued work. */
  dispatch(plan: WorkPlan): void {
    for (const { item } of plan.reserved) {
      this.#scheduler.runReserved({
        id: item.id,
        runId: item.runId,
        kind: item.kind,
        priority: item.priority,
        seq: 0,
        availableAt: item.availableAt ?? isoNow(this.#clock),
        payload: item.payload,
        attempts: 1,
        leaseOwner: this.#scheduler.owner,
      });
    }
    if (plan.enqueue.length === 0) return;
    const queued = this.#scheduler.shared
      ? plan.enqueue.filter((item) => item.lease === undefined)
      : plan.enqueue;
    if (queued.length > 0) this.#scheduler.notifyEnqueued(queued);
  }

  /**
   * The leases a commit made for `ticket` (its start or its outcome) must still hold: on a store
   * shared by processes, the item's lease as this engine got it (a later claim of the item, by
   * another process after the lease expired, increments `attempts`). None elsewhere: one process
   * writes the store.
   */
  fences(ticket: WorkTicket | undefined): LeaseFence[] {
    if (ticket === undefined || !ticket.queued || !this.#scheduler.shared) return [];
    const { item } = ticket;
    return [{ workId: item.id, owner: this.#scheduler.owner, attempts: item.attempts }];
  }

  /** An item that finishes with nothing to record: its row, if it has one, goes. */
  async done(
    ticket: WorkTicket,
    commit: (dequeue: readonly string[], fences: readonly LeaseFence[]) => Promise<unknown>,
  ) {
    if (ticket.queued) await commit([ticket.item.id], this.fences(ticket));
  }

  /**
   * An item's outcome could not be committed (a storage error, a conflict): its step is still
   * PROCESSING. A claimed item runs again once its lease runs out; a reserved one has no row to
   * lease, so it gets one that becomes claimable a lease's time from now. Should that fail too,
   * the step runs again at the next start (recovery). A run deleted meanwhile has nothing left.
   */
  async failed(
    ticket: WorkTicket,
    error: unknown,
    commit: (enqueue: readonly WorkItemInput[]) => Promise<unknown>,
  ): Promise<void> {
    if (ticket.queued || isEngineError(error, EngineErrorCode.NOT_FOUND)) return;
    const { item } = ticket;
    const availableAt = new Date(
      this.#clock.now().getTime() + this.#scheduler.leaseMs,
    ).toISOString();
    await commit([
      {
        id: item.id,
        runId: item.runId,
        kind: item.kind,
        priority: item.priority,
        payload: item.payload,
        availableAt,
      },
    ]).catch(() => undefined);
  }
}

function findStepRun(state: RunState, id: string): StepRunState | undefined {
  // The newest step runs are the ones intents name most often: search from the end.
  for (let i = state.stepRuns.length - 1; i >= 0; i--) {
    const sr = state.stepRuns[i] as StepRunState;
    if (sr.id === id) return sr;
  }
  return undefined;
}
