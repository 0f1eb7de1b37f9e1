import type { DeliveryWrite, DocumentWrite, JsonObject, StoredDocument } from '@docflow/storage';
import type { CreatedBy } from '../created-by.ts';
import type { StepDefinition } from '../definition/workflow-definition.ts';
import {
  assertNoIssues,
  EngineError,
  EngineErrorCode,
  notFound,
  type ValidationIssue,
} from '../errors.ts';
import type { EngineEvent } from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { RuntimeStep } from '../run/run-graph.ts';
import type { WorkflowSummary, WorkflowVersionSummary } from '../run/run-state.ts';
import { objectInputIssues } from '../validation/json-input.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';

/** A workflow definition's steps (the 14 step types of docs/workflows.md; validated on every write). */
export type WorkflowSteps = readonly StepDefinition[];

/** A workflow with its draft (the interface's Workflow, plus the draft's steps). */
export interface Workflow extends WorkflowSummary {
  /** The draft's steps. */
  readonly steps: WorkflowSteps;
  /** The newest deployed version ("1", "2", …), or null before the first deploy. */
  readonly latestVersion: string | null;
}

/** A deployed version (or the draft, with `version: "draft"`) and its steps. */
export interface WorkflowVersion extends WorkflowVersionSummary {
  readonly workflowId: string;
  readonly steps: WorkflowSteps;
  /**
   * WEBHOOK_RESPONSE steps with their own `url` deliver through a webhook endpoint the deploy
   * created for them: step name → endpoint id.
   */
  readonly stepEndpoints?: Readonly<Record<string, string>>;
}

/** What `deploy` returns: the version, and the endpoints it created for WEBHOOK_RESPONSE urls. */
export interface DeployedWorkflowVersion extends WorkflowVersion {
  /** One per WEBHOOK_RESPONSE step with a `url`, with its `signingSecret` (shown only here). */
  readonly createdEndpoints: readonly {
    readonly stepName: string;
    readonly endpoint: {
      readonly id: string;
      readonly url: string;
      readonly signingSecret: string;
    };
  }[];
}

/** Input of `workflows.create`. */
export interface CreateWorkflowInput {
  readonly name: string;
  readonly steps?: WorkflowSteps;
}

/** Input of `workflows.update`: only sent fields change. */
export interface UpdateWorkflowInput {
  readonly name?: string;
  readonly steps?: WorkflowSteps;
}

/** `engine.workflows`. */
export interface WorkflowsService {
  create(input: CreateWorkflowInput): Promise<Workflow>;
  get(id: string): Promise<Workflow>;
  list(params?: SortedPageParams & { nameContains?: string }): Promise<ListResult<Workflow>>;
  /** Changes the draft; deployed versions never change. */
  update(id: string, input: UpdateWorkflowInput): Promise<Workflow>;
  /**
   * Snapshots the draft (or `steps`) as the next version, "1", "2", …. A WEBHOOK_RESPONSE step
   * with its own `url` gets a webhook endpoint, whose signing secret is returned here once.
   */
  deploy(id: string, input?: { steps?: WorkflowSteps }): Promise<DeployedWorkflowVersion>;
  /** One version: a number as text, or "draft". */
  getVersion(id: string, version: string): Promise<WorkflowVersion>;
  listVersions(id: string, params?: SortedPageParams): Promise<ListResult<WorkflowVersion>>;
  /** Deletes the workflow and its versions. Runs keep what they ran. */
  delete(id: string): Promise<{ object: 'workflow'; id: string; deleted: true }>;
}

/** What the workflows service needs besides the context. */
export interface WorkflowsDependencies {
  /** Every problem of a definition, or none (definition schema, graph, executors). */
  validate(
    definition: unknown,
    stage: 'draft' | 'deploy',
  ): readonly ValidationIssue[] | Promise<readonly ValidationIssue[]>;
  readonly createdBy: CreatedBy | null;
  /** Creates the webhook endpoint of a WEBHOOK_RESPONSE step's own `url`. */
  createStepEndpoint?(
    url: string,
    name: string,
  ): Promise<{ id: string; url: string; signingSecret: string }>;
}

interface WorkflowDoc extends WorkflowSummary {
  readonly draftId: string;
  readonly latestVersion: number;
}

/** A workflow run's resolved definition. */
export interface ResolvedDefinition {
  readonly workflow: WorkflowSummary;
  readonly version: WorkflowVersionSummary;
  readonly definitionId: string;
  readonly steps: WorkflowSteps;
}

function summaryOf(doc: WorkflowDoc): WorkflowSummary {
  return {
    object: 'workflow',
    id: doc.id,
    name: doc.name,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    createdBy: doc.createdBy,
  };
}

function versionOf(doc: StoredDocument): WorkflowVersion {
  return doc.data as unknown as WorkflowVersion;
}

function versionSummary(v: WorkflowVersion): WorkflowVersionSummary {
  return {
    object: 'workflow_version',
    id: v.id,
    version: v.version,
    name: v.name,
    createdAt: v.createdAt,
    createdBy: v.createdBy,
  };
}

function checkName(name: unknown, path: string): ValidationIssue[] {
  return typeof name === 'string' && name.trim().length > 0 && name.length <= 255
    ? []
    : [
        {
          code: 'INVALID_NAME',
          path,
          message: 'must be a non-empty string of at most 255 characters',
        },
      ];
}

/** Deployed versions kept parsed by the resolver. */
const DEPLOYED_CACHE_SIZE = 256;

/** Creates `engine.workflows` and the resolver runs use. */
export function createWorkflowsService(
  ctx: EngineContext,
  deps: WorkflowsDependencies,
): WorkflowsService & {
  resolve(ref: unknown, path: string): Promise<ResolvedDefinition>;
} {
  // Deployed versions never change once written: each is read and parsed once per engine (a run
  // created on one costs a lookup of its workflow only). Bounded, oldest first out.
  const deployed = new Map<string, WorkflowVersion>();
  const deployedVersion = async (key: string): Promise<WorkflowVersion | undefined> => {
    const cached = deployed.get(key);
    if (cached) return cached;
    const found = await ctx.storage.getDocumentByKey('workflowVersions', key);
    if (!found) return undefined;
    const version = versionOf(found);
    if (deployed.size >= DEPLOYED_CACHE_SIZE)
      deployed.delete(deployed.keys().next().value as string);
    deployed.set(key, version);
    return version;
  };

  const loadDoc = async (id: unknown, path = 'id'): Promise<StoredDocument> => {
    const doc =
      typeof id === 'string' && id !== ''
        ? await ctx.storage.getDocument('workflows', id)
        : undefined;
    if (!doc) throw notFound('workflow', id, path);
    return doc;
  };

  const draftOf = async (wf: WorkflowDoc): Promise<WorkflowVersion> => {
    const doc = await ctx.storage.getDocument('workflowVersions', wf.draftId);
    if (!doc)
      throw new EngineError(EngineErrorCode.NOT_FOUND, `draft of workflow ${wf.id} is missing`);
    return versionOf(doc);
  };

  const toWorkflow = async (doc: StoredDocument): Promise<Workflow> => {
    const wf = doc.data as unknown as WorkflowDoc;
    const draft = await draftOf(wf);
    return {
      ...summaryOf(wf),
      steps: draft.steps,
      latestVersion: wf.latestVersion > 0 ? String(wf.latestVersion) : null,
    };
  };

  const validateSteps = async (steps: unknown, path: string): Promise<void> => {
    const issues = (await deps.validate({ steps }, 'deploy')).map((i) => ({
      ...i,
      path: path === '' ? i.path : i.path.replace(/^steps/, path),
    }));
    assertNoIssues(issues, 'workflow definition');
  };

  const event = async (
    type: string,
    payload: JsonObject,
    id: string,
  ): Promise<{ events: EngineEvent[]; deliveries: DeliveryWrite[] }> => {
    if (!ctx.events) return { events: [], deliveries: [] };
    const prepared = await ctx.events.prepare(type, payload, { type: 'workflow', id });
    return { events: [prepared.event], deliveries: [...prepared.deliveries] };
  };

  const draftWrite = (
    wf: WorkflowSummary,
    steps: WorkflowSteps,
    now: string,
  ): { id: string; write: DocumentWrite } => {
    const id = ctx.newId('workflow_version_');
    const data: WorkflowVersion = {
      object: 'workflow_version',
      id,
      workflowId: wf.id,
      version: 'draft',
      name: wf.name,
      createdAt: now,
      createdBy: deps.createdBy,
      steps,
    };
    return {
      id,
      write: {
        collection: 'workflowVersions',
        id,
        parentId: `${wf.id}#draft`,
        data: data as unknown as JsonObject,
        expectedRevision: 0,
        at: now,
      },
    };
  };

  const service = {
    async create(input: CreateWorkflowInput): Promise<Workflow> {
      const issues = checkName(input?.name, 'name');
      if (input?.steps !== undefined) {
        issues.push(...(await deps.validate({ steps: input.steps }, 'draft')));
      }
      assertNoIssues(issues, 'workflow');
      const now = ctx.nowIso();
      const id = ctx.newId('workflow_');
      const summary: WorkflowSummary = {
        object: 'workflow',
        id,
        name: input.name,
        createdAt: now,
        updatedAt: now,
        createdBy: deps.createdBy,
      };
      const draft = draftWrite(summary, input.steps ?? [], now);
      const wf: WorkflowDoc = { ...summary, draftId: draft.id, latestVersion: 0 };
      const { events, deliveries } = await event(
        'workflow.created',
        summary as unknown as JsonObject,
        id,
      );
      await ctx.storage.commit({
        documents: [
          draft.write,
          {
            collection: 'workflows',
            id,
            name: input.name,
            data: wf as unknown as JsonObject,
            expectedRevision: 0,
            at: now,
          },
        ],
        deliveries,
      });
      ctx.events?.publish(events);
      return { ...summary, steps: input.steps ?? [], latestVersion: null };
    },

    async get(id: string): Promise<Workflow> {
      return toWorkflow(await loadDoc(id));
    },

    async list(
      params?: SortedPageParams & { nameContains?: string },
    ): Promise<ListResult<Workflow>> {
      return listPage(
        params,
        (page) =>
          ctx.storage.listDocuments('workflows', {
            ...page,
            ...(params?.nameContains === undefined ? {} : { nameContains: params.nameContains }),
          }),
        toWorkflow,
      );
    },

    async update(id: string, input: UpdateWorkflowInput): Promise<Workflow> {
      assertNoIssues(objectInputIssues(input), 'workflow update');
      const doc = await loadDoc(id);
      const issues = input?.name === undefined ? [] : checkName(input.name, 'name');
      if (input?.steps !== undefined)
        issues.push(...(await deps.validate({ steps: input.steps }, 'draft')));
      assertNoIssues(issues, 'workflow update');
      const wf = doc.data as unknown as WorkflowDoc;
      const now = ctx.nowIso();
      const summary: WorkflowSummary = {
        ...summaryOf(wf),
        name: input.name ?? wf.name,
        updatedAt: now,
      };
      const writes: DocumentWrite[] = [];
      let draftId = wf.draftId;
      if (input.steps !== undefined) {
        const draft = draftWrite(summary, input.steps, now);
        draftId = draft.id;
        writes.push(draft.write);
      }
      const next: WorkflowDoc = { ...wf, ...summary, draftId };
      writes.push({
        collection: 'workflows',
        id,
        name: next.name,
        data: next as unknown as JsonObject,
        expectedRevision: doc.revision,
        at: now,
      });
      await ctx.storage.commit({ documents: writes });
      return toWorkflow({ ...doc, data: next as unknown as JsonObject });
    },

    async deploy(id: string, input?: { steps?: WorkflowSteps }): Promise<DeployedWorkflowVersion> {
      const doc = await loadDoc(id);
      const wf = doc.data as unknown as WorkflowDoc;
      const steps = input?.steps ?? (await draftOf(wf)).steps;
      await validateSteps(steps, 'steps');
      if (steps.length === 0) {
        assertNoIssues(
          [{ code: 'EMPTY_DEFINITION', path: 'steps', message: 'a deployed workflow needs steps' }],
          'workflow definition',
        );
      }
      const createdEndpoints: DeployedWorkflowVersion['createdEndpoints'][number][] = [];
      for (const step of steps as readonly RuntimeStep[]) {
        const url = step.config?.url;
        if (step.type !== 'WEBHOOK_RESPONSE' || typeof url !== 'string' || !deps.createStepEndpoint)
          continue;
        const endpoint = await deps.createStepEndpoint(
          url,
          `${wf.name} · ${step.name} (WEBHOOK_RESPONSE)`,
        );
        createdEndpoints.push({ stepName: step.name, endpoint });
      }
      const now = ctx.nowIso();
      const number = wf.latestVersion + 1;
      const versionId = ctx.newId('workflow_version_');
      const version: WorkflowVersion = {
        object: 'workflow_version',
        id: versionId,
        workflowId: id,
        version: String(number),
        name: wf.name,
        createdAt: now,
        createdBy: deps.createdBy,
        steps,
        ...(createdEndpoints.length === 0
          ? {}
          : {
              stepEndpoints: Object.fromEntries(
                createdEndpoints.map((c) => [c.stepName, c.endpoint.id]),
              ),
            }),
      };
      const next: WorkflowDoc = { ...wf, latestVersion: number, updatedAt: now };
      const { events, deliveries } = await event(
        'workflow.deployed',
        {
          workflow: summaryOf(next),
          workflowVersion: versionSummary(version),
        } as unknown as JsonObject,
        id,
      );
      await ctx.storage.commit({
        documents: [
          {
            collection: 'workflowVersions',
            id: versionId,
            parentId: id,
            key: `${id}@${number}`,
            data: version as unknown as JsonObject,
            expectedRevision: 0,
            at: now,
          },
          {
            collection: 'workflows',
            id,
            name: wf.name,
            data: next as unknown as JsonObject,
            expectedRevision: doc.revision,
            at: now,
          },
        ],
        deliveries,
      });
      ctx.events?.publish(events);
      return { ...version, createdEndpoints };
    },

    async getVersion(id: string, version: string): Promise<WorkflowVersion> {
      const doc = await loadDoc(id);
      const wf = doc.data as unknown as WorkflowDoc;
      if (version === 'draft') return draftOf(wf);
      const v =
        typeof version === 'string' && version !== ''
          ? await ctx.storage.getDocumentByKey('workflowVersions', `${id}@${version}`)
          : undefined;
      if (!v) throw notFound(`version of workflow ${id}`, version, 'version');
      return versionOf(v);
    },

    async listVersions(
      id: string,
      params?: SortedPageParams,
    ): Promise<ListResult<WorkflowVersion>> {
      await loadDoc(id);
      return listPage(
        params,
        (page) => ctx.storage.listDocuments('workflowVersions', { ...page, parentId: id }),
        versionOf,
      );
    },

    async delete(id: string): Promise<{ object: 'workflow'; id: string; deleted: true }> {
      const doc = await loadDoc(id);
      const wf = doc.data as unknown as WorkflowDoc;
      const { events, deliveries } = await event(
        'workflow.deleted',
        summaryOf(wf) as unknown as JsonObject,
        id,
      );
      // Versions stay: runs reference the definition they executed.
      await ctx.storage.commit({ deleteDocuments: [{ collection: 'workflows', id }], deliveries });
      ctx.events?.publish(events);
      return { object: 'workflow', id, deleted: true };
    },

    async resolve(ref: unknown, path: string): Promise<ResolvedDefinition> {
      if (
        typeof ref !== 'object' ||
        ref === null ||
        typeof (ref as { id?: unknown }).id !== 'string'
      ) {
        assertNoIssues(
          [{ code: 'REQUIRED', path: `${path}.id`, message: 'a workflow id is required' }],
          'workflow reference',
        );
      }
      const { id, version } = ref as { id: string; version?: unknown };
      if (
        version !== undefined &&
        (typeof version !== 'string' || !/^(draft|[1-9][0-9]*)$/.test(version))
      ) {
        assertNoIssues(
          [
            {
              code: 'INVALID_VERSION',
              path: `${path}.version`,
              message: 'must be a version number as text or "draft"',
            },
          ],
          'workflow reference',
        );
      }
      const doc = await loadDoc(id, `${path}.id`);
      const wf = doc.data as unknown as WorkflowDoc;
      const wanted =
        version === undefined
          ? wf.latestVersion > 0
            ? String(wf.latestVersion)
            : 'draft'
          : (version as string);
      let v: WorkflowVersion;
      if (wanted === 'draft') {
        v = await draftOf(wf);
        await validateSteps(v.steps, 'workflow.steps');
        if (v.steps.length === 0) {
          assertNoIssues(
            [
              {
                code: 'EMPTY_DEFINITION',
                path: `${path}`,
                message: `workflow ${id} has no deployed version and an empty draft`,
              },
            ],
            'workflow reference',
          );
        }
      } else {
        const found = await deployedVersion(`${id}@${wanted}`);
        if (!found) throw notFound(`version of workflow ${id}`, wanted, `${path}.version`);
        v = found;
      }
      return {
        workflow: summaryOf(wf),
        version: versionSummary(v),
        definitionId: v.id,
        steps: v.steps,
      };
    },
  };
  return service;
}
