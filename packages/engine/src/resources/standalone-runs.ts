import type { JsonObject } from '@docflow/storage';
import { configValidator } from '../definition/check-executors.ts';
import {
  assertNoIssues,
  EngineError,
  EngineErrorCode,
  notFound,
  type ValidationIssue,
} from '../errors.ts';
import {
  checkFileIds,
  type Download,
  keepFilesIfDone,
  type ResolvedFiles,
  type RunFileSource,
  resolveFileSources,
} from '../files/file-sources.ts';
import { presentFiles } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import { withJsonSchema } from '../processors/legacy-fields-schema.ts';
import type { ProcessorResolutionService } from '../processors/processor-resolution.ts';
import type { ProcessorUsed } from '../processors/processor-resource.ts';
import { isFinalStandaloneRunStatus, type StandaloneRunStatus } from '../run/lifecycle.ts';
import type { StandaloneRunStore } from '../runtime/standalone-store.ts';
import { sharedStorePollMs, type Waiters } from '../runtime/waiters.ts';
import {
  type AnyStandaloneInput,
  batchInputIssues,
  createInputIssues,
  type ProcessorReferenceInput,
  type StandaloneBatchInputOf,
  type StandaloneRunInputOf,
} from '../standalone/standalone-input.ts';
import { STANDALONE_KIND_SPECS, type StandaloneKind } from '../standalone/standalone-kinds.ts';
import { type StandaloneRunOf, toStandaloneRun } from '../standalone/standalone-resource.ts';
import { readStandaloneState, type StandaloneRunState } from '../standalone/standalone-state.ts';
import {
  cancelRun,
  createRun,
  newStandaloneEffects,
  type StandaloneEffects,
} from '../standalone/standalone-transitions.ts';
import type { StepExecutor, StepType } from '../step-executor.ts';
import { issuesOf } from '../validation/json-schema.ts';
import { checkMetadata } from '../validation/request-parts.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';

/** Filters of a standalone runs list. Newest first unless `sortDir` says. */
export interface ListStandaloneRunsParams extends SortedPageParams {
  readonly status?: StandaloneRunStatus;
  readonly batchId?: string;
}

/** A batch of standalone runs: its id and the runs it created. */
export interface StandaloneRunBatch<K extends StandaloneKind> {
  readonly object: 'batch';
  readonly batchId: string;
  readonly runs: readonly StandaloneRunOf[K][];
}

/** `engine.parseRuns`, `engine.extractRuns`, `engine.classifyRuns`, `engine.splitRuns`. */
export interface StandaloneRunsService<K extends StandaloneKind> {
  /** Creates a run; its file is checked (ids) or fetched (URLs) first, its config validated. */
  create(input: StandaloneRunInputOf[K]): Promise<StandaloneRunOf[K]>;
  /** 1 to 1000 runs sharing a `batchId` and the same config or processor, PENDING until they start. */
  batch(input: StandaloneBatchInputOf[K]): Promise<StandaloneRunBatch<K>>;
  get(id: string): Promise<StandaloneRunOf[K]>;
  list(params?: ListStandaloneRunsParams): Promise<ListResult<StandaloneRunOf[K]>>;
  /** Only PENDING or PROCESSING runs can be cancelled; an executing attempt is aborted. */
  cancel(id: string): Promise<StandaloneRunOf[K]>;
  /** Resolves when the run is PROCESSED, FAILED or CANCELLED. */
  waitFor(
    id: string,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<StandaloneRunOf[K]>;
  /** Removes the run and its data; an executing attempt is aborted. */
  delete(id: string): Promise<{ object: K; id: string; deleted: true }>;
}

/** `engine.parseRuns`. */
export type ParseRunsService = StandaloneRunsService<'parse_run'>;
/** `engine.extractRuns`. */
export type ExtractRunsService = StandaloneRunsService<'extract_run'>;
/** `engine.classifyRuns`. */
export type ClassifyRunsService = StandaloneRunsService<'classify_run'>;
/** `engine.splitRuns`. */
export type SplitRunsService = StandaloneRunsService<'split_run'>;

/** What the standalone run services need. */
export interface StandaloneRunsDependencies {
  readonly ctx: EngineContext;
  readonly store: StandaloneRunStore;
  readonly finished: Waiters<StandaloneRunState>;
  readonly executors: ReadonlyMap<StepType, StepExecutor>;
  readonly processors: ProcessorResolutionService;
  readonly download: Download;
}

/** A run's configuration: what the executor gets, what the run reports, and the processor. */
interface PlannedConfig {
  readonly stepConfig: JsonObject;
  readonly config: JsonObject;
  readonly processor: ProcessorUsed | null;
}

/** Creates the service of one kind of standalone run. */
export function createStandaloneRunsService<K extends StandaloneKind>(
  kind: K,
  deps: StandaloneRunsDependencies,
): StandaloneRunsService<K> {
  const { ctx, store } = deps;
  const spec = STANDALONE_KIND_SPECS[kind];

  const load = async (id: unknown): Promise<StandaloneRunState> => {
    const loaded = await store.load(id);
    if (!loaded || loaded.state.kind !== kind) throw notFound(spec.label, id);
    return loaded.state;
  };

  const project = async (state: StandaloneRunState): Promise<StandaloneRunOf[K]> => {
    const present = await presentFiles(ctx, state.fileIds);
    return toStandaloneRun(state, (id) => present.has(id)) as StandaloneRunOf[K];
  };

  const planConfig = async (input: AnyStandaloneInput): Promise<PlannedConfig> => {
    const reference = spec.processor === undefined ? undefined : input[spec.processor];
    let config = input.config ?? {};
    let processor: ProcessorUsed | null = null;
    if (reference !== undefined && spec.processor !== undefined) {
      const resolved = await deps.processors.resolve(spec.processor, reference, spec.processor);
      processor = { summary: resolved.processor, version: resolved.versionSummary };
      const saved =
        spec.processor === 'extractor' ? withJsonSchema(resolved.config) : resolved.config;
      config = { ...saved, ...(reference.overrideConfig ?? {}) };
    }
    const executor = deps.executors.get(spec.stepType);
    if (!executor) {
      assertNoIssues(
        [
          {
            code: 'NO_EXECUTOR',
            path: reference === undefined ? 'config' : (spec.processor as string),
            message: `no executor is registered for ${spec.stepType}`,
          },
        ],
        spec.label,
      );
    }
    const stepConfig: JsonObject =
      input.config === undefined && reference === undefined ? {} : { [spec.inlineKey]: config };
    assertNoIssues(configIssues(executor as StepExecutor, stepConfig, reference), spec.label);
    const applied = executor?.appliedConfig?.(stepConfig)[spec.inlineKey];
    return {
      stepConfig,
      config: (applied as JsonObject | undefined) ?? config,
      processor,
    };
  };

  /** The executor's config issues, at the paths the caller wrote (`config.target`, `extractor.overrideConfig.x`). */
  const configIssues = (
    executor: StepExecutor,
    stepConfig: JsonObject,
    reference: ProcessorReferenceInput | undefined,
  ): ValidationIssue[] => {
    const schema = executor.configSchema;
    if (!schema) return [];
    const prefix = `${spec.inlineKey}.`;
    return issuesOf(configValidator(schema, spec.stepType), stepConfig, {
      code: 'CONFIG_INVALID',
    }).map((issue) => {
      const rest = issue.path.startsWith(prefix) ? issue.path.slice(prefix.length) : '';
      const key = rest.split(/[.[]/)[0] ?? '';
      const base =
        reference === undefined
          ? 'config'
          : reference.overrideConfig !== undefined && key in reference.overrideConfig
            ? `${spec.processor}.overrideConfig`
            : (spec.processor as string);
      return { ...issue, path: rest === '' ? base : `${base}.${rest}` };
    });
  };

  const newState = (
    planned: PlannedConfig,
    files: ResolvedFiles,
    options: {
      readonly batchId: string | null;
      readonly priority: number;
      readonly metadata: JsonObject;
      readonly multifile: boolean;
    },
  ): { state: StandaloneRunState; fx: StandaloneEffects } => {
    const now = ctx.nowIso();
    const state: StandaloneRunState = {
      v: 2,
      id: ctx.newId(spec.prefix),
      kind,
      status: 'PENDING',
      priority: options.priority,
      batchId: options.batchId,
      metadata: options.metadata,
      attempt: 0,
      config: planned.config,
      stepConfig: planned.stepConfig,
      processor: planned.processor,
      fileIds: files.summaries.map((f) => f.id),
      fileIndex: Object.fromEntries(files.summaries.map((f) => [f.id, f])),
      multifile: options.multifile,
      output: null,
      usage: null,
      failureReason: null,
      failureMessage: null,
      startTime: null,
      createdAt: now,
      updatedAt: now,
    };
    const fx = newStandaloneEffects();
    createRun(state, fx, now, files.failure);
    return { state, fx };
  };

  return {
    async create(input) {
      const any = input as AnyStandaloneInput;
      assertNoIssues(createInputIssues(kind, input), spec.label);
      const planned = await planConfig(any);
      const sources: RunFileSource[] = any.file ? [any.file] : [...(any.package?.files ?? [])];
      const paths = any.file ? ['file'] : sources.map((_, i) => `package.files[${i}]`);
      const files = await resolveFileSources(ctx, sources, paths, deps.download);
      const entry = newState(planned, files, {
        batchId: null,
        priority: any.priority ?? 50,
        metadata: checkMetadata(any.metadata, 'metadata').metadata,
        multifile: any.package !== undefined,
      });
      await keepFilesIfDone(ctx, [files], () => store.create([entry]));
      return project(entry.state);
    },

    async batch(input) {
      assertNoIssues(batchInputIssues(kind, input), `${spec.label} batch`);
      const any = input as unknown as AnyStandaloneInput & {
        inputs: readonly { file: RunFileSource; metadata?: JsonObject }[];
      };
      const planned = await planConfig(any);
      // Every file id first: a bad input creates no run at all.
      await checkFileIds(
        ctx,
        any.inputs.map((item) => item.file),
        any.inputs.map((_, i) => `inputs[${i}].file`),
      );
      const batchId = ctx.newId(spec.batchPrefix);
      const entries: ReturnType<typeof newState>[] = [];
      const resolved: ResolvedFiles[] = [];
      await keepFilesIfDone(ctx, resolved, async () => {
        for (const [i, item] of any.inputs.entries()) {
          const files = await resolveFileSources(
            ctx,
            [item.file],
            [`inputs[${i}].file`],
            deps.download,
          );
          resolved.push(files);
          entries.push(
            newState(planned, files, {
              batchId,
              priority: any.priority ?? 90,
              metadata: checkMetadata(item.metadata, 'metadata').metadata,
              multifile: false,
            }),
          );
        }
        await store.create(entries);
      });
      return {
        object: 'batch',
        batchId,
        runs: await Promise.all(entries.map((e) => project(e.state))),
      };
    },

    async get(id) {
      return project(await load(id));
    },

    async list(params) {
      return listPage(
        params,
        (page) =>
          ctx.storage.listRuns({
            ...page,
            kind,
            ...(params?.status ? { status: params.status } : {}),
            ...(params?.batchId ? { batchId: params.batchId } : {}),
          }),
        (record) => project(readStandaloneState(record.snapshot)),
      );
    },

    async cancel(id) {
      await load(id);
      const state = await store.mutate(id, (s, fx, now) => {
        if (isFinalStandaloneRunStatus(s.status)) {
          throw new EngineError(
            EngineErrorCode.INVALID_STATE,
            `${spec.label} ${id} is ${s.status}; only PENDING or PROCESSING runs can be cancelled`,
          );
        }
        return cancelRun(s, fx, now);
      });
      return project(state);
    },

    async waitFor(id, options) {
      const state = await load(id);
      if (isFinalStandaloneRunStatus(state.status)) return project(state);
      const finished = await deps.finished.wait(
        id,
        spec.label,
        async () => (await store.load(id))?.state,
        (s) => isFinalStandaloneRunStatus(s.status),
        { ...options, pollMs: sharedStorePollMs(ctx.storage) },
      );
      return project(finished);
    },

    async delete(id) {
      await load(id);
      await store.delete(id);
      return { object: kind, id, deleted: true };
    },
  };
}

/** The four standalone run services. */
export interface StandaloneRunsServices {
  readonly parseRuns: ParseRunsService;
  readonly extractRuns: ExtractRunsService;
  readonly classifyRuns: ClassifyRunsService;
  readonly splitRuns: SplitRunsService;
}

/** Creates `engine.parseRuns`, `extractRuns`, `classifyRuns` and `splitRuns`. */
export function createStandaloneRunsServices(
  deps: StandaloneRunsDependencies,
): StandaloneRunsServices {
  return {
    parseRuns: createStandaloneRunsService('parse_run', deps),
    extractRuns: createStandaloneRunsService('extract_run', deps),
    classifyRuns: createStandaloneRunsService('classify_run', deps),
    splitRuns: createStandaloneRunsService('split_run', deps),
  };
}

/** The input of `engine.parse`: one file and an optional ParseConfig. */
export interface ParseNowInput {
  readonly file: RunFileSource;
  readonly config?: JsonObject;
}

/**
 * Parses a file synchronously (the interface's POST /parse): creates a parse run and waits for it, at
 * most five minutes.
 */
export async function parseNow(
  parseRuns: ParseRunsService,
  input: ParseNowInput,
): Promise<StandaloneRunOf['parse_run']> {
  const run = await parseRuns.create({
    file: input.file,
    ...(input.config ? { config: input.config } : {}),
  });
  return parseRuns.waitFor(run.id, { timeoutMs: 5 * 60_000 });
}
