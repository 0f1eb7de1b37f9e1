import {
  type Engine,
  isEngineError,
  type StandaloneKind,
  type StandaloneRunsService,
} from '@docflow/engine';
import { ApiError, notSupported } from '../http/api-error.ts';
import { presignedParseOutputPath } from '../presign/presigned-paths.ts';
import { PRESIGNED_URL_TTL_MS } from '../presign/url-signer.ts';
import { defined } from './objects.ts';
import { listOrder } from './ordering.ts';
import { allOfList, filteredPage, matchesFileName } from './pages.ts';
import { type AnyRoute, type ServerContext, workspaceRoute } from './route.ts';
import {
  anyObject,
  deleted,
  filePackage,
  fileSource,
  fileSummary,
  idParams,
  listOf,
  metadata,
  pageQuery,
  priority,
  processorReference,
  querySchema,
  resource,
  runCommon,
  sortBy,
  sortDir,
  timestamp,
} from './schemas.ts';

type RunKind = StandaloneKind;
type Service = StandaloneRunsService<StandaloneKind>;
type Run = Awaited<ReturnType<Service['get']>>;
/** A run request as the SDK sends it; the library takes it as it is. */
type RunRequestBody = Record<string, unknown> & { dataRetention?: { mode?: string } };
type ProcessorKey = 'extractor' | 'classifier' | 'splitter';

interface KindSpec {
  readonly plural: string;
  readonly sdk: string;
  readonly sync: string;
  readonly label: string;
  readonly processor: ProcessorKey | undefined;
  readonly service: (engine: Engine) => Service;
  /** File sources the SDK may send for one run of this kind. */
  readonly fileKinds: ('id' | 'url' | 'text')[];
}

const KINDS: Record<RunKind, KindSpec> = {
  parse_run: {
    plural: 'parse_runs',
    sdk: 'parseRuns',
    sync: 'parse',
    label: 'parse run',
    processor: undefined,
    service: (e) => e.parseRuns,
    fileKinds: ['id', 'url'],
  },
  extract_run: {
    plural: 'extract_runs',
    sdk: 'extractRuns',
    sync: 'extract',
    label: 'extract run',
    processor: 'extractor',
    service: (e) => e.extractRuns,
    fileKinds: ['id', 'url', 'text'],
  },
  classify_run: {
    plural: 'classify_runs',
    sdk: 'classifyRuns',
    sync: 'classify',
    label: 'classify run',
    processor: 'classifier',
    service: (e) => e.classifyRuns,
    fileKinds: ['id', 'url', 'text'],
  },
  split_run: {
    plural: 'split_runs',
    sdk: 'splitRuns',
    sync: 'split',
    label: 'split run',
    processor: 'splitter',
    service: (e) => e.splitRuns,
    fileKinds: ['id', 'url', 'text'],
  },
};

const STATUSES = ['PENDING', 'PROCESSING', 'PROCESSED', 'FAILED', 'CANCELLED'] as const;

const dataRetention = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { enum: ['workspace_default', 'zero'], description: 'only workspace_default' },
  },
} as const;

function runSchema(kind: RunKind, spec: KindSpec) {
  return resource(kind, {
    ...runCommon,
    status: { enum: STATUSES },
    file: { oneOf: [fileSummary, { type: 'null' }] },
    output: { type: ['object', 'null'] },
    config: anyObject,
    batchId: { type: ['string', 'null'] },
    ...(kind === 'parse_run'
      ? {
          outputUrl: { type: ['string', 'null'], description: 'with responseType=url; 15 minutes' },
        }
      : {
          [spec.processor as string]: { type: ['object', 'null'] },
          reviewed: { type: 'boolean' },
        }),
  });
}

/** A body schema of one run of `kind` as the SDK sends it. */
function createBody(kind: RunKind, spec: KindSpec, options: { sync: boolean }) {
  const properties: Record<string, unknown> = {
    file: fileSource(...spec.fileKinds),
    config: anyObject,
    metadata,
  };
  if (kind === 'parse_run') properties.dataRetention = dataRetention;
  if (!options.sync) {
    if (kind !== 'parse_run') properties.priority = priority;
  }
  if (spec.processor) properties[spec.processor] = processorReference(spec.processor);
  if (kind === 'extract_run') properties.package = filePackage;
  return {
    type: 'object',
    additionalProperties: false,
    ...(kind === 'extract_run' ? {} : { required: ['file'] }),
    properties,
  };
}

function batchBody(spec: KindSpec) {
  const properties: Record<string, unknown> = {
    inputs: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['file'],
        additionalProperties: false,
        properties: { file: fileSource('id', 'url', 'text'), metadata },
      },
    },
    priority,
  };
  if (spec.processor) properties[spec.processor] = processorReference(spec.processor);
  else properties.config = anyObject;
  return {
    type: 'object',
    additionalProperties: false,
    required: spec.processor ? ['inputs', spec.processor] : ['inputs'],
    properties,
  };
}

/**
 * The library's input of a run request: the body as the SDK sends it, without `dataRetention`,
 * which docflow answers only in its default mode (runs are kept until deleted).
 */
function runInput(body: RunRequestBody, path = 'body'): Record<string, unknown> {
  const { dataRetention, ...input } = body;
  if (dataRetention?.mode !== undefined && dataRetention.mode !== 'workspace_default') {
    throw notSupported(`${path}.dataRetention.mode`, 'docflow keeps runs until they are deleted');
  }
  return input;
}

/** A run of any kind, read by field name (the kinds differ in their processor fields). */
const fieldsOf = (run: Run): Record<string, unknown> => run as unknown as Record<string, unknown>;

/** A list item: the run without its outputs and config (SDK ...RunSummary). */
function summaryOf(run: Run) {
  const {
    output: _o,
    initialOutput: _i,
    reviewedOutput: _r,
    edits: _e,
    config: _c,
    outputUrl: _u,
    ...summary
  } = fieldsOf(run);
  return summary;
}

/** A parse run answered with `responseType=url`: the output behind a presigned URL. */
function withOutputUrl(run: Run, workspaceId: string, origin: string, server: ServerContext) {
  if (run.status !== 'PROCESSED') return { ...run, output: null, outputUrl: null };
  const expiresAt = new Date(Date.now() + PRESIGNED_URL_TTL_MS);
  return {
    ...run,
    output: null,
    outputUrl:
      origin + server.signer.sign(presignedParseOutputPath(workspaceId, run.id), expiresAt),
  };
}

/** Waits for a run a synchronous endpoint made; out of time, the run goes on (422 with runId). */
async function settle(
  service: Service,
  run: Run,
  server: ServerContext,
  label: string,
): Promise<Run> {
  try {
    return await service.waitFor(run.id, { timeoutMs: server.syncTimeoutMs });
  } catch (error) {
    if (isEngineError(error, 'TIMEOUT')) {
      throw new ApiError(
        'SYNC_TIMEOUT',
        `The ${label} did not finish within ${Math.round(server.syncTimeoutMs / 1000)} s; it goes on: fetch it by runId, do not resubmit`,
        { runId: run.id },
      );
    }
    throw error;
  }
}

type ListQuery = {
  status?: (typeof STATUSES)[number];
  batchId?: string;
  extractorId?: string;
  classifierId?: string;
  splitterId?: string;
  source?: 'API' | 'STUDIO';
  sourceId?: string;
  fileNameContains?: string;
  sortBy?: 'createdAt' | 'updatedAt';
  sortDir?: 'asc' | 'desc';
  nextPageToken?: string;
  maxPageSize?: number;
};

function routesOf(kind: RunKind): AnyRoute[] {
  const spec = KINDS[kind];
  const { plural, sdk, label } = spec;
  const run = runSchema(kind, spec);
  const tag = `${label[0]?.toUpperCase()}${label.slice(1)}s`;
  const processorIdKey = spec.processor ? `${spec.processor}Id` : undefined;
  const listQuery: Record<string, unknown> = {
    status: { enum: STATUSES },
    batchId: { type: 'string', maxLength: 255 },
    source: { enum: ['API', 'STUDIO'], description: 'every docflow run is API' },
    sourceId: { type: 'string', description: 'not supported' },
    fileNameContains: {
      type: 'string',
      maxLength: 255,
      description: 'a run id, a file id, or text in a file name',
    },
    ...pageQuery,
  };
  if (processorIdKey)
    Object.assign(listQuery, {
      [processorIdKey]: { type: 'string', maxLength: 255 },
      sortBy,
      sortDir,
    });
  const routes: AnyRoute[] = [
    workspaceRoute<Record<string, never>, ListQuery, undefined>({
      method: 'GET',
      path: `/${plural}`,
      operationId: `${sdk}.list`,
      summary: `List ${label}s, newest first`,
      tag,
      query: querySchema(listQuery),
      response: listOf(run),
      async handle({ engine, query }) {
        if (query.sourceId !== undefined) {
          throw notSupported('query.sourceId', 'docflow runs carry no source id');
        }
        if (query.source === 'STUDIO') return { object: 'list', data: [] };
        const service = spec.service(engine);
        const filters = defined({
          status: query.status,
          batchId: query.batchId,
          ...listOrder(query),
        });
        const processorId = processorIdKey
          ? (query[processorIdKey as keyof ListQuery] as string | undefined)
          : undefined;
        const text = query.fileNameContains;
        const keep = (r: Run) => {
          const run = fieldsOf(r);
          const files = (run.files ?? (r.file ? [r.file] : [])) as { id: string; name: string }[];
          if (text !== undefined && !matchesFileName(text, { id: r.id, files })) return false;
          const processor = spec.processor ? (run[spec.processor] as { id?: string } | null) : null;
          return processorId === undefined || processor?.id === processorId;
        };
        const page =
          text === undefined && processorId === undefined
            ? await service.list({
                ...filters,
                maxPageSize: query.maxPageSize,
                nextPageToken: query.nextPageToken,
              })
            : await filteredPage((p) => service.list({ ...filters, ...p }), keep, query);
        return { ...page, data: page.data.map(summaryOf) };
      },
    }),
    workspaceRoute<Record<string, never>, Record<string, never>, RunRequestBody>({
      method: 'POST',
      path: `/${plural}`,
      operationId: `${sdk}.create`,
      summary: `Start a${kind === 'extract_run' ? 'n' : ''} ${label}; poll it or wait for its webhook`,
      tag,
      body: createBody(kind, spec, { sync: false }),
      response: run,
      handle: ({ engine, body }) => spec.service(engine).create(runInput(body) as never),
    }),
    workspaceRoute<Record<string, never>, Record<string, never>, Record<string, unknown>>({
      method: 'POST',
      path: `/${plural}/batch`,
      operationId: `${sdk}.createBatch`,
      summary: `Start 1 to 1000 ${label}s sharing a batch id (priority 90 by default)`,
      tag,
      body: batchBody(spec),
      response: resource('batch_run', {
        status: { enum: STATUSES },
        runCount: { type: 'integer' },
        createdAt: timestamp,
      }),
      async handle({ engine, body }) {
        const batch = await spec.service(engine).batch(body as never);
        return {
          object: 'batch_run',
          id: batch.batchId,
          status: 'PENDING',
          runCount: batch.runs.length,
          createdAt: batch.runs[0]?.createdAt ?? new Date().toISOString(),
        };
      },
    }),
    workspaceRoute<{ id: string }, { responseType?: 'json' | 'url' }, undefined>({
      method: 'GET',
      path: `/${plural}/{id}`,
      operationId: `${sdk}.retrieve`,
      summary: `Get a${kind === 'extract_run' ? 'n' : ''} ${label}`,
      tag,
      params: idParams,
      ...(kind === 'parse_run'
        ? { query: querySchema({ responseType: { enum: ['json', 'url'] } }) }
        : {}),
      response: run,
      async handle({ engine, workspace, params, query, request, server }) {
        const found = await spec.service(engine).get(params.id);
        return query?.responseType === 'url'
          ? withOutputUrl(found, workspace.id, server.origin(request), server)
          : found;
      },
    }),
    workspaceRoute<{ id: string }, Record<string, never>, undefined>({
      method: 'DELETE',
      path: `/${plural}/{id}`,
      operationId: `${sdk}.delete`,
      summary: 'Delete a run and its data (an executing attempt is aborted)',
      tag,
      params: idParams,
      response: deleted,
      handle: ({ engine, params }) => spec.service(engine).delete(params.id),
    }),
    workspaceRoute<{ id: string }, Record<string, never>, undefined>({
      method: 'POST',
      path: `/${plural}/{id}/cancel`,
      operationId: `${sdk}.cancel`,
      summary: 'Cancel a PENDING or PROCESSING run; 422 once it ended',
      tag,
      params: idParams,
      response: run,
      handle: ({ engine, params }) => spec.service(engine).cancel(params.id),
    }),
    workspaceRoute<Record<string, never>, { responseType?: 'json' | 'url' }, RunRequestBody>({
      method: 'POST',
      path: `/${spec.sync}`,
      operationId: spec.sync,
      summary: `Synchronous: start a${kind === 'extract_run' ? 'n' : ''} ${label} and answer when it ends (5-minute limit; for onboarding and tests)`,
      tag,
      ...(kind === 'parse_run'
        ? { query: querySchema({ responseType: { enum: ['json', 'url'] } }) }
        : {}),
      body: createBody(kind, spec, { sync: true }),
      response: run,
      async handle({ engine, workspace, body, query, request, server }) {
        const service = spec.service(engine);
        const created = await service.create(runInput(body) as never);
        const done = await settle(service, created, server, label);
        return query?.responseType === 'url'
          ? withOutputUrl(done, workspace.id, server.origin(request), server)
          : done;
      },
    }),
  ];
  return routes;
}

type BatchStatus = 'PENDING' | 'PROCESSING' | 'PROCESSED' | 'FAILED' | 'CANCELLED';

/** The runs of a batch, whatever their kind, or none. */
async function batchRuns(
  engine: Engine,
  batchId: string,
): Promise<{ kind: RunKind; runs: Run[] } | undefined> {
  const kinds: RunKind[] = batchId.startsWith('bpar_')
    ? ['parse_run']
    : ['extract_run', 'classify_run', 'split_run'];
  for (const kind of kinds) {
    const service = KINDS[kind].service(engine);
    const runs = await allOfList((page) => service.list({ batchId, ...page }));
    if (runs.length > 0) return { kind, runs };
  }
  return undefined;
}

/** A batch's aggregate status: working while any run works; FAILED or CANCELLED only when all are. */
function batchStatus(runs: readonly Run[]): BatchStatus {
  const statuses = runs.map((r) => r.status);
  if (statuses.every((s) => s === 'PENDING')) return 'PENDING';
  if (statuses.some((s) => s === 'PENDING' || s === 'PROCESSING')) return 'PROCESSING';
  if (statuses.every((s) => s === 'FAILED')) return 'FAILED';
  if (statuses.every((s) => s === 'CANCELLED')) return 'CANCELLED';
  return 'PROCESSED';
}

const batchNotFound = (id: string) =>
  new ApiError('NOT_FOUND', `No batch ${JSON.stringify(id)}`, {
    issues: [{ code: 'NOT_FOUND', path: 'params.id', message: 'no such batch' }],
  });

/** Parse, extract, classify and split runs, their synchronous endpoints and their batches. */
export const runsRoutes: readonly AnyRoute[] = [
  ...routesOf('parse_run'),
  ...routesOf('extract_run'),
  ...routesOf('classify_run'),
  ...routesOf('split_run'),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/batch_runs/{id}',
    operationId: 'batchRuns.get',
    summary: 'A batch of parse, extract, classify or split runs: its aggregate status',
    tag: 'Batches',
    params: idParams,
    response: resource('batch_run', {
      status: { enum: STATUSES },
      runCount: { type: 'integer' },
      createdAt: timestamp,
    }),
    async handle({ engine, params }) {
      const found = await batchRuns(engine, params.id);
      if (!found) throw batchNotFound(params.id);
      const createdAt = found.runs.map((r) => String(r.createdAt)).sort()[0];
      return {
        object: 'batch_run',
        id: params.id,
        status: batchStatus(found.runs),
        runCount: found.runs.length,
        createdAt,
      };
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/batch_processor_runs/{id}',
    operationId: 'batchProcessorRun.get',
    summary: 'Legacy: a batch of extract, classify or split runs',
    tag: 'Batches',
    deprecated: true,
    params: idParams,
    response: {
      type: 'object',
      properties: { success: { type: 'boolean' }, batchProcessorRun: anyObject },
    },
    async handle({ engine, params }) {
      const found = params.id.startsWith('bpr_') ? await batchRuns(engine, params.id) : undefined;
      if (!found) throw batchNotFound(params.id);
      const first = fieldsOf(found.runs[0] as Run);
      const processor = (first[KINDS[found.kind].processor as ProcessorKey] ?? null) as {
        id?: string;
        name?: string;
      } | null;
      const version = first[`${KINDS[found.kind].processor}Version`] as
        | { id?: string }
        | string
        | null;
      const status = batchStatus(found.runs);
      const times = found.runs.map((r) => String(r.updatedAt)).sort();
      return {
        success: true,
        batchProcessorRun: {
          object: 'batch_processor_run',
          id: params.id,
          processorId: processor?.id ?? null,
          processorVersionId: typeof version === 'string' ? version : (version?.id ?? null),
          processorName: processor?.name ?? null,
          metrics: { numFiles: found.runs.length },
          status: status === 'CANCELLED' ? 'FAILED' : status,
          source: 'API',
          runCount: found.runs.length,
          options: {},
          createdAt: found.runs.map((r) => String(r.createdAt)).sort()[0],
          updatedAt: times[times.length - 1],
        },
      };
    },
  }),
];
