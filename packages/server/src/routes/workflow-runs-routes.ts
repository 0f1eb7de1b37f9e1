import { RUN_STATUSES, type WorkflowRun } from '@docflow/engine';
import { notSupported } from '../http/api-error.ts';
import { defined } from './objects.ts';
import { listOrder } from './ordering.ts';
import { filteredPage, matchesFileName } from './pages.ts';
import { type AnyRoute, workspaceRoute } from './route.ts';
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
  querySchema,
  resource,
  runCommon,
  sortBy,
  sortDir,
} from './schemas.ts';

const TAG = 'Workflow runs';

const workflowReference = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    version: {
      type: 'string',
      description: 'a version number as text, or "draft"; default the latest deployed',
    },
  },
} as const;

const secrets = {
  type: 'object',
  description: 'secrets for executors; never stored in plain text or returned',
} as const;

const workflowRunSummary = resource('workflow_run', {
  ...runCommon,
  status: { enum: RUN_STATUSES },
  workflow: anyObject,
  workflowVersion: anyObject,
  batchId: { type: ['string', 'null'] },
  files: { type: 'array', items: fileSummary },
  reviewedByUser: { type: ['string', 'null'] },
  reviewedAt: { type: ['string', 'null'] },
  rejectionNote: { type: ['string', 'null'] },
  initialRunAt: { type: ['string', 'null'] },
  startTime: { type: ['string', 'null'] },
  endTime: { type: ['string', 'null'] },
});
const workflowRun = resource('workflow_run', {
  ...(workflowRunSummary.properties as Record<string, unknown>),
  reviewed: { type: 'boolean' },
  stepRuns: { type: 'array', items: anyObject },
});

/** The SDK's WorkflowRunSummary: a list item without step runs. */
function summaryOf(run: WorkflowRun) {
  const {
    stepRuns: _stepRuns,
    metadata: _metadata,
    reviewed: _reviewed,
    failureReason: _reason,
    failureMessage: _message,
    priority: _priority,
    ...summary
  } = run;
  return summary;
}

type ListQuery = {
  status?: (typeof RUN_STATUSES)[number];
  workflowId?: string;
  batchId?: string;
  fileNameContains?: string;
  sortBy?: 'createdAt' | 'updatedAt';
  sortDir?: 'asc' | 'desc';
  nextPageToken?: string;
  maxPageSize?: number;
};

/** Workflow runs: create (one or a batch), list, get, update, delete, cancel, review. */
export const workflowRunsRoutes: readonly AnyRoute[] = [
  workspaceRoute<Record<string, never>, ListQuery, undefined>({
    method: 'GET',
    path: '/workflow_runs',
    operationId: 'workflowRuns.list',
    summary: 'List workflow runs, newest first',
    tag: TAG,
    query: querySchema({
      status: { enum: RUN_STATUSES },
      workflowId: { type: 'string', maxLength: 255 },
      batchId: { type: 'string', maxLength: 255 },
      fileNameContains: {
        type: 'string',
        maxLength: 255,
        description: 'a run id, a file id, or text in a file name',
      },
      sortBy,
      sortDir,
      ...pageQuery,
    }),
    response: listOf(workflowRunSummary),
    async handle({ engine, query }) {
      const filters = defined({
        status: query.status,
        workflowId: query.workflowId,
        batchId: query.batchId,
        ...listOrder(query),
      });
      const text = query.fileNameContains;
      const page =
        text === undefined
          ? await engine.workflowRuns.list({
              ...filters,
              maxPageSize: query.maxPageSize,
              nextPageToken: query.nextPageToken,
            })
          : await filteredPage(
              (p) => engine.workflowRuns.list({ ...filters, ...p }),
              (run) => matchesFileName(text, run),
              query,
            );
      return { ...page, data: page.data.map(summaryOf) };
    },
  }),
  workspaceRoute<Record<string, never>, Record<string, never>, Record<string, unknown>>({
    method: 'POST',
    path: '/workflow_runs',
    operationId: 'workflowRuns.create',
    summary: 'Start a workflow run on a file or a package of 2 to 50 files',
    tag: TAG,
    body: {
      type: 'object',
      required: ['workflow'],
      additionalProperties: false,
      properties: {
        workflow: workflowReference,
        file: fileSource('id', 'url', 'text'),
        package: filePackage,
        outputs: {
          type: 'array',
          items: {
            type: 'object',
            required: ['processorId', 'output'],
            additionalProperties: false,
            properties: { processorId: { type: 'string', minLength: 1 }, output: {} },
          },
        },
        priority,
        metadata,
        secrets,
      },
    },
    response: workflowRun,
    handle: ({ engine, body }) => engine.workflowRuns.create(body as never),
  }),
  workspaceRoute<Record<string, never>, Record<string, never>, Record<string, unknown>>({
    method: 'POST',
    path: '/workflow_runs/batch',
    operationId: 'workflowRuns.createBatch',
    summary: 'Start 1 to 1000 runs of one workflow sharing a batchId (priority 90 by default)',
    tag: TAG,
    body: {
      type: 'object',
      required: ['workflow', 'inputs'],
      additionalProperties: false,
      properties: {
        workflow: workflowReference,
        inputs: {
          type: 'array',
          minItems: 1,
          maxItems: 1000,
          items: {
            type: 'object',
            required: ['file'],
            additionalProperties: false,
            properties: { file: fileSource('id', 'url', 'text'), metadata, secrets },
          },
        },
        priority,
      },
    },
    response: {
      type: 'object',
      required: ['batchId'],
      properties: { batchId: { type: 'string' } },
    },
    async handle({ engine, body }) {
      const batch = await engine.workflowRuns.createBatch(body as never);
      return { batchId: batch.batchId };
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/workflow_runs/{id}',
    operationId: 'workflowRuns.retrieve',
    summary: 'Get a workflow run with its step runs',
    tag: TAG,
    params: idParams,
    response: workflowRun,
    async handle({ engine, params, reply }) {
      reply.type('application/json; charset=utf-8');
      // The engine keeps the text until it commits something the run shows.
      return (await engine.workflowRuns.getJson(params.id)).json;
    },
  }),
  workspaceRoute<
    { id: string },
    Record<string, never>,
    { name?: string; metadata?: Record<string, unknown> }
  >({
    method: 'POST',
    path: '/workflow_runs/{id}',
    operationId: 'workflowRuns.update',
    summary: "Merge `metadata` into the run's metadata",
    tag: TAG,
    params: idParams,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string' }, metadata },
    },
    async handle({ engine, params, body }) {
      if (body?.name !== undefined) {
        throw notSupported('body.name', 'docflow runs have no name; use metadata');
      }
      return engine.workflowRuns.update(params.id, { metadata: (body?.metadata ?? {}) as never });
    },
    response: workflowRun,
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'DELETE',
    path: '/workflow_runs/{id}',
    operationId: 'workflowRuns.delete',
    summary: 'Delete a run and its data',
    tag: TAG,
    params: idParams,
    response: deleted,
    handle: ({ engine, params }) => engine.workflowRuns.delete(params.id),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'POST',
    path: '/workflow_runs/{id}/cancel',
    operationId: 'workflowRuns.cancel',
    summary: 'Cancel a run (CANCELLING until its steps stop, then CANCELLED); 422 once it ended',
    tag: TAG,
    params: idParams,
    response: workflowRun,
    handle: ({ engine, params }) => engine.workflowRuns.cancel(params.id),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, Record<string, unknown>>({
    method: 'POST',
    path: '/workflow_runs/{id}/review',
    operationId: 'workflowRuns.review',
    summary:
      'docflow extension: approve (with corrected outputs) or reject a run that is NEEDS_REVIEW',
    tag: TAG,
    extension: true,
    params: idParams,
    body: {
      type: 'object',
      required: ['decision', 'reviewer'],
      additionalProperties: false,
      properties: {
        decision: { enum: ['approve', 'reject'] },
        reviewer: {
          type: 'string',
          minLength: 1,
          maxLength: 320,
          description: "the reviewer's e-mail address",
        },
        note: { type: 'string', maxLength: 10_000, description: 'the rejection note' },
        outputs: {
          type: 'array',
          description: 'corrected outputs (approve only), by step name or step run id',
          items: {
            type: 'object',
            required: ['output'],
            additionalProperties: false,
            properties: { stepName: { type: 'string' }, stepRunId: { type: 'string' }, output: {} },
          },
        },
      },
    },
    response: workflowRun,
    handle: ({ engine, params, body }) => engine.workflowRuns.review(params.id, body as never),
  }),
];
