import {
  type Changes,
  type DeliveryWrite,
  isStorageError,
  type JsonObject,
  type StoredDocument,
} from '@docflow/storage';
import type { CreatedBy } from '../created-by.ts';
import type { ProcessorKind } from '../definition/workflow-definition.ts';
import { assertNoIssues, EngineError, EngineErrorCode, notFound } from '../errors.ts';
import type { EngineEvent } from '../events/event-types.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import {
  checkCreateInput,
  checkPublishInput,
  checkUpdateInput,
} from '../processors/check-processor-input.ts';
import { ProcessorIssueCode as Code } from '../processors/processor-issue-code.ts';
import { PROCESSOR_KINDS } from '../processors/processor-kinds.ts';
import type {
  CreateProcessorInput,
  GenerateSchemaRequest,
  LegacyProcessorVersion,
  Processor,
  ProcessorSummary,
  ProcessorVersionSummary,
  PublishProcessorInput,
  PublishProcessorResult,
  ResolvedProcessor,
  UpdateProcessorInput,
} from '../processors/processor-resource.ts';
import {
  formatVersion,
  nextVersion,
  parseVersion,
  type VersionNumber,
} from '../processors/processor-version.ts';
import { validateProcessorConfig } from '../processors/validate-processor-config.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';

/**
 * Drafts an extraction JSON Schema from sample files (a model provider's job). Given to
 * {@link createProcessorsService} to make `create({ generate })` work; without one, such
 * requests are refused.
 */
export type GenerateSchema = (
  request: GenerateSchemaRequest & { readonly name: string },
  options: { readonly signal?: AbortSignal },
) => Promise<JsonObject>;

/** Options of {@link createProcessorsService}. */
export interface ProcessorsServiceOptions {
  readonly kind: ProcessorKind;
  /** Attribution of versions (the interface's CreatedBy), shown in version summaries; default null. */
  readonly createdBy?: CreatedBy | null;
  /** Extractors only: schema generation for `create({ generate })`. */
  readonly generateSchema?: GenerateSchema;
}

/** `engine.extractors`, `engine.classifiers` and `engine.splitters`. */
export interface ProcessorsService {
  readonly kind: ProcessorKind;
  /** Creates the processor with a draft config (validated); emits `<kind>.created`. */
  create(input: CreateProcessorInput, options?: { signal?: AbortSignal }): Promise<Processor>;
  get(id: string): Promise<Processor>;
  /** Newest first; `nameContains` matches names case-insensitively. */
  list(params?: SortedPageParams & { nameContains?: string }): Promise<ListResult<Processor>>;
  /**
   * Changes the name and/or the draft config; published versions never change. Emits
   * `<kind>.updated` when the name changes and `<kind>.draft.updated` when the config does.
   */
  update(id: string, input: UpdateProcessorInput): Promise<Processor>;
  /** Deletes the processor; emits `<kind>.deleted`. References to it stop resolving. */
  delete(id: string): Promise<{ object: ProcessorKind; id: string; deleted: true }>;
  /**
   * The interface's POST /processors/{id}/publish: snapshots the draft (or `config`) as the next
   * version ("1.0", then "1.1" for minor or "2.0" for major); emits `<kind>.version.published`.
   */
  publish(id: string, input: PublishProcessorInput): Promise<PublishProcessorResult>;
  /** One version: `"draft"`, `"latest"` (newest published) or a number such as `"1.1"`. */
  getVersion(id: string, version: string): Promise<LegacyProcessorVersion>;
  /** Published versions, newest first. */
  listVersions(id: string, params?: SortedPageParams): Promise<ListResult<LegacyProcessorVersion>>;
  /**
   * A reference as workflow steps and standalone runs give it: `version` `"draft"`, a number,
   * or `"latest"` (default): the newest published version, or the draft when none is published
   * (as the interface's WorkflowReference does).
   */
  resolve(
    reference: { readonly id: string; readonly version?: string },
    path?: string,
  ): Promise<ResolvedProcessor>;
  /** The summary runs embed (the interface's SplitterVersionSummary and counterparts). */
  versionSummary(version: LegacyProcessorVersion): ProcessorVersionSummary;
}

interface ProcessorDoc extends ProcessorSummary {
  readonly draft: LegacyProcessorVersion;
  readonly latest: VersionNumber | null;
  readonly latestVersion: LegacyProcessorVersion | null;
}

/** What a version document holds: the version and who published it. */
interface VersionDoc {
  readonly version: LegacyProcessorVersion;
  readonly createdBy: CreatedBy | null;
}

const DEFAULT_CONFIGS: Readonly<Record<ProcessorKind, JsonObject>> = {
  extractor: { type: 'EXTRACT', schema: { type: 'object', properties: {} } },
  classifier: {
    type: 'CLASSIFY',
    classifications: [
      { id: 'other', type: 'other', description: 'Anything that fits no other classification' },
    ],
  },
  splitter: {
    type: 'SPLITTER',
    splitClassifications: [
      { id: 'other', type: 'other', description: 'Pages that fit no other classification' },
    ],
  },
};

function summaryOf(doc: ProcessorDoc): ProcessorSummary {
  return {
    object: doc.object,
    id: doc.id,
    name: doc.name,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

function toProcessor(doc: ProcessorDoc): Processor {
  return { ...summaryOf(doc), config: doc.draft.config, latestVersion: doc.latestVersion };
}

/** A stable text of a JSON value (keys sorted), to tell whether a config really changed. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Creates the service of one processor kind: extractors (`ex_`), classifiers (`cl_`) or
 * splitters (`spl_`). A processor is one document in the `processors` collection (grouped by
 * kind) holding its name, draft and newest version; each published version is an immutable
 * document in `processorVersions` with the unique key `<processorId>@<version>`.
 *
 * @example
 * const extractors = createProcessorsService(ctx, { kind: 'extractor' });
 * const ex = await extractors.create({ name: 'Invoices', config: { schema } });
 * const { processorVersion } = await extractors.publish(ex.id, { releaseType: 'major' }); // "1.0"
 */
export function createProcessorsService(
  ctx: EngineContext,
  options: ProcessorsServiceOptions,
): ProcessorsService {
  const { kind } = options;
  const spec = PROCESSOR_KINDS[kind];
  if (spec === undefined) {
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      `unknown processor kind ${JSON.stringify(kind)}: use extractor, classifier or splitter`,
    );
  }
  const createdBy = options.createdBy ?? null;

  const normalize = (config: JsonObject): JsonObject => {
    const { type: _type, ...rest } = structuredClone(config) as Record<string, JsonObject[string]>;
    return { type: spec.processorType, ...rest };
  };

  const loadDoc = async (
    id: unknown,
    path = 'id',
  ): Promise<{ stored: StoredDocument; doc: ProcessorDoc }> => {
    const stored =
      typeof id === 'string' && id.length > 0
        ? await ctx.storage.getDocument('processors', id)
        : undefined;
    const doc = stored?.data as unknown as ProcessorDoc | undefined;
    if (!stored || doc?.object !== kind) throw notFound(spec.label, id, path);
    return { stored, doc };
  };

  const event = async (
    type: string,
    payload: unknown,
    id: string,
  ): Promise<{ events: EngineEvent[]; deliveries: DeliveryWrite[] }> => {
    if (!ctx.events) return { events: [], deliveries: [] };
    const prepared = await ctx.events.prepare(`${kind}.${type}`, payload as JsonObject, {
      type: kind,
      id,
    });
    return { events: [prepared.event], deliveries: [...prepared.deliveries] };
  };

  const commit = async (changes: Changes, events: readonly EngineEvent[]): Promise<void> => {
    try {
      await ctx.storage.commit(changes);
    } catch (error) {
      if (isStorageError(error, 'REVISION_CONFLICT') || isStorageError(error, 'DUPLICATE_KEY')) {
        throw new EngineError(
          EngineErrorCode.CONFLICT,
          `the ${spec.label} was changed concurrently; retry with fresh data`,
          { retryable: true, cause: error },
        );
      }
      throw error;
    }
    ctx.events?.publish(events);
  };

  const processorWrite = (doc: ProcessorDoc, expectedRevision: number, at: string) => ({
    collection: 'processors' as const,
    id: doc.id,
    parentId: kind,
    name: doc.name,
    data: doc as unknown as JsonObject,
    expectedRevision,
    at,
  });

  const generateConfig = async (
    name: string,
    request: GenerateSchemaRequest,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> => {
    if (!options.generateSchema) {
      throw new EngineError(
        EngineErrorCode.INVALID_CONFIGURATION,
        'Schema generation needs a model provider: this engine has no schema generator. Give the extractor a config with a JSON schema instead, or configure a model provider.',
        {
          details: {
            issues: [
              {
                code: Code.SCHEMA_GENERATION_UNAVAILABLE,
                path: 'generate',
                message: 'schema generation needs a model provider, and none is configured',
              },
            ],
          },
        },
      );
    }
    let schema: JsonObject;
    try {
      schema = await options.generateSchema(
        { name, ...request },
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new EngineError(
        EngineErrorCode.VALIDATION_FAILED,
        `Schema generation failed: ${error instanceof Error ? error.message : String(error)}`,
        {
          retryable: true,
          cause: error,
          details: {
            issues: [{ code: Code.SCHEMA_GENERATION_FAILED, path: 'generate', message: 'failed' }],
          },
        },
      );
    }
    const config: JsonObject = { type: 'EXTRACT', schema };
    const issues = validateProcessorConfig('extractor', config, 'generate').map((i) => ({
      ...i,
      code: Code.SCHEMA_GENERATION_FAILED,
      message: `the generated schema ${i.message}`,
    }));
    assertNoIssues(issues, 'generated extractor config');
    return config;
  };

  const versionSummary = (version: LegacyProcessorVersion, by = createdBy) => {
    const idKey = `${kind}Id` as const;
    const summary: ProcessorVersionSummary = {
      object: `${kind}_version`,
      id: `${spec.versionSummaryPrefix}${version.id.slice(spec.versionIdPrefix.length)}`,
      description: version.description ?? null,
      version: version.version,
      [idKey]: version.processorId,
      createdAt: version.createdAt,
      createdBy: by,
    };
    return summary;
  };

  const findVersion = async (
    doc: ProcessorDoc,
    version: unknown,
    path: string,
  ): Promise<{ version: LegacyProcessorVersion; createdBy: CreatedBy | null }> => {
    if (version === 'draft') return { version: doc.draft, createdBy };
    if (version === 'latest') {
      if (!doc.latestVersion) {
        throw new EngineError(
          EngineErrorCode.NOT_FOUND,
          `${spec.label} ${doc.id} has no published version`,
          {
            details: {
              issues: [
                {
                  code: Code.NOT_FOUND,
                  path,
                  message: `${spec.label} ${doc.id} has no published version yet; publish it or use "draft"`,
                },
              ],
            },
          },
        );
      }
      const latest = await ctx.storage.getDocumentByKey(
        'processorVersions',
        `${doc.id}@${doc.latestVersion.version}`,
      );
      const data = latest?.data as unknown as VersionDoc | undefined;
      return { version: doc.latestVersion, createdBy: data?.createdBy ?? createdBy };
    }
    if (typeof version !== 'string' || parseVersion(version) === undefined) {
      assertNoIssues(
        [
          {
            code: Code.INVALID_VERSION,
            path,
            message: `must be "draft", "latest" or a version number such as "1.0", got ${JSON.stringify(version)}`,
          },
        ],
        `${spec.label} version`,
      );
    }
    const found = await ctx.storage.getDocumentByKey('processorVersions', `${doc.id}@${version}`);
    if (!found) throw notFound(`version of ${spec.label} ${doc.id}`, String(version), path);
    const data = found.data as unknown as VersionDoc;
    return { version: data.version, createdBy: data.createdBy };
  };

  return {
    kind,

    async create(input, createOptions) {
      assertNoIssues(checkCreateInput(kind, input), spec.label);
      let config: JsonObject;
      if (input.cloneExtractorId !== undefined) {
        const source = await loadDoc(input.cloneExtractorId, 'cloneExtractorId');
        config = source.doc.draft.config;
      } else if (input.generate !== undefined) {
        config = await generateConfig(input.name, input.generate, createOptions?.signal);
      } else {
        config = input.config ?? DEFAULT_CONFIGS[kind];
      }
      config = normalize(config);
      const now = ctx.nowIso();
      const id = ctx.newId(spec.idPrefix);
      const doc: ProcessorDoc = {
        object: kind,
        id,
        name: input.name,
        createdAt: now,
        updatedAt: now,
        draft: {
          object: 'document_processor_version',
          id: ctx.newId(spec.versionIdPrefix),
          processorId: id,
          processorType: spec.processorType,
          version: 'draft',
          config,
          createdAt: now,
          updatedAt: now,
          processorName: input.name,
        },
        latest: null,
        latestVersion: null,
      };
      const processor = toProcessor(doc);
      const { events, deliveries } = await event('created', processor, id);
      await commit({ documents: [processorWrite(doc, 0, now)], deliveries }, events);
      return processor;
    },

    async get(id) {
      return toProcessor((await loadDoc(id)).doc);
    },

    async list(params) {
      const nameContains = params?.nameContains;
      if (nameContains !== undefined && typeof nameContains !== 'string') {
        assertNoIssues(
          [{ code: Code.CONFIG_INVALID, path: 'nameContains', message: 'must be a string' }],
          'list parameters',
        );
      }
      return listPage(
        params,
        (page) =>
          ctx.storage.listDocuments('processors', {
            ...page,
            parentId: kind,
            ...(nameContains === undefined ? {} : { nameContains }),
          }),
        (d) => toProcessor(d.data as unknown as ProcessorDoc),
      );
    },

    async update(id, input) {
      const { stored, doc } = await loadDoc(id);
      assertNoIssues(checkUpdateInput(kind, input), `${spec.label} update`);
      const nameChanged = input.name !== undefined && input.name !== doc.name;
      const config = input.config === undefined ? undefined : normalize(input.config);
      const configChanged =
        config !== undefined && canonical(config) !== canonical(doc.draft.config);
      if (!nameChanged && !configChanged) return toProcessor(doc);
      const now = ctx.nowIso();
      const name = input.name ?? doc.name;
      const next: ProcessorDoc = {
        ...doc,
        name,
        updatedAt: now,
        draft: {
          ...doc.draft,
          processorName: name,
          ...(configChanged && config ? { config, updatedAt: now } : {}),
        },
      };
      const processor = toProcessor(next);
      const events: EngineEvent[] = [];
      const deliveries: DeliveryWrite[] = [];
      if (nameChanged) {
        const e = await event('updated', processor, id);
        events.push(...e.events);
        deliveries.push(...e.deliveries);
      }
      if (configChanged) {
        const e = await event('draft.updated', next.draft, id);
        events.push(...e.events);
        deliveries.push(...e.deliveries);
      }
      await commit({ documents: [processorWrite(next, stored.revision, now)], deliveries }, events);
      return processor;
    },

    async delete(id) {
      const { doc } = await loadDoc(id);
      const { events, deliveries } = await event('deleted', toProcessor(doc), id);
      // Published versions stay stored (like workflow versions) but no longer resolve.
      await commit({ deleteDocuments: [{ collection: 'processors', id }], deliveries }, events);
      return { object: kind, id, deleted: true };
    },

    async publish(id, input) {
      const { stored, doc } = await loadDoc(id);
      assertNoIssues(checkPublishInput(kind, input), `${spec.label} publish`);
      if (input.config === undefined) {
        // The draft was valid when written; check again so that a draft stored under older
        // rules can never become a published version.
        assertNoIssues(
          validateProcessorConfig(kind, doc.draft.config, 'draft.config'),
          `${spec.label} draft`,
        );
      }
      const number = nextVersion(doc.latest ?? undefined, input.releaseType);
      const versionText = formatVersion(number);
      const now = ctx.nowIso();
      const versionId = ctx.newId(spec.versionIdPrefix);
      const version: LegacyProcessorVersion = {
        object: 'document_processor_version',
        id: versionId,
        processorId: id,
        processorType: spec.processorType,
        version: versionText,
        config: input.config === undefined ? doc.draft.config : normalize(input.config),
        createdAt: now,
        updatedAt: now,
        processorName: doc.name,
        ...(input.description === undefined ? {} : { description: input.description }),
      };
      const next: ProcessorDoc = { ...doc, latest: number, latestVersion: version, updatedAt: now };
      const versionDoc: VersionDoc = { version, createdBy };
      const { events, deliveries } = await event('version.published', version, id);
      await commit(
        {
          documents: [
            {
              collection: 'processorVersions',
              id: versionId,
              parentId: id,
              key: `${id}@${versionText}`,
              data: versionDoc as unknown as JsonObject,
              expectedRevision: 0,
              at: now,
            },
            processorWrite(next, stored.revision, now),
          ],
          deliveries,
        },
        events,
      );
      return { success: true, processorVersion: version };
    },

    async getVersion(id, version) {
      const { doc } = await loadDoc(id);
      return (await findVersion(doc, version, 'version')).version;
    },

    async listVersions(id, params) {
      await loadDoc(id);
      return listPage(
        params,
        (page) => ctx.storage.listDocuments('processorVersions', { ...page, parentId: id }),
        (d) => (d.data as unknown as VersionDoc).version,
      );
    },

    async resolve(reference, path = 'processor') {
      const ref = reference as { id?: unknown; version?: unknown } | null | undefined;
      if (typeof ref !== 'object' || ref === null || typeof ref.id !== 'string') {
        assertNoIssues(
          [{ code: Code.NOT_FOUND, path: `${path}.id`, message: `a ${spec.label} id is required` }],
          `${spec.label} reference`,
        );
      }
      const { doc } = await loadDoc((ref as { id: string }).id, `${path}.id`);
      const wanted = ref?.version ?? 'latest';
      const found =
        wanted === 'latest' && doc.latestVersion === null
          ? { version: doc.draft, createdBy }
          : await findVersion(doc, wanted, `${path}.version`);
      return {
        processor: summaryOf(doc),
        version: found.version,
        versionSummary: versionSummary(found.version, found.createdBy),
        config: found.version.config,
      };
    },

    versionSummary: (version) => versionSummary(version),
  };
}
