import type {
  DeliveryWrite,
  JsonObject,
  LeaseFence,
  RunRecord,
  RunWrite,
  WorkItemInput,
} from '@docflow/storage';
import { isStorageError } from '@docflow/storage';
import { EngineError, EngineErrorCode, notFound } from '../errors.ts';
import type { EventOutbox } from '../events/event-outbox.ts';
import type { EngineEvent, EventResource } from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { RunTelemetry } from '../observability/run-telemetry.ts';
import { isFinalStandaloneRunStatus } from '../run/lifecycle.ts';
import { STANDALONE_KIND_SPECS, standaloneKindOf } from '../standalone/standalone-kinds.ts';
import { toStandaloneRun } from '../standalone/standalone-resource.ts';
import { readStandaloneState, type StandaloneRunState } from '../standalone/standalone-state.ts';
import {
  newStandaloneEffects,
  type StandaloneEffects,
} from '../standalone/standalone-transitions.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { Waiters } from './waiters.ts';
import { nextAttemptItem, type WorkPlanner } from './work-plan.ts';

/** What the standalone run store acts on after a commit. */
export interface StandaloneStoreDependencies {
  readonly ctx: EngineContext;
  readonly outbox: EventOutbox;
  /** Callers waiting for standalone runs to finish. */
  readonly finished: Waiters<StandaloneRunState>;
  /** Aborts the executing attempt of a run (cancel, delete). */
  abort(runId: string): void;
  /** Turns the transitions' work intents into queue rows. */
  readonly work: WorkPlanner;
  /** Work was queued: the scheduler should look. */
  notifyEnqueued(items: readonly { priority: number; availableAt?: string | undefined }[]): void;
  /** Told of every commit (its run log entries) and every deletion. */
  readonly telemetry?: RunTelemetry | undefined;
}

/** A standalone run's committed change, to act on. */
interface Committed {
  readonly state: StandaloneRunState;
  readonly fx: StandaloneEffects;
  readonly queue: { enqueue: WorkItemInput[]; dequeue: string[]; abort: boolean };
  readonly events: readonly EngineEvent[];
  readonly deliveries: number;
}

/**
 * Standalone runs' snapshots and their changes, one at a time per run: load, apply a transition
 * to a copy, commit the snapshot with its events, queue changes and outbox rows in one
 * transaction, then act (abort, publish, wake the scheduler, resolve waiters). As the workflow
 * runs' RunStore, nothing is acted on that was not stored.
 */
export class StandaloneRunStore {
  readonly #deps: StandaloneStoreDependencies;
  readonly #mutex = new KeyedMutex();

  constructor(deps: StandaloneStoreDependencies) {
    this.#deps = deps;
  }

  /** A run's snapshot and revision, if it is a standalone run. */
  async load(id: unknown): Promise<{ state: StandaloneRunState; record: RunRecord } | undefined> {
    const record = typeof id === 'string' ? await this.#deps.ctx.storage.getRun(id) : undefined;
    if (!record || standaloneKindOf(record.kind) === undefined) return undefined;
    return { state: readStandaloneState(record.snapshot), record };
  }

  /** Stores new runs (a create, or a batch) with the effects of their creation. */
  async create(entries: readonly { state: StandaloneRunState; fx: StandaloneEffects }[]) {
    const prepared = await Promise.all(entries.map((e) => this.#prepare(e.state, e.fx)));
    const queues = entries.map((e) => this.#deps.work.planStandalone(e.state, e.fx));
    await this.#deps.ctx.storage.commit({
      runs: entries.map((e) => this.#write(e.state, e.fx, 0)),
      enqueue: queues.flatMap((q) => q.enqueue),
      deliveries: prepared.flatMap((p) => p.deliveries),
    });
    for (const [i, e] of entries.entries()) {
      this.#committed({
        state: e.state,
        fx: e.fx,
        queue: queues[i] as Committed['queue'],
        events: prepared[i]?.events ?? [],
        deliveries: prepared[i]?.deliveries.length ?? 0,
      });
    }
    const finished = entries.find((e) => isFinalStandaloneRunStatus(e.state.status));
    if (finished?.state.batchId) await this.#finishBatch(finished.state);
  }

  /**
   * Applies `change` (a transition) to a copy of the run's snapshot and commits it with its
   * effects; `change` returns false to commit nothing. `finishing`: the queue item whose outcome
   * this records, removed in the same commit (or alone, when nothing changes). `fences`: leases
   * the commit needs still held (see `WorkPlanner.fences`). Returns the state after.
   */
  async mutate(
    id: string,
    change: (state: StandaloneRunState, fx: StandaloneEffects, now: string) => boolean,
    finishing?: string,
    fences: readonly LeaseFence[] = [],
  ): Promise<StandaloneRunState> {
    const { ctx } = this.#deps;
    const result = await this.#mutex.run(id, async (): Promise<Committed | StandaloneRunState> => {
      const loaded = await this.load(id);
      if (!loaded) throw notFound('run', id);
      const state = structuredClone(loaded.state);
      const fx = newStandaloneEffects();
      if (!change(state, fx, ctx.nowIso())) {
        if (finishing !== undefined) await ctx.storage.commit({ dequeue: [finishing], fences });
        return loaded.state;
      }
      const { events, deliveries } = await this.#prepare(state, fx);
      const queue = this.#deps.work.planStandalone(state, fx, finishing);
      try {
        await ctx.storage.commit({
          runs: [this.#write(state, fx, loaded.record.revision)],
          enqueue: queue.enqueue,
          dequeue: queue.dequeue,
          deliveries,
          ...(fences.length > 0 ? { fences } : {}),
        });
      } catch (error) {
        if (isStorageError(error, 'REVISION_CONFLICT')) {
          throw new EngineError(EngineErrorCode.CONFLICT, `run ${id} changed concurrently`, {
            cause: error,
            retryable: true,
          });
        }
        throw error;
      }
      return { state, fx, queue, events, deliveries: deliveries.length };
    });
    if (!('queue' in result)) return result;
    this.#committed(result);
    if (result.state.batchId && isFinalStandaloneRunStatus(result.state.status)) {
      await this.#finishBatch(result.state);
    }
    return result.state;
  }

  /** Removes a queue item whose run has nothing left for it (finished, cancelled or deleted). */
  async dropItem(itemId: string, fences: readonly LeaseFence[] = []): Promise<void> {
    await this.#deps.ctx.storage.commit({ dequeue: [itemId], fences });
  }

  /** Removes a run and what it holds; its executing attempt is aborted. */
  async delete(id: string): Promise<void> {
    await this.#mutex.run(id, async () => {
      const loaded = await this.load(id);
      this.#deps.abort(id);
      await this.#deps.ctx.storage.commit({
        deleteRuns: [id],
        ...(loaded ? { dequeue: [nextAttemptItem(loaded.state, loaded.state.updatedAt).id] } : {}),
      });
      this.#deps.telemetry?.deleted(id);
    });
  }

  #write(state: StandaloneRunState, fx: StandaloneEffects, revision: number): RunWrite {
    return {
      id: state.id,
      kind: state.kind,
      batchId: state.batchId ?? undefined,
      status: state.status,
      active: !isFinalStandaloneRunStatus(state.status),
      ...(isFinalStandaloneRunStatus(state.status) ? { settles: true } : {}),
      priority: state.priority,
      snapshot: state as unknown as JsonObject,
      expectedRevision: revision,
      events: fx.events,
      at: state.updatedAt,
    };
  }

  /** The `<kind>.processed` / `<kind>.failed` event of a finished run, with its outbox rows. */
  async #prepare(
    state: StandaloneRunState,
    fx: StandaloneEffects,
  ): Promise<{ events: EngineEvent[]; deliveries: DeliveryWrite[] }> {
    if (fx.finished === undefined) return { events: [], deliveries: [] };
    const spec = STANDALONE_KIND_SPECS[state.kind];
    const resource: EventResource | undefined =
      spec.processor && state.processor
        ? { type: spec.processor, id: state.processor.summary.id }
        : undefined;
    const prepared = await this.#deps.outbox.prepare(
      `${state.kind}.${fx.finished}`,
      toStandaloneRun(state) as unknown as JsonObject,
      resource,
    );
    return { events: [prepared.event], deliveries: [...prepared.deliveries] };
  }

  #committed({ state, fx, queue, events, deliveries }: Committed): void {
    this.#deps.telemetry?.standaloneRunCommitted(state, fx.events);
    if (queue.abort) this.#deps.abort(state.id);
    this.#deps.outbox.committed(events, deliveries);
    if (queue.enqueue.length > 0) this.#deps.notifyEnqueued(queue.enqueue);
    if (isFinalStandaloneRunStatus(state.status)) this.#deps.finished.settle(state.id, state);
  }

  /** Once every run of a batch is final: its `batch_*.processed` / `.failed` event, once. */
  async #finishBatch(state: StandaloneRunState): Promise<void> {
    const { ctx } = this.#deps;
    const batchId = state.batchId as string;
    const spec = STANDALONE_KIND_SPECS[state.kind];
    await this.#mutex.run(batchId, async () => {
      const active = await ctx.storage.listRuns({
        kind: state.kind,
        batchId,
        active: true,
        pageSize: 1,
      });
      if (active.items.length > 0) return;
      // The batch's record doubles as the once-only marker of its completion event.
      if (await ctx.storage.getDocument(spec.batchCollection, batchId)) return;
      const all = await ctx.storage.listRuns({ kind: state.kind, batchId, pageSize: 1000 });
      const failed = all.items.filter((r) => r.status === 'FAILED').length;
      const type = `${spec.batchEvent}.${failed === all.items.length ? 'failed' : 'processed'}`;
      const payload: JsonObject = {
        object: 'batch',
        batchId,
        runCount: all.items.length,
        failedCount: failed,
      };
      const prepared = await this.#deps.outbox.prepare(type, payload);
      await ctx.storage.commit({
        documents: [
          {
            collection: spec.batchCollection,
            id: batchId,
            data: { ...payload, eventType: type },
            expectedRevision: 0,
          },
        ],
        deliveries: [...prepared.deliveries],
      });
      this.#deps.outbox.publish([prepared.event]);
    });
  }
}
