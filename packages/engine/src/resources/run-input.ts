import type { JsonObject, JsonValue } from '@docflow/storage';
import type { ValidationIssue } from '../errors.ts';
import { inputChecker } from '../validation/json-schema.ts';

/** A file given to a run: a stored file, a URL to download, or raw text (single-file runs only). */
export type RunFileSource =
  | { readonly id: string }
  | { readonly url: string }
  | { readonly text: string; readonly name?: string };

/** Input of `workflowRuns.create` (SPEC.md POST /workflow_runs). */
export interface CreateWorkflowRunInput {
  readonly workflow: { readonly id: string; readonly version?: string };
  readonly file?: RunFileSource;
  readonly package?: {
    readonly files: readonly ({ readonly id: string } | { readonly url: string })[];
  };
  /** Processor outputs to use instead of running the processor (not on package runs). */
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

const fileSource = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    text: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 255 },
  },
} as const;

const workflowRef = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    version: {
      type: 'string',
      pattern: '^(draft|[1-9][0-9]*)$',
      description: 'a version number as text or "draft"',
    },
  },
} as const;

const common = {
  priority: { type: 'integer', minimum: 1, maximum: 100 },
  metadata: { type: 'object' },
  secrets: { type: 'object', additionalProperties: { type: 'string' } },
} as const;

const createIssues = inputChecker(
  {
    type: 'object',
    additionalProperties: false,
    required: ['workflow'],
    properties: {
      workflow: workflowRef,
      file: fileSource,
      package: {
        type: 'object',
        additionalProperties: false,
        required: ['files'],
        properties: {
          files: {
            type: 'array',
            minItems: 2,
            maxItems: 50,
            items: {
              type: 'object',
              additionalProperties: false,
              minProperties: 1,
              maxProperties: 1,
              properties: {
                id: { type: 'string', minLength: 1, maxLength: 255 },
                url: { type: 'string', minLength: 1, maxLength: 4096 },
              },
            },
          },
        },
      },
      outputs: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['processorId', 'output'],
          properties: { processorId: { type: 'string', minLength: 1 }, output: {} },
        },
      },
      ...common,
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
          properties: { file: fileSource, metadata: common.metadata, secrets: common.secrets },
        },
      },
      priority: common.priority,
    },
  },
  { code: 'INVALID_INPUT' },
);

/** Size limit of run metadata (SPEC.md Limits). */
export const METADATA_LIMIT_BYTES = 10 * 1024;

function checkFileSource(file: JsonObject, path: string, allowText: boolean): ValidationIssue[] {
  const kinds = ['id', 'url', 'text'].filter((k) => k in file);
  if (kinds.length !== 1) {
    return [
      { code: 'INVALID_FILE_SOURCE', path, message: 'must have exactly one of id, url or text' },
    ];
  }
  if (!allowText && kinds[0] === 'text') {
    return [{ code: 'INVALID_FILE_SOURCE', path, message: 'raw text is not supported here' }];
  }
  if ('name' in file && kinds[0] !== 'text') {
    return [
      { code: 'INVALID_FILE_SOURCE', path: `${path}.name`, message: 'is only allowed with text' },
    ];
  }
  if (kinds[0] === 'url' && !/^https?:\/\//i.test(String(file.url))) {
    return [{ code: 'INVALID_URL', path: `${path}.url`, message: 'must be an http(s) URL' }];
  }
  return [];
}

/** Checks run metadata's size and cleans `service:usage_tags` as SPEC.md says. */
export function checkMetadata(
  metadata: JsonObject | undefined,
  path: string,
): {
  issues: ValidationIssue[];
  metadata: JsonObject;
} {
  if (metadata === undefined) return { issues: [], metadata: {} };
  const size = Buffer.byteLength(JSON.stringify(metadata));
  if (size > METADATA_LIMIT_BYTES) {
    return {
      issues: [
        {
          code: 'METADATA_TOO_LARGE',
          path,
          message: `is ${size} bytes; at most ${METADATA_LIMIT_BYTES} are allowed`,
        },
      ],
      metadata: {},
    };
  }
  const tags = metadata['service:usage_tags'];
  if (tags === undefined) return { issues: [], metadata };
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
    return {
      issues: [
        {
          code: 'INVALID_USAGE_TAGS',
          path: `${path}["service:usage_tags"]`,
          message: 'must be a list of strings',
        },
      ],
      metadata: {},
    };
  }
  const clean = (tags as string[]).map((t) => t.replace(/[^A-Za-z0-9_-]/g, ''));
  return { issues: [], metadata: { ...metadata, 'service:usage_tags': clean } };
}

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
  if (value.file)
    issues.push(...checkFileSource(value.file as unknown as JsonObject, 'file', true));
  if (value.package) {
    const seenIds = new Set<string>();
    const seenUrls = new Set<string>();
    value.package.files.forEach((f, i) => {
      const path = `package.files[${i}]`;
      issues.push(...checkFileSource(f as unknown as JsonObject, path, false));
      const [seen, key] = 'id' in f ? [seenIds, f.id] : [seenUrls, f.url];
      if (seen.has(key)) {
        issues.push({
          code: 'DUPLICATE_PACKAGE_FILE',
          path,
          message: `duplicates an earlier entry (${key})`,
        });
      }
      seen.add(key);
    });
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
    issues.push(...checkFileSource(item.file as unknown as JsonObject, `inputs[${i}].file`, true));
    issues.push(...checkMetadata(item.metadata, `inputs[${i}].metadata`).issues);
  });
  return issues;
}
