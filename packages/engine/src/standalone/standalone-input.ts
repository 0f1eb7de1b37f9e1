import type { JsonObject } from '@docflow/storage';
import type { ValidationIssue } from '../errors.ts';
import type { RunFileSource } from '../files/file-sources.ts';
import { inputChecker } from '../validation/json-schema.ts';
import {
  checkMetadata,
  fileSourceIssues,
  fileSourceSchema,
  metadataSchema,
  packageIssues,
  packageSchema,
  prioritySchema,
  referenceSchema,
} from '../validation/request-parts.ts';
import { STANDALONE_KIND_SPECS, type StandaloneKind } from './standalone-kinds.ts';

/**
 * The requests of standalone runs, shaped as the service's SDK (`extend-ai`) sends them:
 * `file` as `{ id }`, `{ url, name? }` or `{ text, name? }`; an extract run's `package`; a saved
 * processor as `extractor | classifier | splitter: { id, version?, overrideConfig? }`, or an
 * inline `config`. Batches take the processor (or config) once, and `inputs` of files.
 */

/** A saved processor to run (the SDK's ExtractRunsCreateRequestExtractor and counterparts). */
export interface ProcessorReferenceInput {
  readonly id: string;
  /** `"draft"`, a published version (`"1.0"`), or `"latest"` (the default). */
  readonly version?: string;
  /** Top-level fields that replace the saved config's for this run only. */
  readonly overrideConfig?: JsonObject;
}

/** A package source: a stored file or a URL. */
export type PackageSource = Exclude<RunFileSource, { readonly text: string }>;

interface RunCommon {
  /** 1 (most urgent) to 100; default 50. */
  readonly priority?: number;
  /** At most 10 KB; returned on the run and in events. */
  readonly metadata?: JsonObject;
}

/** Input of `parseRuns.create` (the interface's POST /parse_runs). */
export interface CreateParseRunInput extends RunCommon {
  readonly file: RunFileSource;
  /** The interface's ParseConfig; the run reports it with defaults applied. */
  readonly config?: JsonObject;
}

/** Input of `extractRuns.create`: one of `extractor` and `config`, one of `file` and `package`. */
export interface CreateExtractRunInput extends RunCommon {
  readonly extractor?: ProcessorReferenceInput;
  readonly config?: JsonObject;
  readonly file?: RunFileSource;
  /** 2 to 50 files extracted from together (multifile extraction cites `fileId`). */
  readonly package?: { readonly files: readonly PackageSource[] };
}

/** Input of `classifyRuns.create`: one of `classifier` and `config`. */
export interface CreateClassifyRunInput extends RunCommon {
  readonly classifier?: ProcessorReferenceInput;
  readonly config?: JsonObject;
  readonly file: RunFileSource;
}

/** Input of `splitRuns.create`: one of `splitter` and `config`. */
export interface CreateSplitRunInput extends RunCommon {
  readonly splitter?: ProcessorReferenceInput;
  readonly config?: JsonObject;
  readonly file: RunFileSource;
}

/** One run of a batch. */
export interface StandaloneBatchItem {
  readonly file: RunFileSource;
  readonly metadata?: JsonObject;
}

interface BatchCommon {
  /** 1 to 1000 runs, sharing a `batchId`. */
  readonly inputs: readonly StandaloneBatchItem[];
  /** Default 90: batches yield to interactive runs. */
  readonly priority?: number;
}

/** Input of `parseRuns.batch`. */
export interface CreateParseRunBatchInput extends BatchCommon {
  readonly config?: JsonObject;
}
/** Input of `extractRuns.batch`. */
export interface CreateExtractRunBatchInput extends BatchCommon {
  readonly extractor?: ProcessorReferenceInput;
  readonly config?: JsonObject;
}
/** Input of `classifyRuns.batch`. */
export interface CreateClassifyRunBatchInput extends BatchCommon {
  readonly classifier?: ProcessorReferenceInput;
  readonly config?: JsonObject;
}
/** Input of `splitRuns.batch`. */
export interface CreateSplitRunBatchInput extends BatchCommon {
  readonly splitter?: ProcessorReferenceInput;
  readonly config?: JsonObject;
}

/** The create input of each kind. */
export interface StandaloneRunInputOf {
  readonly parse_run: CreateParseRunInput;
  readonly extract_run: CreateExtractRunInput;
  readonly classify_run: CreateClassifyRunInput;
  readonly split_run: CreateSplitRunInput;
}

/** The batch input of each kind. */
export interface StandaloneBatchInputOf {
  readonly parse_run: CreateParseRunBatchInput;
  readonly extract_run: CreateExtractRunBatchInput;
  readonly classify_run: CreateClassifyRunBatchInput;
  readonly split_run: CreateSplitRunBatchInput;
}

/** What any create input may hold, as the service reads it. */
export interface AnyStandaloneInput extends RunCommon {
  readonly file?: RunFileSource;
  readonly package?: { readonly files: readonly PackageSource[] };
  readonly config?: JsonObject;
  readonly extractor?: ProcessorReferenceInput;
  readonly classifier?: ProcessorReferenceInput;
  readonly splitter?: ProcessorReferenceInput;
}

const processorReferenceSchema = referenceSchema(
  '^(?:draft|latest|[0-9]+\\.[0-9]+)$',
  '"draft", "latest" or a published version such as "1.0"',
  { overrideConfig: { type: 'object' } },
);

function createSchema(kind: StandaloneKind): object {
  const processor = STANDALONE_KIND_SPECS[kind].processor;
  return {
    type: 'object',
    additionalProperties: false,
    ...(kind === 'extract_run' ? {} : { required: ['file'] }),
    properties: {
      file: fileSourceSchema,
      ...(kind === 'extract_run' ? { package: packageSchema } : {}),
      config: { type: 'object' },
      ...(processor ? { [processor]: processorReferenceSchema } : {}),
      priority: prioritySchema,
      metadata: metadataSchema,
    },
  };
}

function batchSchema(kind: StandaloneKind): object {
  const processor = STANDALONE_KIND_SPECS[kind].processor;
  return {
    type: 'object',
    additionalProperties: false,
    required: ['inputs'],
    properties: {
      inputs: {
        type: 'array',
        minItems: 1,
        maxItems: 1000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['file'],
          properties: { file: fileSourceSchema, metadata: metadataSchema },
        },
      },
      config: { type: 'object' },
      ...(processor ? { [processor]: processorReferenceSchema } : {}),
      priority: prioritySchema,
    },
  };
}

const checkers = Object.fromEntries(
  Object.keys(STANDALONE_KIND_SPECS).map((kind) => [
    kind,
    {
      create: inputChecker(createSchema(kind as StandaloneKind), { code: 'INVALID_INPUT' }),
      batch: inputChecker(batchSchema(kind as StandaloneKind), { code: 'INVALID_INPUT' }),
    },
  ]),
) as Record<StandaloneKind, Record<'create' | 'batch', (input: unknown) => ValidationIssue[]>>;

/** Exactly one of a saved processor and an inline config (processor runs). */
function sourceOfConfigIssues(kind: StandaloneKind, input: AnyStandaloneInput): ValidationIssue[] {
  const processor = STANDALONE_KIND_SPECS[kind].processor;
  if (processor === undefined) return [];
  if ((input[processor] === undefined) === (input.config === undefined)) {
    return [
      {
        code: 'CONFIG_OR_PROCESSOR',
        path: 'config',
        message: `exactly one of ${processor} and config is required`,
      },
    ];
  }
  return [];
}

/** Every problem of a create input of `kind` (before anything is looked up), with paths. */
export function createInputIssues(kind: StandaloneKind, input: unknown): ValidationIssue[] {
  const schemaIssues = checkers[kind].create(input);
  if (schemaIssues.length > 0) return schemaIssues;
  const value = input as AnyStandaloneInput;
  const issues = sourceOfConfigIssues(kind, value);
  if ((value.file === undefined) === (value.package === undefined)) {
    issues.push({
      code: 'FILE_OR_PACKAGE',
      path: 'file',
      message: 'exactly one of file or package is required',
    });
  }
  if (value.file) issues.push(...fileSourceIssues(value.file as JsonObject, 'file', true));
  if (value.package) {
    issues.push(...packageIssues(value.package.files as unknown as JsonObject[], 'package.files'));
  }
  issues.push(...checkMetadata(value.metadata, 'metadata').issues);
  return issues;
}

/** Every problem of a batch input of `kind`, with paths. */
export function batchInputIssues(kind: StandaloneKind, input: unknown): ValidationIssue[] {
  const schemaIssues = checkers[kind].batch(input);
  if (schemaIssues.length > 0) return schemaIssues;
  const value = input as BatchCommon & AnyStandaloneInput;
  const issues = sourceOfConfigIssues(kind, value);
  value.inputs.forEach((item, i) => {
    issues.push(...fileSourceIssues(item.file as JsonObject, `inputs[${i}].file`, true));
    issues.push(...checkMetadata(item.metadata, `inputs[${i}].metadata`).issues);
  });
  return issues;
}
