import { asArray, asRecord } from '../definition/step-view.ts';
import type { ProcessorKind } from '../definition/workflow-definition.ts';
import type { ValidationIssue } from '../errors.ts';
import { ProcessorIssueCode as Code } from './processor-issue-code.ts';
import { validateProcessorConfig } from './validate-processor-config.ts';

type Issues = ValidationIssue[];

/** Most sample files of a `generate` request (the interface's "Limits"). */
export const MAX_GENERATE_FILES = 5;
/** Longest `generate.instructions` (the interface's "Limits"). */
export const MAX_GENERATE_INSTRUCTIONS = 2500;
/** Longest publish `description`. */
export const MAX_DESCRIPTION = 10_000;

/** Issues of a resource name (non-empty, at most 255 characters). */
export function checkName(name: unknown, path: string): Issues {
  return typeof name === 'string' && name.trim().length > 0 && name.length <= 255
    ? []
    : [
        {
          code: Code.INVALID_NAME,
          path,
          message: 'must be a non-empty string of at most 255 characters',
        },
      ];
}

/** Issues of an input that is not an object, or that has keys outside `allowed`. */
export function checkKeys(
  input: unknown,
  allowed: readonly string[],
  what: string,
): { record: Readonly<Record<string, unknown>> | undefined; issues: Issues } {
  const record = asRecord(input);
  if (!record) {
    return {
      record,
      issues: [{ code: Code.CONFIG_INVALID, path: '', message: `${what} must be an object` }],
    };
  }
  const issues: Issues = [];
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key) && record[key] !== undefined) {
      issues.push({
        code: Code.NOT_ALLOWED,
        path: key,
        message: `is not a field of ${what} (allowed: ${allowed.join(', ')})`,
      });
    }
  }
  return { record, issues };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Issues of a `generate` request's shape (the interface's "Other operations" and "Limits"). */
export function checkGenerateRequest(generate: unknown, path = 'generate'): Issues {
  const issues: Issues = [];
  const request = asRecord(generate);
  if (!request) {
    return [
      {
        code: Code.INVALID_GENERATE_REQUEST,
        path,
        message: 'must be an object { files, instructions? }',
      },
    ];
  }
  for (const key of Object.keys(request)) {
    if (key !== 'files' && key !== 'instructions') {
      issues.push({
        code: Code.INVALID_GENERATE_REQUEST,
        path: `${path}.${key}`,
        message: 'is not allowed (allowed: files, instructions)',
      });
    }
  }
  const files = request.files;
  if (!Array.isArray(files) || files.length < 1 || files.length > MAX_GENERATE_FILES) {
    issues.push({
      code: Code.INVALID_GENERATE_REQUEST,
      path: `${path}.files`,
      message: `must be a list of 1 to ${MAX_GENERATE_FILES} files, each { id } or { url }`,
    });
  }
  asArray(files).forEach((raw, k) => {
    const file = asRecord(raw);
    const at = `${path}.files[${k}]`;
    const keys = file ? Object.keys(file) : [];
    const id = file?.id;
    const url = file?.url;
    if (!file || keys.length !== 1 || (id === undefined && url === undefined)) {
      issues.push({
        code: Code.INVALID_GENERATE_REQUEST,
        path: at,
        message: 'must be exactly one of { id } or { url }',
      });
    } else if (id !== undefined && (typeof id !== 'string' || id.length === 0)) {
      issues.push({
        code: Code.INVALID_GENERATE_REQUEST,
        path: `${at}.id`,
        message: 'must be a file id',
      });
    } else if (url !== undefined && (typeof url !== 'string' || !isHttpUrl(url))) {
      issues.push({
        code: Code.INVALID_GENERATE_REQUEST,
        path: `${at}.url`,
        message: 'must be an http or https URL',
      });
    }
  });
  const instructions = request.instructions;
  if (
    instructions !== undefined &&
    (typeof instructions !== 'string' || instructions.length > MAX_GENERATE_INSTRUCTIONS)
  ) {
    issues.push({
      code: Code.INVALID_GENERATE_REQUEST,
      path: `${path}.instructions`,
      message: `must be a string of at most ${MAX_GENERATE_INSTRUCTIONS} characters`,
    });
  }
  return issues;
}

/** Issues of a create request (the config itself included). */
export function checkCreateInput(kind: ProcessorKind, input: unknown): Issues {
  const allowed =
    kind === 'extractor' ? ['name', 'config', 'cloneExtractorId', 'generate'] : ['name', 'config'];
  const { record, issues } = checkKeys(input, allowed, `${kind} creation`);
  if (!record) return issues;
  issues.push(...checkName(record.name, 'name'));
  if (record.config !== undefined) issues.push(...validateProcessorConfig(kind, record.config));
  // Other kinds already have NOT_ALLOWED for these keys.
  if (kind !== 'extractor') return issues;
  const clone = record.cloneExtractorId;
  const generate = record.generate;
  if (clone !== undefined) {
    if (typeof clone !== 'string' || clone.length === 0) {
      issues.push({
        code: Code.CONFIG_INVALID,
        path: 'cloneExtractorId',
        message: 'must be an extractor id',
      });
    }
    if (record.config !== undefined) {
      issues.push({
        code: Code.NOT_COMBINABLE,
        path: 'cloneExtractorId',
        message: 'cannot be combined with config: the clone takes the source extractor config',
      });
    }
  }
  if (generate !== undefined) {
    issues.push(...checkGenerateRequest(generate));
    for (const other of ['config', 'cloneExtractorId'] as const) {
      if (record[other] !== undefined) {
        issues.push({
          code: Code.NOT_COMBINABLE,
          path: 'generate',
          message: `cannot be combined with ${other}`,
        });
      }
    }
  }
  return issues;
}

/** Issues of an update request. */
export function checkUpdateInput(kind: ProcessorKind, input: unknown): Issues {
  const { record, issues } = checkKeys(input, ['name', 'config'], `${kind} update`);
  if (!record) return issues;
  if (record.name !== undefined) issues.push(...checkName(record.name, 'name'));
  if (record.config !== undefined) issues.push(...validateProcessorConfig(kind, record.config));
  return issues;
}

/** Issues of a publish request (the interface's POST /processors/{id}/publish). */
export function checkPublishInput(kind: ProcessorKind, input: unknown): Issues {
  const { record, issues } = checkKeys(
    input,
    ['releaseType', 'description', 'config'],
    `${kind} publish`,
  );
  if (!record) return issues;
  if (record.releaseType !== 'major' && record.releaseType !== 'minor') {
    issues.push({
      code: Code.INVALID_PUBLISH_REQUEST,
      path: 'releaseType',
      message: 'must be "major" or "minor"',
    });
  }
  const description = record.description;
  if (
    description !== undefined &&
    (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
  ) {
    issues.push({
      code: Code.INVALID_PUBLISH_REQUEST,
      path: 'description',
      message: `must be a string of at most ${MAX_DESCRIPTION} characters`,
    });
  }
  if (record.config !== undefined) issues.push(...validateProcessorConfig(kind, record.config));
  return issues;
}
