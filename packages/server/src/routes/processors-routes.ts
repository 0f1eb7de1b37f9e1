import type { Engine } from '@docflow/engine';
import { ApiError } from '../http/api-error.ts';
import { pick } from './objects.ts';
import { listOrder } from './ordering.ts';
import { findInList } from './pages.ts';
import { type AnyRoute, workspaceRoute } from './route.ts';
import {
  anyObject,
  idParams,
  idsParams,
  listOf,
  pageQuery,
  querySchema,
  resource,
  sortBy,
  sortDir,
  timestamp,
} from './schemas.ts';

type Kind = 'extractor' | 'classifier' | 'splitter';
type Service = Engine['extractors'];
type Processor = Awaited<ReturnType<Service['get']>>;
type LegacyVersion = Awaited<ReturnType<Service['getVersion']>>;

const KINDS: Record<Kind, { plural: string; label: string; service: (e: Engine) => Service }> = {
  extractor: { plural: 'extractors', label: 'Extractor', service: (e) => e.extractors },
  classifier: { plural: 'classifiers', label: 'Classifier', service: (e) => e.classifiers },
  splitter: { plural: 'splitters', label: 'Splitter', service: (e) => e.splitters },
};

/** The body of a publish: the versions route and the legacy publish take the same. */
const publishBody = {
  type: 'object',
  required: ['releaseType'],
  additionalProperties: false,
  properties: {
    releaseType: {
      enum: ['major', 'minor'],
      description: '"1.0" → "2.0" (major) or "1.1" (minor)',
    },
    description: { type: 'string', maxLength: 2000 },
    config: anyObject,
  },
} as const;

function versionSchema(kind: Kind) {
  return resource(`${kind}_version`, {
    description: { type: ['string', 'null'] },
    version: { type: 'string', description: '"draft", or "1.0", "1.1", …' },
    config: anyObject,
    [`${kind}Id`]: { type: 'string' },
    createdAt: timestamp,
    createdBy: { type: ['object', 'null'] },
  });
}

/** The SDK's ExtractorVersion (and its classifier and splitter counterparts). */
function presentVersion(service: Service, version: LegacyVersion) {
  return { ...service.versionSummary(version), config: version.config };
}

const summaryOf = (p: Processor) => pick(p, ['object', 'id', 'name', 'createdAt', 'updatedAt']);

/** The SDK's Extractor: the summary with its draft version. */
async function present(service: Service, p: Processor) {
  return {
    ...summaryOf(p),
    draftVersion: presentVersion(service, await service.getVersion(p.id, 'draft')),
  };
}

/** A version by `"draft"`, `"latest"`, a number such as `"1.0"`, or a version id. */
async function findVersion(
  service: Service,
  id: string,
  versionId: string,
): Promise<LegacyVersion> {
  if (versionId === 'draft' || versionId === 'latest' || /^\d+\.\d+$/.test(versionId)) {
    return service.getVersion(id, versionId);
  }
  const matches = (v: LegacyVersion) =>
    v.id === versionId || service.versionSummary(v).id === versionId;
  const draft = await service.getVersion(id, 'draft');
  if (matches(draft)) return draft;
  const found = await findInList((page) => service.listVersions(id, page), matches);
  if (found) return found;
  throw new ApiError('NOT_FOUND', `No version ${JSON.stringify(versionId)} of ${id}`, {
    issues: [{ code: 'NOT_FOUND', path: 'params.versionId', message: 'no such version' }],
  });
}

type ListQuery = {
  nextPageToken?: string;
  maxPageSize?: number;
  sortBy?: 'createdAt' | 'updatedAt';
  sortDir?: 'asc' | 'desc';
};

function routesOf(kind: Kind): AnyRoute[] {
  const { plural, label, service: of } = KINDS[kind];
  const idName = `${kind}Id`;
  const cloneKey = `clone${label}Id`;
  const version = versionSchema(kind);
  const summary = resource(kind, {
    name: { type: 'string' },
    createdAt: timestamp,
    updatedAt: timestamp,
  });
  const full = resource(kind, {
    ...(summary.properties as Record<string, unknown>),
    draftVersion: version,
  });
  const createProperties: Record<string, unknown> = {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    [cloneKey]: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: `start from this ${kind}'s draft config`,
    },
    config: anyObject,
  };
  if (kind === 'extractor') {
    createProperties.generate = {
      type: 'object',
      required: ['files'],
      additionalProperties: false,
      properties: {
        files: { type: 'array', minItems: 1, maxItems: 5, items: anyObject },
        instructions: { type: 'string', maxLength: 2500 },
      },
      description: 'draft the schema from sample files (needs a model provider)',
    };
  }
  const tag = `${label}s`;
  return [
    workspaceRoute<Record<string, never>, ListQuery, undefined>({
      method: 'GET',
      path: `/${plural}`,
      operationId: `${plural}.list`,
      summary: `List ${plural}, newest first`,
      tag,
      query: querySchema({ ...pageQuery, sortBy, sortDir }),
      response: listOf(summary),
      async handle({ engine, query }) {
        const page = await of(engine).list({
          maxPageSize: query.maxPageSize,
          nextPageToken: query.nextPageToken,
          ...listOrder(query),
        });
        return { ...page, data: page.data.map(summaryOf) };
      },
    }),
    workspaceRoute<Record<string, never>, Record<string, never>, Record<string, unknown>>({
      method: 'POST',
      path: `/${plural}`,
      operationId: `${plural}.create`,
      summary: `Create a${kind === 'extractor' ? 'n' : ''} ${kind} with a draft config`,
      tag,
      body: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: createProperties,
      },
      response: full,
      async handle({ engine, body }) {
        const service = of(engine);
        const { [cloneKey]: cloneId, ...rest } = body as Record<string, unknown>;
        let input: Record<string, unknown> = rest;
        if (typeof cloneId === 'string') {
          if (rest.config !== undefined) {
            throw new ApiError(
              'INVALID_REQUEST',
              `body.${cloneKey}: give ${cloneKey} or config, not both`,
              {
                issues: [
                  {
                    code: 'CONFLICTING_FIELDS',
                    path: `body.${cloneKey}`,
                    message: 'not combinable with config',
                  },
                ],
              },
            );
          }
          // The engine clones extractors itself; classifiers and splitters start from a copy here.
          input =
            kind === 'extractor'
              ? { ...rest, cloneExtractorId: cloneId }
              : {
                  ...rest,
                  config: (
                    await service.get(cloneId).catch(() => {
                      throw new ApiError('NOT_FOUND', `${label} ${cloneId} does not exist`, {
                        issues: [
                          {
                            code: 'NOT_FOUND',
                            path: `body.${cloneKey}`,
                            message: `no such ${kind}`,
                          },
                        ],
                      });
                    })
                  ).config,
                };
        }
        return present(service, await service.create(input as never));
      },
    }),
    workspaceRoute<{ id: string }, Record<string, never>, undefined>({
      method: 'GET',
      path: `/${plural}/{id}`,
      operationId: `${plural}.retrieve`,
      summary: `Get a${kind === 'extractor' ? 'n' : ''} ${kind} with its draft version`,
      tag,
      params: idParams,
      response: full,
      handle: async ({ engine, params }) => present(of(engine), await of(engine).get(params.id)),
    }),
    workspaceRoute<
      { id: string },
      Record<string, never>,
      { name?: string; config?: Record<string, unknown> }
    >({
      method: 'POST',
      path: `/${plural}/{id}`,
      operationId: `${plural}.update`,
      summary: 'Change the name or the draft config (published versions never change)',
      tag,
      params: idParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, config: anyObject },
      },
      response: full,
      handle: async ({ engine, params, body }) =>
        present(of(engine), await of(engine).update(params.id, (body ?? {}) as never)),
    }),
    workspaceRoute<{ [k: string]: string }, ListQuery, undefined>({
      method: 'GET',
      path: `/${plural}/{${idName}}/versions`,
      operationId: `${kind}Versions.list`,
      summary: 'List published versions, newest first',
      tag,
      params: idsParams(idName),
      query: querySchema({ ...pageQuery, sortDir }),
      response: listOf(version),
      async handle({ engine, params, query }) {
        const service = of(engine);
        const page = await service.listVersions(params[idName] as string, {
          maxPageSize: query.maxPageSize,
          nextPageToken: query.nextPageToken,
          ...listOrder(query),
        });
        return { ...page, data: page.data.map((v) => service.versionSummary(v)) };
      },
    }),
    workspaceRoute<{ [k: string]: string }, Record<string, never>, Record<string, unknown>>({
      method: 'POST',
      path: `/${plural}/{${idName}}/versions`,
      operationId: `${kind}Versions.create`,
      summary: 'Publish the draft (or `config`) as the next version',
      tag,
      params: idsParams(idName),
      body: publishBody,
      response: version,
      async handle({ engine, params, body }) {
        const service = of(engine);
        const { processorVersion } = await service.publish(params[idName] as string, body as never);
        return presentVersion(service, processorVersion);
      },
    }),
    workspaceRoute<{ [k: string]: string }, Record<string, never>, undefined>({
      method: 'GET',
      path: `/${plural}/{${idName}}/versions/{versionId}`,
      operationId: `${kind}Versions.retrieve`,
      summary: 'Get a version: "draft", "latest", a number such as "1.0", or a version id',
      tag,
      params: idsParams(idName, 'versionId'),
      response: version,
      async handle({ engine, params }) {
        const service = of(engine);
        return presentVersion(
          service,
          await findVersion(service, params[idName] as string, params.versionId as string),
        );
      },
    }),
  ];
}

/** The service of a processor id by its prefix (`ex_`, `cl_`, `spl_`). */
function serviceOfId(engine: Engine, id: string): Service | undefined {
  if (id.startsWith('ex_')) return engine.extractors;
  if (id.startsWith('cl_')) return engine.classifiers;
  if (id.startsWith('spl_')) return engine.splitters;
  return undefined;
}

/** Extractors, classifiers and splitters with their versions, and the legacy publish endpoint. */
export const processorsRoutes: readonly AnyRoute[] = [
  ...routesOf('extractor'),
  ...routesOf('classifier'),
  ...routesOf('splitter'),
  workspaceRoute<{ id: string }, Record<string, never>, Record<string, unknown>>({
    method: 'POST',
    path: '/processors/{id}/publish',
    operationId: 'processorVersion.create',
    summary: 'Legacy: publish a processor version; answers { success, processorVersion }',
    tag: 'Processors (legacy)',
    deprecated: true,
    params: idParams,
    body: publishBody,
    response: {
      type: 'object',
      properties: { success: { type: 'boolean' }, processorVersion: anyObject },
    },
    async handle({ engine, params, body }) {
      const service = serviceOfId(engine, params.id);
      if (!service) {
        throw new ApiError('NOT_FOUND', `No processor ${JSON.stringify(params.id)}`, {
          issues: [{ code: 'NOT_FOUND', path: 'params.id', message: 'no such processor' }],
        });
      }
      return service.publish(params.id, body as never);
    },
  }),
];
