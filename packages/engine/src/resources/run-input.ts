import type { JsonObject, JsonValue } from '@docflow/storage';
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

export type { RunFileSource } from '../files/file-sources.ts';

/** A package source: a stored file or a URL (raw text is not taken in packages). */
export type PackageFileSource = Exclude<RunFileSource, { readonly text: string }>;

/** Input of `workflowRuns.create` (the interface's POST /workflow_runs, as the SDK sends it). */
export interface CreateWorkflowRunInput {
  readonly workflow: { readonly id: string; readonly version?: string };
  readonly file?: RunFileSource;
  readonly package?: { readonly files: readonly PackageFileSource[] };
  /**
   * Processor outputs to use instead of running the processor (not on package runs); each
   * `processorId` must be an extractor, classifier or splitter a step of the workflow uses.
   */
  readonly outputs?: readonly { readonly processorId: string; readonly output: JsonValue }[];
  /** 1 (most urgent) to 100; default 50. */
  readonly priority?: number;
  /** At most 10 KB of JSON; returned on the run and in events. */
  readonly metadata?: JsonObject;
  /** Secrets for executors; never stored in plain text or returned. */
  readonly secrets?: Readonly<Record<string, string>>;
}

/** One input of `workflowRuns.createBatch`. */
export interface BatchRunInput {
  readonly file: RunFileSource;
  readonly metadata?: JsonObject;
  readonly secrets?: Readonly<Record<string, string>>;
}

/** Input of `workflowRuns.createBatch`. */
export interface CreateWorkflowRunBatchInput {
  readonly workflow: { readonly id: string; readonly version?: string };
  /** 1 to 1000 runs. */
  readonly inputs: readonly BatchRunInput[];
  /** Default 90: batches yield to interactive runs. */
  readonly priority?: number;
}

const workflowRef = referenceSchema('^(draft|[1-9][0-9]*)$', 'a version number as text or "draft"');

const secretsSchema = { type: 'object', additionalProperties: { type: 'string' } } as const;

const createIssues = inputChecker(
  {
    type: 'object',
    additionalProperties: false,
    required: ['workflow'],
    properties: {
      workflow: workflowRef,
      file: fileSourceSchema,
      package: packageSchema,
      outputs: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['processorId', 'output'],
          properties: { processorId: { type: 'string', minLength: 1 }, output: {} },
        },
      },
      priority: prioritySchema,
      metadata: metadataSchema,
      secrets: secretsSchema,
    },
  },
  { code: 'INVALID_INPUT' },
);

const batchIssues = inputChecker(
  {
    type: 'object',
    additionalProperties: false,
    required: ['workflow', 'inputs'],
    properties: {
      workflow: workflowRef,
      inputs: {
        type: 'array',
        minItems: 1,
        maxItems: 1000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['file'],
          properties: { file: fileSourceSchema, metadata: metadataSchema, secrets: secretsSchema },
        },
      },
      priority: prioritySchema,
    },
  },
  { code: 'INVALID_INPUT' },
);

/** Every problem of a `workflowRuns.create` input, with paths. */
export function checkCreateRunInput(input: unknown): ValidationIssue[] {
  const schemaIssues = createIssues(input);
  if (schemaIssues.length > 0) return schemaIssues;
  const value = input as unknown as CreateWorkflowRunInput;
  const issues: ValidationIssue[] = [];
  if ((value.file === undefined) === (value.package === undefined)) {
    issues.push({
      code: 'FILE_OR_PACKAGE',
      path: 'file',
      message: 'exactly one of file or package is required',
    });
  }
  if (value.file) {
    issues.push(...fileSourceIssues(value.file as unknown as JsonObject, 'file', true));
  }
  if (value.package) {
    issues.push(...packageIssues(value.package.files as unknown as JsonObject[], 'package.files'));
    if (value.outputs !== undefined) {
      issues.push({
        code: 'OUTPUTS_NOT_SUPPORTED',
        path: 'outputs',
        message: 'output overrides are not supported on package runs',
      });
    }
  }
  issues.push(...checkMetadata(value.metadata, 'metadata').issues);
  return issues;
}

/** Every problem of a `workflowRuns.createBatch` input, with paths. */
export function checkBatchInput(input: unknown): ValidationIssue[] {
  const schemaIssues = batchIssues(input);
  if (schemaIssues.length > 0) return schemaIssues;
  const value = input as unknown as CreateWorkflowRunBatchInput;
  const issues: ValidationIssue[] = [];
  value.inputs.forEach((item, i) => {
    issues.push(...fileSourceIssues(item.file as unknown as JsonObject, `inputs[${i}].file`, true));
    issues.push(...checkMetadata(item.metadata, `inputs[${i}].metadata`).issues);
  });
  return issues;
}
