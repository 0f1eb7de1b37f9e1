import type { Engine, Workflow, WorkflowVersion } from '@docflow/engine';
import { ApiError, notSupported } from '../http/api-error.ts';
import { pick } from './objects.ts';
import { listOrder } from './ordering.ts';
import { findInList } from './pages.ts';
import { type AnyRoute, workspaceRoute } from './route.ts';
import {
  anyObject,
  deleted,
  idParams,
  idsParams,
  listOf,
  nullableString,
  pageQuery,
  querySchema,
  resource,
  sortBy,
  sortDir,
  timestamp,
} from './schemas.ts';

const TAG = 'Workflows';

const steps = {
  type: 'array',
  maxItems: 500,
  items: anyObject,
  description: 'step definitions',
} as const;

const workflowSummary = resource('workflow', {
  name: { type: 'string' },
  createdAt: timestamp,
  updatedAt: timestamp,
  createdBy: { type: ['object', 'null'] },
});
const workflowVersion = resource('workflow_version', {
  version: { type: 'string', description: '"draft", or "1", "2", …' },
  name: nullableString,
  steps,
  createdAt: timestamp,
  createdBy: { type: ['object', 'null'] },
});
const workflow = resource('workflow', {
  ...(workflowSummary.properties as Record<string, unknown>),
  draftVersion: workflowVersion,
});

const summaryOf = (w: Workflow) =>
  pick(w, ['object', 'id', 'name', 'createdAt', 'updatedAt', 'createdBy']);
const versionSummaryOf = (v: WorkflowVersion) =>
  pick(v, ['object', 'id', 'version', 'name', 'createdAt', 'createdBy']);

/** The SDK's Workflow: the summary with its draft version. */
async function present(engine: Engine, w: Workflow) {
  return {
    ...summaryOf(w),
    latestVersion: w.latestVersion,
    draftVersion: await engine.workflows.getVersion(w.id, 'draft'),
  };
}

/** A version by `"draft"`, `"latest"`, a number or a version id. */
async function findVersion(
  engine: Engine,
  id: string,
  versionId: string,
): Promise<WorkflowVersion> {
  if (versionId === 'draft' || /^[1-9][0-9]*$/.test(versionId)) {
    return engine.workflows.getVersion(id, versionId);
  }
  if (versionId === 'latest') {
    const w = await engine.workflows.get(id);
    return engine.workflows.getVersion(id, w.latestVersion ?? 'draft');
  }
  const draft = await engine.workflows.getVersion(id, 'draft');
  if (draft.id === versionId) return draft;
  const found = await findInList(
    (page) => engine.workflows.listVersions(id, page),
    (v) => v.id === versionId,
  );
  if (found) return found;
  throw new ApiError('NOT_FOUND', `Workflow ${id} has no version ${JSON.stringify(versionId)}`, {
    issues: [{ code: 'NOT_FOUND', path: 'params.versionId', message: 'no such version' }],
  });
}

type ListQuery = {
  nextPageToken?: string;
  maxPageSize?: number;
  sortBy?: 'createdAt' | 'updatedAt';
  sortDir?: 'asc' | 'desc';
};

/** Workflows and their versions (deploy = create a version). */
export const workflowsRoutes: readonly AnyRoute[] = [
  workspaceRoute<Record<string, never>, ListQuery, undefined>({
    method: 'GET',
    path: '/workflows',
    operationId: 'workflows.list',
    summary: 'List workflows, newest first',
    tag: TAG,
    query: querySchema({ ...pageQuery, sortBy, sortDir }),
    response: listOf(workflowSummary),
    async handle({ engine, query }) {
      const page = await engine.workflows.list({
        maxPageSize: query.maxPageSize,
        nextPageToken: query.nextPageToken,
        ...listOrder(query),
      });
      return { ...page, data: page.data.map(summaryOf) };
    },
  }),
  workspaceRoute<Record<string, never>, Record<string, never>, { name: string; steps?: unknown[] }>(
    {
      method: 'POST',
      path: '/workflows',
      operationId: 'workflows.create',
      summary: 'Create a workflow (its draft holds the steps)',
      tag: TAG,
      body: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, steps },
      },
      response: workflow,
      async handle({ engine, body }) {
        return present(engine, await engine.workflows.create(body as never));
      },
    },
  ),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/workflows/{id}',
    operationId: 'workflows.retrieve',
    summary: 'Get a workflow with its draft version',
    tag: TAG,
    params: idParams,
    response: workflow,
    handle: async ({ engine, params }) => present(engine, await engine.workflows.get(params.id)),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, { name?: string; steps?: unknown[] }>({
    method: 'POST',
    path: '/workflows/{id}',
    operationId: 'workflows.update',
    summary: 'Change the name or the draft steps (deployed versions never change)',
    tag: TAG,
    params: idParams,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, steps },
    },
    response: workflow,
    handle: async ({ engine, params, body }) =>
      present(engine, await engine.workflows.update(params.id, body as never)),
  }),
  workspaceRoute<{ id: string }, Record<string, never>, undefined>({
    method: 'DELETE',
    path: '/workflows/{id}',
    operationId: 'workflows.delete',
    summary: 'Delete a workflow (runs keep the version they ran)',
    tag: TAG,
    notInSdk: true,
    params: idParams,
    response: deleted,
    handle: ({ engine, params }) => engine.workflows.delete(params.id),
  }),
  workspaceRoute<{ id: string }, ListQuery, undefined>({
    method: 'GET',
    path: '/workflows/{id}/versions',
    operationId: 'workflowVersions.list',
    summary: 'List the deployed versions, newest first',
    tag: TAG,
    params: idParams,
    query: querySchema({ ...pageQuery, sortDir }),
    response: listOf(workflowVersion),
    async handle({ engine, params, query }) {
      const page = await engine.workflows.listVersions(params.id, {
        maxPageSize: query.maxPageSize,
        nextPageToken: query.nextPageToken,
        ...listOrder(query),
      });
      return { ...page, data: page.data.map(versionSummaryOf) };
    },
  }),
  workspaceRoute<{ id: string }, Record<string, never>, { name?: string; steps?: unknown[] }>({
    method: 'POST',
    path: '/workflows/{id}/versions',
    operationId: 'workflowVersions.create',
    summary: 'Deploy: snapshot the draft (or `steps`) as the next version, "1", "2", …',
    tag: TAG,
    params: idParams,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, steps },
    },
    response: workflowVersion,
    async handle({ engine, params, body }) {
      if (body?.name !== undefined) {
        throw notSupported(
          'body.name',
          'a version takes the name of its workflow; rename the workflow instead',
        );
      }
      const { createdEndpoints, ...version } = await engine.workflows.deploy(
        params.id,
        body?.steps === undefined ? {} : ({ steps: body.steps } as never),
      );
      // The signing secrets of endpoints made for WEBHOOK_RESPONSE urls are shown once, here.
      return createdEndpoints.length === 0 ? version : { ...version, createdEndpoints };
    },
  }),
  workspaceRoute<{ id: string; versionId: string }, Record<string, never>, undefined>({
    method: 'GET',
    path: '/workflows/{id}/versions/{versionId}',
    operationId: 'workflowVersions.retrieve',
    summary: 'Get a version: "draft", "latest", a number or a version id',
    tag: TAG,
    params: idsParams('id', 'versionId'),
    response: workflowVersion,
    handle: ({ engine, params }) => findVersion(engine, params.id, params.versionId),
  }),
];
