import type { JsonObject } from '@docflow/storage';
import type { ValidationIssue } from '../errors.ts';
import { urlIssues } from './url-issues.ts';

/**
 * The parts run requests share (workflow runs and standalone runs): file sources as the SDK
 * sends them (FileFromId, FileFromUrl, FileFromText), packages, priority and metadata, as JSON
 * Schema fragments and the checks a schema cannot say.
 */

/** Characters of a file given as inline text (`{ text }`); larger documents are uploaded. */
export const INLINE_TEXT_LIMIT = 1024 * 1024;

/** A file source: `{ id }`, `{ url, name?, settings? }` or `{ text, name? }`. */
export const fileSourceSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 255 },
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    text: { type: 'string', maxLength: INLINE_TEXT_LIMIT },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: { password: { type: 'string' } },
    },
  },
} as const;

/** `package: { files }` of a run over several files: 2 to 50 ids or URLs. */
export const packageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['files'],
  properties: {
    files: { type: 'array', minItems: 2, maxItems: 50, items: fileSourceSchema },
  },
} as const;

/**
 * A reference to a saved resource by `id` and an optional `version` matching `versionPattern`
 * (a workflow's `"3"` or `"draft"`, a processor's `"1.0"`, `"draft"` or `"latest"`), with more
 * fields where the reference takes them.
 */
export function referenceSchema(
  versionPattern: string,
  versionDescription: string,
  more: Record<string, object> = {},
) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 255 },
      version: { type: 'string', pattern: versionPattern, description: versionDescription },
      ...more,
    },
  } as const;
}

/** Run priority: 1 (most urgent) to 100. */
export const prioritySchema = { type: 'integer', minimum: 1, maximum: 100 } as const;

/** Run metadata: an object (its size is checked by {@link checkMetadata}). */
export const metadataSchema = { type: 'object' } as const;

/** Size limit of run metadata (the interface's Limits). */
export const METADATA_LIMIT_BYTES = 10 * 1024;

/**
 * What a schema cannot say about a file source: exactly one of id, url and text; text only where
 * the run takes it; a name only with text or a URL; an http(s) URL; no password (docflow reads
 * no password-protected files).
 */
export function fileSourceIssues(
  file: JsonObject,
  path: string,
  allowText: boolean,
): ValidationIssue[] {
  const kinds = ['id', 'url', 'text'].filter((k) => k in file);
  if (kinds.length !== 1) {
    return [
      {
        code: 'INVALID_FILE_SOURCE',
        path,
        message: `must have exactly one of id, url${allowText ? ' or text' : ''}`,
      },
    ];
  }
  const kind = kinds[0];
  if (!allowText && kind === 'text') {
    return [{ code: 'INVALID_FILE_SOURCE', path, message: 'raw text is not supported here' }];
  }
  if ('name' in file && kind === 'id') {
    return [
      {
        code: 'INVALID_FILE_SOURCE',
        path: `${path}.name`,
        message: 'is only allowed with url or text (a stored file has its name)',
      },
    ];
  }
  if ('settings' in file && kind !== 'url') {
    return [
      {
        code: 'INVALID_FILE_SOURCE',
        path: `${path}.settings`,
        message: 'is only allowed with url',
      },
    ];
  }
  if ((file.settings as JsonObject | undefined)?.password !== undefined) {
    return [
      {
        code: 'PASSWORD_NOT_SUPPORTED',
        path: `${path}.settings.password`,
        message:
          'docflow reads no password-protected files: remove the protection and give the file without a password',
      },
    ];
  }
  if (kind === 'url') {
    const url = String(file.url);
    if (!/^https?:\/\//i.test(url)) {
      return [{ code: 'INVALID_URL', path: `${path}.url`, message: 'must be an http(s) URL' }];
    }
    return urlIssues(url, `${path}.url`);
  }
  return [];
}

/**
 * What a schema cannot say about a package's files: each a valid source without text, no file
 * id and no URL twice (a URL and an id are never duplicates of each other).
 */
export function packageIssues(files: readonly JsonObject[], path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seenIds = new Set<string>();
  const seenUrls = new Set<string>();
  files.forEach((f, i) => {
    const at = `${path}[${i}]`;
    issues.push(...fileSourceIssues(f, at, false));
    const [seen, key] = 'id' in f ? [seenIds, String(f.id)] : [seenUrls, String(f.url)];
    if (seen.has(key)) {
      issues.push({
        code: 'DUPLICATE_PACKAGE_FILE',
        path: at,
        message: `duplicates an earlier entry (${key})`,
      });
    }
    seen.add(key);
  });
  return issues;
}

/** Checks run metadata's size and cleans `service:usage_tags` as the interface says. */
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
