import type { DeliveryWrite, JsonObject, JsonValue, RunRecord, WorkItem } from '@docflow/storage';
import {
  assertNoIssues,
  EngineError,
  EngineErrorCode,
  notFound,
  StepError,
  type ValidationIssue,
} from '../errors.ts';
import type { EventResource } from '../events/event-types.ts';
import { readFileBytes, storeFile, toFileSummary } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { type ListResult, listPage, type PageParams } from '../resources/list-result.ts';
import { checkMetadata } from '../resources/run-input.ts';
import { KeyedMutex } from '../runtime/keyed-mutex.ts';
import {
  type FileSummary,
  isStepFailure,
  type StepContext,
  type StepExecutor,
  type StepOutcome,
  type StepType,
} from '../step-executor.ts';

/** The kinds of standalone runs (SPEC.md parse, extract, classify and split runs). */
export type StandaloneKind = 'parse_run' | 'extract_run' | 'classify_run' | 'split_run';

/** Statuses of standalone runs. */
export type StandaloneStatus = 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'FAILED' | 'CANCELLED';

interface KindSpec {
  readonly prefix: string;
  readonly batchPrefix: string;
  readonly stepType: StepType;
  /** The processor kind whose resource events are scoped to (none for parse runs). */
  readonly processor?: 'extractor' | 'classifier' | 'splitter';
  /** The step config key of an inline config and of a saved-processor reference. */
  readonly inlineKey: string;
  readonly refKey?: string;
  readonly batchEvent: string;
}

const KINDS: Record<StandaloneKind, KindSpec> = {
  parse_run: {
    prefix: 'pr_',
    batchPrefix: 'bpar_',
    stepType: 'PARSE',
    inlineKey: 'parseConfig',
    batchEvent: 'batch_parse_run',
  },
  extract_run: {
    prefix: 'exr_',
    batchPrefix: 'bpr_',
    stepType: 'EXTRACT',
    processor: 'extractor',
    inlineKey: 'extractorConfig',
    refKey: 'extractor',
    batchEvent: 'batch_processor_run',
  },
  classify_run: {
    prefix: 'clr_',
    batchPrefix: 'bpr_',
    stepType: 'CLASSIFY',
    processor: 'classifier',
    inlineKey: 'classifierConfig',
    refKey: 'classifier',
    batchEvent: 'batch_processor_run',
  },
  split_run: {
    prefix: 'splr_',
    batchPrefix: 'bpr_',
    stepType: 'SPLIT',
    processor: 'splitter',
    inlineKey: 'splitterConfig',
    refKey: 'splitter',
    batchEvent: 'batch_processor_run',
  },
};

/** Input of a standalone run's `create`. */
export interface CreateStandaloneRunInput {
  /** A stored file (`{ id }`); extract runs may take `files` instead (2 to 50, multifile). */
  readonly file?: { readonly id: string } | { readonly text: string; readonly name?: string };
  readonly files?: readonly { readonly id: string }[];
  /** Inline configuration (ParseConfig, or the processor config). */
  readonly config?: JsonObject;
  /** A saved processor at a version (processor runs only). */
  readonly processor?: { readonly id: string; readonly version?: string };
  readonly metadata?: JsonObject;
  readonly priority?: number;
}

/** A standalone run as SPEC.md shapes it (common fields; kind-specific ones are added). */
export type StandaloneRun = JsonObject & {
  readonly object: StandaloneKind;
  readonly id: string;
  readonly status: StandaloneStatus;
};

/** `engine.parseRuns`, `engine.extractRuns`, `engine.classifyRuns`, `engine.splitRuns`. */
export interface StandaloneRunsService {
  create(input: CreateStandaloneRunInput): Promise<StandaloneRun>;
  /** Many runs sharing a `batchId`; each input as for `create`. */
  batch(input: {
    readonly inputs: readonly CreateStandaloneRunInput[];
  }): Promise<{ object: 'batch'; batchId: string; runs: StandaloneRun[] }>;
  get(id: string): Promise<StandaloneRun>;
  list(
    params?: PageParams & { status?: StandaloneStatus; batchId?: string },
  ): Promise<ListResult<StandaloneRun>>;
  /** Only PROCESSING (or PENDING) runs can be cancelled. */
  cancel(id: string): Promise<StandaloneRun>;
  /** Resolves when the run is PROCESSED, FAILED or CANCELLED. */
  waitFor(id: string, options?: { timeoutMs?: number }): Promise<StandaloneRun>;
}

/** What standalone runs need from the engine. */
export interface StandaloneDependencies {
  readonly ctx: EngineContext;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  /** The scheduler learns about queued work through this. */
  notifyEnqueued(): void;
  /** Saved processor configs for executors (`context.resolveProcessor`). */
  readonly resolveProcessor?: StepContext['resolveProcessor'];
  /** Checks a step config against the executor's schema; returns issues with paths under `base`. */
  checkConfig(stepType: StepType, config: JsonObject, base: string): ValidationIssue[];
}

interface StandaloneState {
  readonly run: Record<string, JsonValue>;
  readonly stepConfig: JsonObject;
  readonly fileIds: string[];
  readonly fileIndex: Record<string, FileSummary>;
}

const FINAL: ReadonlySet<string> = new Set(['PROCESSED', 'FAILED', 'CANCELLED']);

/** The registry of standalone-run services; the step runner hands their work items here. */
export class StandaloneRuns {
  readonly #deps: StandaloneDependencies;
  readonly #mutex = new KeyedMutex();
  readonly #controllers = new Map<string, AbortController>();
  readonly #waiters = new Map<string, Set<(run: StandaloneRun) => void>>();

  constructor(deps: StandaloneDependencies) {
    this.#deps = deps;
  }

  /** True when the work item belongs to a standalone run. */
  static owns(item: WorkItem): boolean {
    return typeof item.payload.standaloneRunId === 'string';
  }

  /** The service of one kind. */
  service(kind: StandaloneKind): StandaloneRunsService {
    const spec = KINDS[kind];
    const { ctx } = this.#deps;
    const load = async (id: unknown): Promise<RunRecord> => {
      const record = typeof id === 'string' ? await ctx.storage.getRun(id) : undefined;
      if (!record || record.kind !== kind) throw notFound(kind.replace('_', ' '), String(id));
      return record;
    };
    const prepare = async (
      input: CreateStandaloneRunInput,
      path: string,
      batchId: string | null,
    ) => {
      const issues: ValidationIssue[] = [];
      if (typeof input !== 'object' || input === null) {
        assertNoIssues([{ code: 'INVALID_INPUT', path, message: 'must be an object' }], kind);
      }
      const p = (s: string) => (path === '' ? s : `${path}.${s}`);
      if ((input.file === undefined) === (input.files === undefined)) {
        issues.push({
          code: 'FILE_OR_FILES',
          path: p('file'),
          message: 'exactly one of file or files is required',
        });
      }
      if (
        input.files !== undefined &&
        (kind !== 'extract_run' ||
          !Array.isArray(input.files) ||
          input.files.length < 2 ||
          input.files.length > 50)
      ) {
        issues.push({
          code: 'INVALID_FILES',
          path: p('files'),
          message:
            kind === 'extract_run'
              ? 'must list 2 to 50 files'
              : 'only extract runs take several files',
        });
      }
      if (spec.processor === undefined && input.processor !== undefined) {
        issues.push({
          code: 'NOT_ALLOWED',
          path: p('processor'),
          message: 'parse runs take an inline config only',
        });
      }
      if (
        spec.processor !== undefined &&
        (input.processor === undefined) === (input.config === undefined)
      ) {
        issues.push({
          code: 'CONFIG_OR_PROCESSOR',
          path: p('config'),
          message: 'exactly one of config or processor is required',
        });
      }
      if (
        input.priority !== undefined &&
        (!Number.isInteger(input.priority) || input.priority < 1 || input.priority > 100)
      ) {
        issues.push({
          code: 'INVALID_PRIORITY',
          path: p('priority'),
          message: 'must be an integer from 1 to 100',
        });
      }
      const metadata = checkMetadata(input.metadata, p('metadata'));
      issues.push(...metadata.issues);
      const stepConfig: JsonObject =
        input.processor !== undefined && spec.refKey
          ? {
              [spec.refKey]: {
                id: input.processor.id,
                version: input.processor.version ?? 'latest',
              },
            }
          : input.config === undefined
            ? {}
            : { [spec.inlineKey]: input.config };
      if (issues.length === 0) {
        const base = p(input.processor ? 'processor' : 'config');
        for (const issue of this.#deps.checkConfig(spec.stepType, stepConfig, '')) {
          // The executor sees `{ parseConfig: … }`; the caller wrote `config: …`.
          issues.push({ ...issue, path: issue.path.replace(/^[A-Za-z]+/, base) });
        }
        if (!this.#deps.executors.has(spec.stepType)) {
          issues.push({
            code: 'NO_EXECUTOR',
            path: p('config'),
            message: `no executor is registered for ${spec.stepType}`,
          });
        }
      }
      const files: FileSummary[] = [];
      for (const [i, f] of [
        ...(input.file ? [input.file] : []),
        ...(input.files ?? []),
      ].entries()) {
        const fp = input.file ? p('file') : p(`files[${i}]`);
        if ('id' in f) {
          const doc =
            typeof f.id === 'string' ? await ctx.storage.getDocument('files', f.id) : undefined;
          if (!doc)
            issues.push({
              code: 'NOT_FOUND',
              path: `${fp}.id`,
              message: `file ${String(f.id)} does not exist`,
            });
          else files.push(toFileSummary(doc.data));
        } else if (typeof (f as { text?: unknown }).text !== 'string') {
          issues.push({
            code: 'INVALID_FILE_SOURCE',
            path: fp,
            message: 'must be { id } or { text }',
          });
        }
      }
      assertNoIssues(issues, kind.replace('_', ' '));
      if (input.file && 'text' in input.file) {
        files.push(
          await storeFile(ctx, {
            name: input.file.name ?? 'text.txt',
            data: new TextEncoder().encode(input.file.text),
          }),
        );
      }
      const now = ctx.nowIso();
      const id = ctx.newId(spec.prefix);
      const run: Record<string, JsonValue> = {
        object: kind,
        id,
        status: batchId ? 'PENDING' : 'PROCESSING',
        output: null,
        failureReason: null,
        failureMessage: null,
        metadata: metadata.metadata,
        config: (input.config ?? null) as JsonValue,
        usage: null,
        batchId,
        createdAt: now,
        updatedAt: now,
      };
      if (kind === 'parse_run') {
        run.file = (files[0] ?? null) as unknown as JsonValue;
        run.outputUrl = null;
        run.metrics = null;
      } else {
        run.initialOutput = null;
        run.reviewedOutput = null;
        run.reviewed = false;
        run.edited = false;
        run.edits = null;
        run.parseRunId = null;
        run.dashboardUrl = null;
        if (spec.processor) {
          run[spec.processor] = input.processor
            ? ({ object: spec.processor, id: input.processor.id } as JsonValue)
            : null;
          run[`${spec.processor}Version`] = input.processor
            ? (input.processor.version ?? 'latest')
            : null;
        }
        if (files.length > 1) {
          run.file = null;
          run.files = files as unknown as JsonValue;
        } else run.file = (files[0] ?? null) as unknown as JsonValue;
      }
      const state: StandaloneState = {
        run,
        stepConfig,
        fileIds: files.map((f) => f.id),
        fileIndex: Object.fromEntries(files.map((f) => [f.id, f])),
      };
      return { state, priority: input.priority ?? (batchId ? 90 : 50) };
    };
    const commitNew = async (entries: { state: StandaloneState; priority: number }[]) => {
      await ctx.storage.commit({
        runs: entries.map(({ state, priority }) => ({
          id: state.run.id as string,
          kind,
          batchId: (state.run.batchId as string | null) ?? undefined,
          status: state.run.status as string,
          active: true,
          priority,
          snapshot: state as unknown as JsonObject,
          expectedRevision: 0,
          events: [{ type: 'run.created', data: { status: state.run.status as string } }],
        })),
        enqueue: entries.map(({ state, priority }) => ({
          id: `${state.run.id as string}#1`,
          runId: state.run.id as string,
          kind: `step:${spec.stepType}`,
          priority,
          payload: { standaloneRunId: state.run.id as string },
        })),
      });
      this.#deps.notifyEnqueued();
    };
    const view = (record: RunRecord) =>
      (record.snapshot as unknown as StandaloneState).run as StandaloneRun;
    return {
      create: async (input) => {
        const entry = await prepare(input, '', null);
        await commitNew([entry]);
        return entry.state.run as StandaloneRun;
      },
      batch: async (input) => {
        if (
          !Array.isArray(input?.inputs) ||
          input.inputs.length < 1 ||
          input.inputs.length > 1000
        ) {
          assertNoIssues(
            [{ code: 'INVALID_BATCH', path: 'inputs', message: 'must list 1 to 1000 inputs' }],
            'batch',
          );
        }
        const batchId = ctx.newId(spec.batchPrefix);
        const entries = [];
        for (const [i, item] of input.inputs.entries())
          entries.push(await prepare(item, `inputs[${i}]`, batchId));
        await commitNew(entries);
        return { object: 'batch', batchId, runs: entries.map((e) => e.state.run as StandaloneRun) };
      },
      get: async (id) => view(await load(id)),
      list: async (params) => {
        return listPage(
          params,
          (page) =>
            ctx.storage.listRuns({
              ...page,
              kind,
              ...(params?.status ? { status: params.status } : {}),
              ...(params?.batchId ? { batchId: params.batchId } : {}),
            }),
          view,
        );
      },
      cancel: async (id) => {
        await load(id);
        const run = await this.#finish(id, kind, (state) => {
          if (FINAL.has(state.run.status as string)) {
            throw new EngineError(
              EngineErrorCode.INVALID_STATE,
              `${kind} ${id} is ${String(state.run.status)}; only PROCESSING runs can be cancelled`,
            );
          }
          return { status: 'CANCELLED' };
        });
        this.#controllers.get(id)?.abort(new Error('run cancelled'));
        return run;
      },
      waitFor: async (id, options) => {
        const current = view(await load(id));
        if (FINAL.has(current.status)) return current;
        return new Promise<StandaloneRun>((resolve, reject) => {
          let set = this.#waiters.get(id);
          if (!set) {
            set = new Set();
            this.#waiters.set(id, set);
          }
          const timer =
            options?.timeoutMs === undefined
              ? undefined
              : setTimeout(() => {
                  set.delete(done);
                  reject(
                    new EngineError(
                      EngineErrorCode.TIMEOUT,
                      `${kind} ${id} did not finish within ${options.timeoutMs} ms`,
                    ),
                  );
                }, options.timeoutMs);
          const done = (run: StandaloneRun) => {
            if (timer) clearTimeout(timer);
            resolve(run);
          };
          set.add(done);
          void load(id).then((r) => {
            if (FINAL.has(view(r).status)) {
              set.delete(done);
              done(view(r));
            }
          });
        });
      },
    };
  }

  /** Applies a final (or PROCESSING) change under the run's lock, with its event and deliveries. */
  async #finish(
    id: string,
    kind: StandaloneKind,
    change: (state: StandaloneState) => Partial<Record<string, JsonValue>> | undefined,
    dequeue: readonly string[] = [],
  ): Promise<StandaloneRun> {
    const { ctx } = this.#deps;
    const spec = KINDS[kind];
    const published: Parameters<NonNullable<EngineContext['events']>['publish']>[0][number][] = [];
    const result = await this.#mutex.run(id, async () => {
      const record = await ctx.storage.getRun(id);
      if (!record) throw notFound(kind, id);
      const state = structuredClone(record.snapshot) as unknown as StandaloneState;
      const patch = change(state);
      if (patch === undefined) {
        if (dequeue.length > 0) await ctx.storage.commit({ dequeue });
        return state.run as StandaloneRun;
      }
      Object.assign(state.run, patch, { updatedAt: ctx.nowIso() });
      const status = state.run.status as StandaloneStatus;
      const deliveries: DeliveryWrite[] = [];
      if ((status === 'PROCESSED' || status === 'FAILED') && ctx.events) {
        const resource: EventResource | undefined =
          spec.processor && state.run[spec.processor]
            ? { type: spec.processor, id: (state.run[spec.processor] as { id: string }).id }
            : undefined;
        const prepared = await ctx.events.prepare(
          `${kind}.${status.toLowerCase()}`,
          state.run as JsonObject,
          resource,
        );
        published.push(prepared.event);
        deliveries.push(...prepared.deliveries);
      }
      await ctx.storage.commit({
        runs: [
          {
            id,
            kind,
            batchId: record.batchId,
            status,
            active: !FINAL.has(status),
            priority: record.priority,
            snapshot: state as unknown as JsonObject,
            expectedRevision: record.revision,
            events: [{ type: `run.${status.toLowerCase()}`, data: { status } }],
          },
        ],
        dequeue,
        deliveries,
      });
      return state.run as StandaloneRun;
    });
    ctx.events?.publish(published);
    if (FINAL.has(result.status)) {
      for (const waiter of this.#waiters.get(id) ?? []) waiter(result);
      this.#waiters.delete(id);
      if (result.batchId) await this.#maybeFinishBatch(kind, result.batchId as string);
    }
    return result;
  }

  async #maybeFinishBatch(kind: StandaloneKind, batchId: string): Promise<void> {
    const { ctx } = this.#deps;
    await this.#mutex.run(batchId, async () => {
      const active = await ctx.storage.listRuns({ kind, batchId, active: true, pageSize: 1 });
      if (active.items.length > 0) return;
      const collection = kind === 'parse_run' ? 'parseRuns' : 'processorRuns';
      // The batch's record doubles as the once-only marker of its completion event.
      if (await ctx.storage.getDocument(collection, batchId)) return;
      const all = await ctx.storage.listRuns({ kind, batchId, pageSize: 1000 });
      const failed = all.items.filter((r) => r.status === 'FAILED').length;
      const type = `${KINDS[kind].batchEvent}.${failed === all.items.length ? 'failed' : 'processed'}`;
      const payload: JsonObject = {
        object: 'batch',
        batchId,
        runCount: all.items.length,
        failedCount: failed,
      };
      const prepared = ctx.events ? await ctx.events.prepare(type, payload) : undefined;
      await ctx.storage.commit({
        documents: [
          { collection, id: batchId, data: { ...payload, eventType: type }, expectedRevision: 0 },
        ],
        deliveries: prepared?.deliveries ?? [],
      });
      if (prepared) ctx.events?.publish([prepared.event]);
    });
  }

  /** Executes the work item of a standalone run (called by the scheduler). */
  async execute(item: WorkItem): Promise<void> {
    const { ctx } = this.#deps;
    const id = item.payload.standaloneRunId as string;
    const record = await ctx.storage.getRun(id);
    if (!record || FINAL.has(record.status)) {
      await ctx.storage.commit({ dequeue: [item.id] });
      return;
    }
    const kind = record.kind as StandaloneKind;
    const spec = KINDS[kind];
    if (record.status === 'PENDING') await this.#finish(id, kind, () => ({ status: 'PROCESSING' }));
    const state = record.snapshot as unknown as StandaloneState;
    const executor = this.#deps.executors.get(spec.stepType);
    const controller = new AbortController();
    this.#controllers.set(id, controller);
    let outcome: StepOutcome | undefined;
    let error: unknown;
    try {
      if (!executor)
        throw new StepError(`no executor is registered for ${spec.stepType}`, { retryable: false });
      outcome = await executor.execute(
        {
          stepName: kind,
          stepType: spec.stepType,
          config: state.stepConfig,
          files: state.fileIds
            .map((f) => state.fileIndex[f])
            .filter((f): f is FileSummary => f !== undefined),
          outputs: {},
          metadata: (state.run.metadata ?? {}) as JsonObject,
        },
        {
          signal: controller.signal,
          idempotencyKey: id,
          runId: id,
          stepRunId: id,
          attempt: item.attempts,
          secrets: {},
          now: () => ctx.clock.now(),
          files: {
            read: (fileId) => readFileBytes(ctx, fileId, 'fileId'),
            create: (file) => storeFile(ctx, file, id),
          },
          ...(this.#deps.resolveProcessor ? { resolveProcessor: this.#deps.resolveProcessor } : {}),
        },
      );
    } catch (e) {
      error = e;
    } finally {
      this.#controllers.delete(id);
    }
    if (controller.signal.aborted && controller.signal.reason === STANDALONE_STOPPING) return;
    await this.#finish(
      id,
      kind,
      (s) => {
        if (FINAL.has(s.run.status as string)) return undefined;
        if (error !== undefined || outcome === undefined) {
          const retryable = error instanceof StepError ? error.retryable : true;
          if (retryable && item.attempts < 3) throw new RetryLater(error);
          return {
            status: 'FAILED',
            failureReason: error instanceof StepError ? error.reason : 'INTERNAL_ERROR',
            failureMessage: error instanceof Error ? error.message : String(error),
          };
        }
        if (isStepFailure(outcome)) {
          return {
            status: 'FAILED',
            failureReason: outcome.failure.reason,
            failureMessage: outcome.failure.message,
            usage: (outcome.usage ?? null) as JsonValue,
          };
        }
        const patch: Record<string, JsonValue> = {
          status: 'PROCESSED',
          output: outcome.output,
          usage: (outcome.usage ?? null) as JsonValue,
        };
        if (kind === 'parse_run') patch.metrics = { pageCount: outcome.usage?.pages ?? null };
        return patch;
      },
      [item.id],
    ).catch(async (e) => {
      if (!(e instanceof RetryLater)) throw e;
      // Leave the item to be claimed again after a short delay (its lease is released).
      await ctx.storage.releaseWork([item.id], {
        owner: item.leaseOwner ?? '',
        availableAt: new Date(
          ctx.clock.now().getTime() + 1000 * 2 ** (item.attempts - 1),
        ).toISOString(),
      });
      this.#deps.notifyEnqueued();
    });
  }

  /** Aborts executing standalone runs for `engine.stop()`; their work runs again on start. */
  stopAll(): void {
    for (const c of this.#controllers.values()) c.abort(STANDALONE_STOPPING);
  }
}

const STANDALONE_STOPPING = Symbol('docflow.standalone.stopping');

class RetryLater extends Error {
  constructor(cause: unknown) {
    super('retry later', { cause });
  }
}
