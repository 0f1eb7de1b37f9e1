import { isDeepStrictEqual } from 'node:util';
import type {
  DeliveryWrite,
  JsonValue,
  LeaseFence,
  RunEventInput,
  RunRecord,
  SnapshotPatchOp,
} from '@docflow/storage';
import { applySnapshotPatch, isStorageError, snapshotPatch } from '@docflow/storage';
import { EngineError, EngineErrorCode, isEngineError, notFound } from '../errors.ts';
import type { EngineEvent } from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { drive } from '../run/control/control-steps.ts';
import { evaluateControl } from '../run/control/evaluate-control.ts';
import { isFinalRunStatus, isSettledRunStatus } from '../run/lifecycle.ts';
import { draftRunState, freezeDeep } from '../run/run-draft.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import { type RunGraph, toRunGraph } from '../run/run-graph.ts';
import { lineageOf } from '../run/run-lineage.ts';
import type { LineageRef, RunState, StepRunState } from '../run/run-state.ts';
import { toSnapshot } from '../run/run-transitions.ts';
import {
  type ControlResult,
  type Effects,
  newEffects,
  type PendingEngineEvent,
  type TransitionContext,
} from '../run/transition-context.ts';
import { loadControlInputs } from './control-inputs.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import { RunTexts } from './run-texts.ts';
import type { WorkTicket } from './scheduler.ts';
import type { WorkPlan, WorkPlanner } from './work-plan.ts';

/** What the run store needs from the engine. */
export interface RunStoreDependencies {
  readonly ctx: EngineContext;
  /** Turns pending engine events into events and deliveries for the commit. */
  prepareEvents(
    state: RunState,
    pending: readonly PendingEngineEvent[],
    graph: RunGraph | undefined,
  ): Promise<{ events: EngineEvent[]; deliveries: DeliveryWrite[] }>;
  /** Turns the transitions' work intents into queue rows or reservations. */
  readonly work: WorkPlanner;
  /**
   * After a commit: abort, publish events, start reserved steps, resolve waiters; `log`: the run
   * log entries the commit wrote.
   */
  afterCommit(
    state: RunState,
    plan: WorkPlan,
    events: readonly EngineEvent[],
    deliveriesCommitted: number,
    log: readonly RunEventInput[],
  ): void;
  /** A run was forgotten (deleted). */
  evicted?(runId: string): void;
}

/** Options of a mutation. */
export interface MutateOptions {
  /** The executing item whose outcome this mutation records (its row goes, its slot is freed). */
  readonly finishing?: WorkTicket | undefined;
  /**
   * The executing item on whose behalf this mutation is made (its start), when not `finishing`:
   * on a store shared by processes the commit applies only while its lease is still held.
   */
  readonly holding?: WorkTicket | undefined;
}

/**
 * How many times a mutation is applied when its commit finds the run changed since it was read
 * (the first time included). Other processes' commits to a run one of its steps ran in are the
 * usual cause on a shared store; each retry reads the run afresh.
 */
const CONFLICT_ATTEMPTS = 20;

/** A transition applied by the run store: synchronous, over a draft; false commits nothing. */
export type Transition = (state: RunState, ctx: TransitionContext, fx: Effects) => boolean;

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

const noInputs = (): undefined => undefined;

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
  /** The runs' texts as `getJson` answers them, forgotten by every commit of their run. */
  readonly texts: RunTexts;

  constructor(deps: RunStoreDependencies) {
    this.#deps = deps;
    this.texts = new RunTexts({ keep: deps.ctx.storage.sharedByProcesses !== true });
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

  /**
   * The current snapshot (cached for active runs). On a store shared by processes, read from
   * storage (another process may have changed the run since this one cached it), and the cache
   * is left alone: this read, outside the run's lock, may finish after a commit of this process
   * and would put an older state in the cache than the one that commit left there.
   */
  async get(runId: string): Promise<RunState | undefined> {
    if (this.#deps.ctx.storage.sharedByProcesses !== true) {
      return (await this.#entry(runId))?.state;
    }
    const record = await this.#deps.ctx.storage.getRun(runId);
    return record?.kind === 'workflow_run' ? (record.snapshot as unknown as RunState) : undefined;
  }

  /**
   * The snapshot this process holds for an active run it committed or read, if it holds one. On
   * a store shared by processes it may be behind another process's commits: for a caller that
   * reads again later (`waitFor`), not for deciding anything.
   */
  cached(runId: string): RunState | undefined {
    return this.#cache.get(runId)?.state;
  }

  /**
   * The snapshot once every change of the run already under way has been committed and cached.
   * A queue item is visible to claims as soon as the commit that wrote it returns, a moment
   * before its committer updates the cache: whoever acts on a claimed item reads through this.
   */
  latest(runId: string): Promise<RunState | undefined> {
    return this.#mutex.run(runId, async () => (await this.#entry(runId))?.state);
  }

  /**
   * The snapshot as stored now, read from storage (the cache is refreshed): on a store shared by
   * processes, what another process committed since this one cached the run.
   */
  stored(runId: string): Promise<RunState | undefined> {
    return this.#mutex.run(runId, async () => {
      this.#cache.delete(runId);
      return (await this.#entry(runId))?.state;
    });
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

  /**
   * Another process settled these runs (`undefined`: maybe any run, after a reconnection): what
   * this process holds of them is behind, and goes, so that the next look reads storage. A
   * waiter that comes after the notification then never takes a state older than it.
   */
  settledElsewhere(runIds: readonly string[] | undefined): void {
    if (runIds === undefined) this.#cache.clear();
    else for (const id of runIds) this.#cache.delete(id);
  }

  /** Forgets a run (after delete). */
  evict(runId: string): void {
    this.#cache.delete(runId);
    this.texts.changed(runId);
    this.#deps.evicted?.(runId);
  }

  /** Stores a new run and its first effects (`build`: its first transition). */
  async create(
    state: RunState,
    build: (state: RunState, ctx: TransitionContext, fx: Effects) => void,
  ): Promise<RunState> {
    return this.#mutex.run(state.id, async () => {
      const graph = await this.graph(state.definitionId);
      const fx = newEffects();
      fx.events.push({ type: 'run.created', data: { status: state.status } });
      const ctx = this.#context(graph);
      build(state, ctx, fx);
      await this.#settleControlSteps(state, ctx, fx);
      await this.#commit(state, 0, fx);
      return state;
    });
  }

  /**
   * Applies `transition` to a copy of the run's snapshot and commits it with its effects.
   * Returns the state after the call.
   */
  mutate(runId: string, transition: Transition, options?: MutateOptions): Promise<RunState> {
    return this.mutateWith(runId, noInputs, transition, options);
  }

  /**
   * As {@link mutate}, with inputs loaded first, under the run's lock, from the committed state:
   * `load` reads what the transition needs (outputs from the blob store), so that the transition
   * itself stays synchronous.
   */
  async mutateWith<T>(
    runId: string,
    load: (state: RunState) => Promise<T> | T,
    transition: (state: RunState, ctx: TransitionContext, fx: Effects, inputs: T) => boolean,
    options?: MutateOptions,
  ): Promise<RunState> {
    return this.#mutex.run(runId, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.#mutateOnce(runId, load, transition, options);
        } catch (error) {
          // The cached snapshot was behind the stored one (another process, or a delete, wrote
          // the run): the transition applies again to what is stored now (the cache entry went
          // with the failed commit). Transitions check the state they are given, so what no
          // longer applies commits nothing.
          if (!isEngineError(error, EngineErrorCode.CONFLICT) || attempt >= CONFLICT_ATTEMPTS) {
            throw error;
          }
        }
      }
    });
  }

  async #mutateOnce<T>(
    runId: string,
    load: (state: RunState) => Promise<T> | T,
    transition: (state: RunState, ctx: TransitionContext, fx: Effects, inputs: T) => boolean,
    options: MutateOptions | undefined,
  ): Promise<RunState> {
    const entry = await this.#entry(runId);
    if (!entry) throw notFound('workflow run', runId);
    const loading = load(entry.state);
    // Most mutations load nothing: they spare the await.
    const inputs = loading instanceof Promise ? await loading : loading;
    const draft = draftRunState(entry.state);
    const graph = this.#graphs.get(draft.definitionId) ?? (await this.graph(draft.definitionId));
    const fx = newEffects();
    const ctx = this.#context(graph);
    if (!transition(draft, ctx, fx, inputs)) {
      if (options?.finishing) await this.#deps.work.done(options.finishing, this.#dequeue);
      return entry.state;
    }
    await this.#settleControlSteps(draft, ctx, fx);
    await this.#commit(draft, entry.revision, fx, options, entry.state);
    return draft;
  }

  readonly #dequeue = (dequeue: readonly string[], fences: readonly LeaseFence[]) =>
    this.#deps.ctx.storage.commit({ dequeue, ...(fences.length > 0 ? { fences } : {}) });

  #context(graph: RunGraph): TransitionContext {
    return {
      graph,
      now: this.#deps.ctx.nowIso(),
      newId: this.#deps.ctx.newId,
      controlResults: new Map(),
    };
  }

  /**
   * Evaluates the control steps the transition reached without their inputs (CONDITIONAL,
   * RULE_VALIDATION, WEBHOOK_RESPONSE), one at a time in the order it reached them, and drives
   * the run on after each.
   */
  async #settleControlSteps(state: RunState, ctx: TransitionContext, fx: Effects): Promise<void> {
    while (fx.awaiting.length > 0) {
      const id = fx.awaiting.pop() as string;
      const sr = state.stepRuns.find((s) => s.id === id);
      const step = sr && ctx.graph.step(sr.stepName);
      if (!sr || !step) throw new Error(`unknown control step run ${id}`);
      const inputs = await loadControlInputs(
        this,
        this.#deps.ctx.storage,
        state,
        sr,
        step,
        ctx.graph,
      );
      (ctx.controlResults as Map<string, ControlResult>).set(id, await evaluateControl(inputs));
      drive(state, ctx, fx);
    }
  }

  async #commit(
    state: RunState,
    revision: number,
    fx: Effects,
    options?: MutateOptions,
    /** The committed state `state` was drafted from: the write then carries the patch between. */
    previous?: RunState,
  ): Promise<void> {
    const { work } = this.#deps;
    const finishing = options?.finishing;
    const plan = work.plan(state, fx, this.#deps.ctx.nowIso(), finishing);
    const fences = work.fences(options?.holding ?? finishing);
    let events: EngineEvent[] = [];
    let deliveries: DeliveryWrite[] = [];
    try {
      if (fx.engineEvents.length > 0) {
        ({ events, deliveries } = await this.#deps.prepareEvents(
          state,
          fx.engineEvents,
          this.#graphs.get(state.definitionId),
        ));
      }
      const final = isFinalRunStatus(state.status);
      const snapshot = toSnapshot(state);
      const patch =
        previous === undefined ? undefined : snapshotPatch(toSnapshot(previous), snapshot);
      if (CHECK_SNAPSHOTS && previous !== undefined) checkPatch(previous, state, patch);
      await this.#deps.ctx.storage.commit({
        runs: [
          {
            id: state.id,
            kind: 'workflow_run',
            workflowId: state.workflow.id,
            batchId: state.batchId ?? undefined,
            status: state.status,
            active: !final,
            settles: isSettledRunStatus(state.status),
            priority: state.priority,
            snapshot,
            patch,
            expectedRevision: revision,
            events: fx.events,
            at: state.updatedAt,
          },
        ],
        enqueue: plan.enqueue,
        dequeue: plan.dequeue,
        deliveries,
        fences: fences.length > 0 ? fences : undefined,
      });
    } catch (error) {
      // Slots reserved for steps this commit would have started are given back.
      work.abandon(plan);
      this.#cache.delete(state.id);
      if (isStorageError(error, 'LEASE_LOST') && !(await this.#deps.ctx.storage.getRun(state.id))) {
        // The run was deleted, and its queue rows with it.
        throw notFound('workflow run', state.id);
      }
      if (isStorageError(error, 'REVISION_CONFLICT')) {
        throw new EngineError(
          EngineErrorCode.CONFLICT,
          `workflow run ${state.id} changed concurrently`,
          { cause: error, retryable: true },
        );
      }
      throw error;
    }
    if (CHECK_SNAPSHOTS) freezeDeep(state);
    if (isFinalRunStatus(state.status)) this.#cache.delete(state.id);
    else this.#cache.set(state.id, { state, revision: revision + 1 });
    this.texts.changed(state.id);
    work.released(plan);
    this.#deps.afterCommit(state, plan, events, deliveries.length, fx.events);
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
    const lineage = lineageOf(state, sr);
    // Walked by key, each reference as it is: the entries, id lists and value lists the general
    // form made for a chain of single step runs were most of a step input's allocations.
    for (const name in lineage) {
      const ref = lineage[name] as LineageRef;
      if (typeof ref === 'string') {
        const output = this.#lineageOutput(state, ref, map);
        out[name] = (output instanceof Promise ? await output : output) ?? null;
        continue;
      }
      const values: JsonValue[] = [];
      for (const id of ref) {
        const output = this.#lineageOutput(state, id, map);
        const value = output instanceof Promise ? await output : output;
        if (value !== undefined) values.push(value);
      }
      out[name] = values;
    }
    return out;
  }

  /**
   * The output of step run `id` of `state` through `map`, undefined where the state has no such
   * step run. Outputs in the snapshot are taken as they are (an await costs a turn of the
   * microtask queue per output); only one in the blob store comes as a promise.
   */
  #lineageOutput(
    state: RunState,
    id: string,
    map: (source: StepRunState, output: JsonValue) => JsonValue,
  ): JsonValue | Promise<JsonValue> | undefined {
    const source = state.stepRuns.find((s) => s.id === id);
    if (source === undefined) return undefined;
    if (source.outputRef === undefined) return map(source, source.output ?? null);
    return this.loadOutput(source).then((output) => map(source, output));
  }

  /** A step run's output, from the snapshot or the blob store. */
  async loadOutput(sr: StepRunState): Promise<JsonValue> {
    if (sr.outputRef === undefined) return sr.output ?? null;
    const bytes = await this.#deps.ctx.storage.blobs.get(sr.outputRef);
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as JsonValue) : null;
  }
}
