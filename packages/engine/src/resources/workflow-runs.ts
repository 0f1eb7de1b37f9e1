import type { JsonObject, JsonValue } from '@docflow/storage';
import {
  assertNoIssues,
  EngineError,
  EngineErrorCode,
  notFound,
  type ValidationIssue,
} from '../errors.ts';
import type { FileDeletions } from '../files/file-deletions.ts';
import {
  checkFileIds,
  type Download,
  keepFilesIfDone,
  type ResolvedFiles,
  resolveFileSources,
} from '../files/file-sources.ts';
import { presentFiles } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { processorReferencesOf } from '../processors/processor-resolution.ts';
import { startRun } from '../run/control/control-steps.ts';
import { isFinalRunStatus, isSettledRunStatus, type RunStatus } from '../run/lifecycle.ts';
import { applyReview } from '../run/review.ts';
import { toWorkflowRun, type WorkflowRun } from '../run/run-resource.ts';
import type { RunState } from '../run/run-state.ts';
import { cancelRun, failRun } from '../run/run-transitions.ts';
import type { RunStore } from '../runtime/run-store.ts';
import type { SecretBox } from '../runtime/secrets.ts';
import type { StepAbort } from '../runtime/step-abort.ts';
import { sharedStorePollMs, type Waiters } from '../runtime/waiters.ts';
import type { FileSummary } from '../step-executor.ts';
import { checkMetadata } from '../validation/request-parts.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';
import {
  type BatchRunInput,
  type CreateWorkflowRunBatchInput,
  type CreateWorkflowRunInput,
  checkBatchInput,
  checkCreateRunInput,
  type RunFileSource,
} from './run-input.ts';
import { loadCorrections, type ReviewInput, reviewInputIssues } from './workflow-run-review.ts';
import type { ResolvedDefinition } from './workflows.ts';

/** Filters of `workflowRuns.list`. */
export interface ListWorkflowRunsParams extends SortedPageParams {
  readonly workflowId?: string;
  readonly status?: RunStatus;
  readonly batchId?: string;
}

/** `engine.workflowRuns`. */
export interface WorkflowRunsService {
  create(input: CreateWorkflowRunInput): Promise<WorkflowRun>;
  /** 1 to 1000 runs sharing a `batchId`, priority 90 unless given. */
  createBatch(
    input: CreateWorkflowRunBatchInput,
  ): Promise<{ object: 'workflow_run_batch'; batchId: string; runs: WorkflowRun[] }>;
  get(id: string): Promise<WorkflowRun>;
  /**
   * The run as `get` returns it, as JSON text, with its status: what a server answers. The text
   * is kept, finished run or not, until this engine commits something it shows (a change of the
   * run, its deletion, a file's deletion), so asking again costs a lookup. On storage several
   * processes share, nothing is kept.
   */
  getJson(id: string): Promise<{ readonly status: RunStatus; readonly json: string }>;
  list(params?: ListWorkflowRunsParams): Promise<ListResult<WorkflowRun>>;
  /** Resolves when the run is PROCESSED, FAILED, CANCELLED, NEEDS_REVIEW or REJECTED. */
  waitFor(id: string, options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<WorkflowRun>;
  cancel(id: string): Promise<WorkflowRun>;
  review(id: string, input: ReviewInput): Promise<WorkflowRun>;
  /** Merges `metadata` into the run's metadata. */
  update(id: string, input: { metadata: JsonObject }): Promise<WorkflowRun>;
  /** Removes the run and its data. */
  delete(id: string): Promise<{ object: 'workflow_run'; id: string; deleted: true }>;
}

/** What the runs service needs from the engine. */
export interface WorkflowRunsDependencies {
  readonly ctx: EngineContext;
  readonly store: RunStore;
  resolve(ref: unknown, path: string): Promise<ResolvedDefinition>;
  /** Aborts of executing step runs (aborted on delete). */
  readonly aborts: Map<string, StepAbort>;
  /** Seals run secrets at rest. */
  readonly secrets: Pick<SecretBox, 'store'>;
  /** Callers waiting for runs to settle, resolved by the runtime after the settling commit. */
  readonly settled: Waiters<RunState>;
  /** Downloads a URL file source. */
  readonly download: Download;
  /** The file deletions committed, which change what runs show. */
  readonly fileDeletions: FileDeletions;
}

/**
 * Output overrides name the processor whose output they replace: one that a step of the
 * workflow uses (by its saved extractor, classifier or splitter id), else nothing would use it.
 */
function outputsIssues(
  def: ResolvedDefinition,
  outputs: readonly { readonly processorId: string }[],
): ValidationIssue[] {
  if (outputs.length === 0) return [];
  const used = new Set(processorReferencesOf({ steps: def.steps }).map((ref) => ref.id));
  return outputs.flatMap((o, i) =>
    used.has(o.processorId)
      ? []
      : [
          issue(
            'UNKNOWN_PROCESSOR',
            `outputs[${i}].processorId`,
            `no step of workflow ${def.workflow.id} (version ${def.version.version}) runs processor ${o.processorId}`,
          ),
        ],
  );
}

function issue(code: string, path: string, message: string): ValidationIssue {
  return { code, path, message };
}

/** Creates `engine.workflowRuns`. */
export function createWorkflowRunsService(deps: WorkflowRunsDependencies): WorkflowRunsService {
  const { ctx, store } = deps;

  /**
   * The run as returned. `filesPresent`: its files are known to exist (a run just created on
   * files this call found or stored), else each is looked up (a deleted one shows as null).
   */
  const project = async (state: RunState, filesPresent = false): Promise<WorkflowRun> => {
    const outputs = new Map<string, JsonValue>();
    for (const sr of state.stepRuns) {
      if (sr.outputRef !== undefined) outputs.set(sr.id, await store.loadOutput(sr));
    }
    const present = filesPresent
      ? undefined
      : await presentFiles(ctx, Object.keys(state.fileIndex));
    const graph = await store.graph(state.definitionId);
    return toWorkflowRun(state, outputs, present && ((id) => present.has(id)), graph);
  };

  const load = async (id: unknown): Promise<RunState> => {
    const state = typeof id === 'string' && id !== '' ? await store.get(id) : undefined;
    if (!state) throw notFound('workflow run', id);
    return state;
  };

  const resolveFiles = (
    sources: readonly RunFileSource[],
    paths: readonly string[],
    checked?: readonly (FileSummary | undefined)[],
  ) => resolveFileSources(ctx, sources, paths, deps.download, checked);

  const newRunState = (
    def: ResolvedDefinition,
    files: readonly FileSummary[],
    options: {
      priority: number;
      metadata: JsonObject;
      batchId: string | null;
      overrides: Record<string, JsonValue>;
    },
  ): RunState => {
    const now = ctx.nowIso();
    return {
      v: 1,
      id: ctx.newId('workflow_run_'),
      workflow: def.workflow,
      workflowVersion: def.version,
      definitionId: def.definitionId,
      status: 'PENDING',
      priority: options.priority,
      metadata: options.metadata,
      batchId: options.batchId,
      fileIds: files.map((f) => f.id),
      fileIndex: Object.fromEntries(files.map((f) => [f.id, f])),
      outputOverrides: options.overrides,
      failureReason: null,
      failureMessage: null,
      initialRunAt: null,
      startTime: null,
      endTime: null,
      reviewed: false,
      reviewedByUser: null,
      reviewedAt: null,
      rejectionNote: null,
      stepRuns: [],
      createdAt: now,
      updatedAt: now,
    };
  };

  const begin = async (
    state: RunState,
    secrets: Readonly<Record<string, string>> | undefined,
    failure: { reason: string; message: string } | undefined,
  ): Promise<RunState> => {
    if (secrets && Object.keys(secrets).length > 0) {
      state.secretsRef = await deps.secrets.store(ctx.storage, state.id, secrets);
    }
    return store.create(state, (s, tctx, fx) => {
      if (failure) failRun(s, fx, tctx.now, failure.reason, failure.message);
      else startRun(s, tctx, fx);
    });
  };

  const checkSecrets = (secrets: unknown, path: string): ValidationIssue[] =>
    secrets === undefined || (typeof secrets === 'object' && secrets !== null)
      ? []
      : [issue('INVALID_SECRETS', path, 'must be an object of strings')];

  return {
    async create(input) {
      assertNoIssues(checkCreateRunInput(input), 'workflow run');
      assertNoIssues(checkSecrets(input.secrets, 'secrets'), 'workflow run');
      const sources: RunFileSource[] = input.file
        ? [input.file]
        : [...(input.package?.files ?? [])];
      const paths = input.file ? ['file'] : sources.map((_, i) => `package.files[${i}]`);
      // The workflow and the stored files the run names are read at once (one wait, not two);
      // their errors come in the order they would one after the other.
      const [workflow, checked] = await Promise.allSettled([
        deps.resolve(input.workflow, 'workflow'),
        checkFileIds(ctx, sources, paths),
      ]);
      if (workflow.status === 'rejected') throw workflow.reason;
      const def = workflow.value;
      assertNoIssues(outputsIssues(def, input.outputs ?? []), 'workflow run');
      if (checked.status === 'rejected') throw checked.reason;
      const resolved = await resolveFiles(sources, paths, checked.value);
      const overrides: Record<string, JsonValue> = {};
      for (const o of input.outputs ?? []) overrides[o.processorId] = o.output;
      const state = newRunState(def, resolved.summaries, {
        priority: input.priority ?? 50,
        metadata: checkMetadata(input.metadata, 'metadata').metadata,
        batchId: null,
        overrides,
      });
      const begun = await keepFilesIfDone(ctx, [resolved], () =>
        begin(state, input.secrets, resolved.failure),
      );
      // Its files were found or stored by this call: they are not looked up again.
      return project(begun, true);
    },

    async createBatch(input) {
      assertNoIssues(checkBatchInput(input), 'workflow run batch');
      const def = await deps.resolve(input.workflow, 'workflow');
      const resolved: (ResolvedFiles & { item: BatchRunInput })[] = [];
      // Check every file id first: a bad input creates no run at all.
      await checkFileIds(
        ctx,
        input.inputs.map((item) => item.file),
        input.inputs.map((_, i) => `inputs[${i}].file`),
      );
      await keepFilesIfDone(ctx, resolved, async () => {
        for (const [i, item] of input.inputs.entries()) {
          resolved.push({ ...(await resolveFiles([item.file], [`inputs[${i}].file`])), item });
        }
      });
      const batchId = ctx.newId('workflow_batch_');
      const runs: WorkflowRun[] = [];
      for (const [i, { summaries, failure, item }] of resolved.entries()) {
        const state = newRunState(def, summaries, {
          priority: input.priority ?? 90,
          metadata: checkMetadata(item.metadata, 'metadata').metadata,
          batchId,
          overrides: {},
        });
        // A run that could not be created keeps none of the files of those not created yet.
        const begun = await keepFilesIfDone(ctx, resolved.slice(i), () =>
          begin(state, item.secrets, failure),
        );
        runs.push(toWorkflowRun(begun));
      }
      return { object: 'workflow_run_batch', batchId, runs };
    },

    async get(id) {
      return project(await load(id));
    },

    async getJson(id) {
      if (typeof id !== 'string' || id === '') throw notFound('workflow run', id);
      // Kept until this engine commits something the text shows (`runtime/run-texts.ts`).
      return store.texts.text(id, deps.fileDeletions.count, async () => {
        const state = await load(id);
        return { status: state.status, json: JSON.stringify(await project(state)) };
      });
    },

    async list(params) {
      return listPage(
        params,
        (page) =>
          ctx.storage.listRuns({
            ...page,
            kind: 'workflow_run',
            ...(params?.workflowId === undefined ? {} : { workflowId: params.workflowId }),
            ...(params?.status === undefined ? {} : { status: params.status }),
            ...(params?.batchId === undefined ? {} : { batchId: params.batchId }),
          }),
        (r) => project(r.snapshot as unknown as RunState),
      );
    },

    async waitFor(id, options) {
      // The first look takes the state this process holds, if it runs the run and it is not
      // settled there: its own commits settle the waiter; on a shared store another process's
      // commit that settles it wakes the waiter (`Waiters.poke`), and one that came before the
      // waiter took the held state away (`RunStore.settledElsewhere`), so that this look reads
      // storage. Whatever is returned settled was read from storage. A run that is missing (or
      // deleted while waited for) is NOT_FOUND.
      let look = async (): Promise<RunState | undefined> => {
        const cached = store.cached(id as string);
        if (cached !== undefined && !isSettledRunStatus(cached.status)) return cached;
        return store.get(id as string);
      };
      const settled = await deps.settled.wait(
        id,
        'workflow run',
        async () => {
          const state = typeof id === 'string' && id !== '' ? await look() : undefined;
          look = () => store.get(id);
          if (!state) throw notFound('workflow run', id);
          return state;
        },
        (latest) => isSettledRunStatus(latest.status),
        { ...options, pollMs: sharedStorePollMs(ctx.storage) },
      );
      return project(settled);
    },

    async cancel(id) {
      await load(id);
      const state = await store.mutate(id, (s, tctx, fx) => {
        if (isFinalRunStatus(s.status)) {
          throw new EngineError(
            EngineErrorCode.INVALID_STATE,
            `workflow run ${id} is ${s.status} and cannot be cancelled`,
          );
        }
        if (s.status === 'CANCELLING') return false;
        cancelRun(s, fx, tctx.now);
        return true;
      });
      return project(state);
    },

    async review(id, input) {
      assertNoIssues(reviewInputIssues(input), 'review');
      await load(id);
      const state = await store.mutateWith(
        id,
        (s) => loadCorrections(store, s, input.decision === 'approve' ? (input.outputs ?? []) : []),
        (s, tctx, fx, corrections) => applyReview(s, tctx, fx, input, corrections),
      );
      return project(state);
    },

    async update(id, input) {
      await load(id);
      const checked = checkMetadata(input?.metadata, 'metadata');
      if (typeof input?.metadata !== 'object' || input.metadata === null) {
        checked.issues.push(issue('REQUIRED', 'metadata', 'must be an object'));
      }
      assertNoIssues(checked.issues, 'workflow run update');
      const state = await store.mutate(id, (s, tctx, fx) => {
        const merged = checkMetadata({ ...s.metadata, ...checked.metadata }, 'metadata');
        assertNoIssues(merged.issues, 'workflow run update');
        s.metadata = merged.metadata;
        s.updatedAt = tctx.now;
        fx.events.push({
          type: 'run.metadata_updated',
          data: { keys: Object.keys(checked.metadata) },
        });
        return true;
      });
      return project(state);
    },

    async delete(id) {
      const state = await load(id);
      for (const sr of state.stepRuns) deps.aborts.get(sr.id)?.abort(new Error('run deleted'));
      await ctx.storage.commit({ deleteRuns: [id] });
      store.evict(id);
      for (const sr of state.stepRuns) {
        if (sr.outputRef) await ctx.storage.blobs.delete(sr.outputRef);
      }
      if (state.secretsRef) await ctx.storage.blobs.delete(state.secretsRef);
      return { object: 'workflow_run', id, deleted: true };
    },
  };
}
