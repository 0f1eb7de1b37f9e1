import { isDeepStrictEqual } from 'node:util';
import type {
  Changes,
  DeliveryWrite,
  JsonValue,
  RunRecord,
  SnapshotPatchOp,
} from '@docflow/storage';
import { applySnapshotPatch, isStorageError, snapshotPatch } from '@docflow/storage';
import { EngineError, EngineErrorCode, notFound } from '../errors.ts';
import type { EngineEvent } from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { isFinalRunStatus } from '../run/lifecycle.ts';
import { draftRunState, freezeDeep } from '../run/run-draft.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import { type RunGraph, toRunGraph } from '../run/run-graph.ts';
import { lineageOf } from '../run/run-lineage.ts';
import type { RunState, StepRunState } from '../run/run-state.ts';
import {
  type Effects,
  newEffects,
  type PendingEngineEvent,
  type TransitionContext,
  toSnapshot,
} from '../run/run-transitions.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { Slot } from './scheduler.ts';

/** What the run store needs from the engine. */
export interface RunStoreDependencies {
  readonly ctx: EngineContext;
  /**
   * Builds the transition context of one mutation. `handoff`: the slot of a work item that
   * finishes with this mutation; it may pass to one step the mutation starts.
   */
  transitionContext(graph: RunGraph, now: string, handoff?: Slot): TransitionContext;
  /** Turns pending engine events into events and deliveries for the commit. */
  prepareEvents(
    state: RunState,
    pending: readonly PendingEngineEvent[],
  ): Promise<{ events: EngineEvent[]; deliveries: DeliveryWrite[] }>;
  /** A mutation failed or its commit did: give back what it reserved. */
  abandon(fx: Effects): void;
  /** After a commit: publish events, abort executors, wake the scheduler, resolve waiters. */
  afterCommit(
    state: RunState,
    fx: Effects,
    events: readonly EngineEvent[],
    deliveriesCommitted: number,
  ): void;
}

interface CacheEntry {
  state: RunState;
  revision: number;
}

/**
 * Check mode (`DOCFLOW_CHECK_SNAPSHOTS=1`, set by the engine's and the steps' test suites):
 * committed states are frozen, so that a transition that changes a value its draft shares with
 * the committed state (see `draftRunState`) throws instead of changing the committed state.
 */
const CHECK_SNAPSHOTS = process.env.DOCFLOW_CHECK_SNAPSHOTS === '1';

/**
 * Check mode: the patch of a commit, applied to the JSON of the state before, gives the JSON of
 * the state after. `snapshotPatch` compares references, so a change made in place (which check
 * mode also catches by freezing) or a value it cannot see would make the stored state wrong.
 */
function checkPatch(
  previous: RunState,
  state: RunState,
  patch: readonly SnapshotPatchOp[] | undefined,
): void {
  const json = <T>(value: unknown): T => JSON.parse(JSON.stringify(value)) as T;
  const patched = applySnapshotPatch(json(previous), json(patch ?? []));
  if (!isDeepStrictEqual(patched, json(state))) {
    throw new Error(`the snapshot patch of run ${state.id} does not give its new state`);
  }
}

/** Outputs above this many JSON characters go to the blob store, not the snapshot. */
const INLINE_OUTPUT_LIMIT = 1024;

/**
 * Holds active runs' snapshots and applies changes to them one at a time per run: load (from the
 * cache or storage), mutate a copy, commit snapshot + events + queue + outbox in one transaction,
 * then act. A failed commit leaves the cache untouched, so nothing is acted on that was not stored.
 */
export class RunStore {
  readonly #deps: RunStoreDependencies;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #graphs = new Map<string, RunGraph>();
  readonly #mutex = new KeyedMutex();

  constructor(deps: RunStoreDependencies) {
    this.#deps = deps;
  }

  /** The run's graph, loaded once per definition. */
  async graph(definitionId: string): Promise<RunGraph> {
    let graph = this.#graphs.get(definitionId);
    if (!graph) {
      // Definitions are immutable documents (a deployed version, or a draft's snapshot).
      const doc = await this.#deps.ctx.storage.getDocument('workflowVersions', definitionId);
      if (!doc) throw notFound('workflow version', definitionId);
      graph = toRunGraph((doc.data as unknown as { steps: readonly RuntimeStep[] }).steps);
      this.#graphs.set(definitionId, graph);
    }
    return graph;
  }

  /** The run's graph if it is loaded already (which spares a caller an await). */
  loadedGraph(definitionId: string): RunGraph | undefined {
    return this.#graphs.get(definitionId);
  }

  /** The current snapshot (cached for active runs). */
  async get(runId: string): Promise<RunState | undefined> {
    return (await this.#entry(runId))?.state;
  }

  /**
   * The snapshot once every change of the run already under way has been committed and cached.
   * A queue item is visible to claims as soon as the commit that wrote it returns, a moment
   * before its committer updates the cache: whoever acts on a claimed item reads through this.
   */
  latest(runId: string): Promise<RunState | undefined> {
    return this.#mutex.run(runId, () => this.get(runId));
  }

  async #entry(runId: string): Promise<CacheEntry | undefined> {
    const cached = this.#cache.get(runId);
    if (cached) return cached;
    const record = await this.#deps.ctx.storage.getRun(runId);
    if (record?.kind !== 'workflow_run') return undefined;
    const entry = { state: record.snapshot as unknown as RunState, revision: record.revision };
    if (!isFinalRunStatus(entry.state.status)) this.#cache.set(runId, entry);
    return entry;
  }

  /**
   * Keeps a run read by someone else (recovery lists unfinished runs before it claims their
   * work), unless one is cached already or the cache holds `limit` runs.
   */
  remember(record: RunRecord, limit: number): void {
    if (this.#cache.size >= limit || this.#cache.has(record.id)) return;
    if (record.kind !== 'workflow_run') return;
    const state = record.snapshot as unknown as RunState;
    if (!isFinalRunStatus(state.status)) {
      this.#cache.set(record.id, { state, revision: record.revision });
    }
  }

  /** Forgets a run (after delete). */
  evict(runId: string): void {
    this.#cache.delete(runId);
  }

  /** Stores a new run and its first effects. */
  async create(
    state: RunState,
    build: (state: RunState, ctx: TransitionContext, fx: Effects) => Promise<void>,
  ): Promise<RunState> {
    return this.#mutex.run(state.id, async () => {
      const graph = await this.graph(state.definitionId);
      const fx = newEffects();
      fx.events.push({ type: 'run.created', data: { status: state.status } });
      try {
        await build(state, this.#deps.transitionContext(graph, this.#deps.ctx.nowIso()), fx);
        await this.#commit(state, 0, fx);
      } catch (error) {
        this.#deps.abandon(fx);
        throw error;
      }
      return state;
    });
  }

  /**
   * Applies `fn` to a copy of the run's snapshot and commits it with its effects. `fn` returns
   * false to commit nothing. Returns the state after the call.
   */
  async mutate(
    runId: string,
    fn: (state: RunState, ctx: TransitionContext, fx: Effects) => Promise<boolean> | boolean,
    extra?: (state: RunState) => Changes,
    options?: {
      /** The slot of the executing item whose outcome this is (see `Scheduler.reserve`). */
      readonly handoff?: Slot;
      /** Called once the change is committed, before its events are published. */
      readonly committed?: () => void;
    },
  ): Promise<RunState> {
    return this.#mutex.run(runId, async () => {
      const entry = await this.#entry(runId);
      if (!entry) {
        throw new EngineError(EngineErrorCode.NOT_FOUND, `workflow run ${runId} does not exist`);
      }
      const draft = draftRunState(entry.state);
      const graph = await this.graph(draft.definitionId);
      const fx = newEffects();
      try {
        const changed = await fn(
          draft,
          this.#deps.transitionContext(graph, this.#deps.ctx.nowIso(), options?.handoff),
          fx,
        );
        if (!changed) {
          this.#deps.abandon(fx);
          return entry.state;
        }
        await this.#commit(
          draft,
          entry.revision,
          fx,
          extra?.(draft),
          options?.committed,
          entry.state,
        );
      } catch (error) {
        // Slots reserved for steps this mutation would have started are given back.
        this.#deps.abandon(fx);
        throw error;
      }
      return draft;
    });
  }

  async #commit(
    state: RunState,
    revision: number,
    fx: Effects,
    extra?: Changes,
    committed?: () => void,
    /** The committed state `state` was drafted from: the write then carries the patch between. */
    previous?: RunState,
  ): Promise<void> {
    const { events, deliveries } =
      fx.engineEvents.length === 0
        ? { events: [], deliveries: [] }
        : await this.#deps.prepareEvents(state, fx.engineEvents);
    const final = isFinalRunStatus(state.status);
    const snapshot = toSnapshot(state);
    const patch =
      previous === undefined ? undefined : snapshotPatch(toSnapshot(previous), snapshot);
    if (CHECK_SNAPSHOTS && previous !== undefined) checkPatch(previous, state, patch);
    try {
      await this.#deps.ctx.storage.commit({
        ...extra,
        runs: [
          {
            id: state.id,
            kind: 'workflow_run',
            workflowId: state.workflow.id,
            batchId: state.batchId ?? undefined,
            status: state.status,
            active: !final,
            priority: state.priority,
            snapshot,
            patch,
            expectedRevision: revision,
            events: fx.events,
            at: state.updatedAt,
          },
        ],
        enqueue: fx.enqueue,
        dequeue: fx.dequeue,
        deliveries: [...(extra?.deliveries ?? []), ...deliveries],
      });
    } catch (error) {
      this.#cache.delete(state.id);
      if (isStorageError(error, 'REVISION_CONFLICT')) {
        throw new EngineError(
          EngineErrorCode.CONFLICT,
          `workflow run ${state.id} changed concurrently`,
          {
            cause: error,
            retryable: true,
          },
        );
      }
      throw error;
    }
    if (CHECK_SNAPSHOTS) freezeDeep(state);
    if (final) this.#cache.delete(state.id);
    else this.#cache.set(state.id, { state, revision: revision + 1 });
    committed?.();
    this.#deps.afterCommit(state, fx, events, deliveries.length + (extra?.deliveries?.length ?? 0));
  }

  /** An output's JSON text when it is too large to inline (see `storeOutput`), else undefined. */
  largeOutput(output: JsonValue): string | undefined {
    const text = JSON.stringify(output ?? null);
    return text.length <= INLINE_OUTPUT_LIMIT ? undefined : text;
  }

  /** Stores a large output's text (from `largeOutput`) in the blob store; returns the reference. */
  async storeOutput(stepRunId: string, text: string): Promise<string> {
    const key = `output/${stepRunId}`;
    await this.#deps.ctx.storage.blobs.put(key, new TextEncoder().encode(text));
    return key;
  }

  /**
   * The outputs a step run's path carries, by step name (an array where a COLLECT joined several
   * step runs of one step), each passed through `map` (default: as stored).
   */
  async loadLineage(
    state: RunState,
    sr: StepRunState,
    map: (source: StepRunState, output: JsonValue) => JsonValue = (_s, o) => o,
  ): Promise<Record<string, JsonValue>> {
    const out: Record<string, JsonValue> = {};
    for (const [name, ref] of Object.entries(lineageOf(state, sr))) {
      const ids = Array.isArray(ref) ? ref : [ref as string];
      const values: JsonValue[] = [];
      for (const id of ids) {
        const source = state.stepRuns.find((s) => s.id === id);
        if (source === undefined) continue;
        // Outputs in the snapshot are taken as they are (an await costs a turn of the microtask
        // queue per output); only those in the blob store are awaited.
        const output =
          source.outputRef === undefined ? (source.output ?? null) : await this.loadOutput(source);
        values.push(map(source, output));
      }
      out[name] = Array.isArray(ref) ? values : (values[0] ?? null);
    }
    return out;
  }

  /** A step run's output, from the snapshot or the blob store. */
  async loadOutput(sr: StepRunState): Promise<JsonValue> {
    if (sr.outputRef === undefined) return sr.output ?? null;
    const bytes = await this.#deps.ctx.storage.blobs.get(sr.outputRef);
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as JsonValue) : null;
  }
}
