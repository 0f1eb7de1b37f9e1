/**
 * Schema fragments shared by the routes. Request schemas close every object
 * (`additionalProperties: false`), so an unknown key or query parameter is refused by name;
 * configs whose contents the engine checks are open objects here.
 */
import type { JsonSchema } from '../http/request-validation.ts';

/** A JSON object whose keys the engine checks. */
export const anyObject = { type: 'object' } as const;

/** `{ id }` path parameters. */
export const idParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

/** Path parameters named as given, each an id. */
export function idsParams(...names: string[]): JsonSchema {
  return {
    type: 'object',
    required: names,
    additionalProperties: false,
    properties: Object.fromEntries(
      names.map((n) => [n, { type: 'string', minLength: 1, maxLength: 255 }]),
    ),
  };
}

/** The interface pagination: `maxPageSize` 1 to 1000 (default 10) and an opaque `nextPageToken`. */
export const pageQuery = {
  nextPageToken: { type: 'string', minLength: 1, maxLength: 4096 },
  maxPageSize: { type: 'integer', minimum: 1, maximum: 1000, description: 'default 10' },
} as const;

export const sortDir = { enum: ['asc', 'desc'], description: 'default desc' } as const;
export const sortBy = {
  enum: ['createdAt', 'updatedAt'],
  description: 'default createdAt; updatedAt: by last change, ties in creation order',
} as const;

/** A query schema of exactly these parameters. */
export function querySchema(properties: Record<string, unknown>): JsonSchema {
  return { type: 'object', additionalProperties: false, properties };
}

/** Run metadata (at most 10 KB, checked by the engine). */
export const metadata = {
  type: 'object',
  description: 'at most 10 KB of JSON; returned on the run and in webhooks',
} as const;

export const priority = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  description: '1 (first) to 100; default 50, batches 90',
} as const;

export const fileFromId = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

export const fileFromUrl = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    settings: {
      type: 'object',
      additionalProperties: false,
      properties: { password: { type: 'string' } },
    },
  },
} as const;

export const fileFromText = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: {
    text: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 255 },
  },
} as const;

/** A file given by id, URL or (where allowed) raw text. */
export function fileSource(...kinds: ('id' | 'url' | 'text')[]): JsonSchema {
  const byKind = { id: fileFromId, url: fileFromUrl, text: fileFromText };
  return { oneOf: kinds.map((k) => byKind[k]) };
}

/** The interface's package: 2 to 50 files by id or URL. */
export const filePackage = {
  type: 'object',
  required: ['files'],
  additionalProperties: false,
  properties: {
    files: {
      type: 'array',
      minItems: 2,
      maxItems: 50,
      items: { oneOf: [fileFromId, fileFromUrl] },
    },
  },
} as const;

/** A saved processor at a version, with an optional config override. */
export function processorReference(kind: string): JsonSchema {
  return {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 255, description: `the ${kind}'s id` },
      version: {
        type: 'string',
        minLength: 1,
        description: '"latest" (default), "draft" or a version number such as "1.0"',
      },
      overrideConfig: anyObject,
    },
  };
}

/** `{ object: "list", data, nextPageToken? }` of `item`. */
export function listOf(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['object', 'data'],
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items: item },
      nextPageToken: { type: 'string' },
    },
  };
}

/** A resource shape for the OpenAPI document: the named fields, others allowed. */
export function resource(object: string, properties: Record<string, unknown>): JsonSchema {
  return {
    type: 'object',
    required: ['object', 'id'],
    properties: { object: { const: object }, id: { type: 'string' }, ...properties },
  };
}

/** `{ id }` of something deleted. */
export const deleted = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string' }, deleted: { const: true } },
} as const;

const nullableString = { type: ['string', 'null'] } as const;
const timestamp = { type: 'string', description: 'RFC 3339, UTC' } as const;

export const fileSummary = resource('file', {
  name: { type: 'string' },
  type: { enum: ['PDF', 'CSV', 'IMG', 'TXT', 'DOCX', 'EXCEL', 'XML', 'HTML', null] },
  parentFileId: nullableString,
  metadata: anyObject,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const fileResource = resource('file', {
  ...(fileSummary.properties as Record<string, unknown>),
  presignedUrl: {
    ...nullableString,
    description: 'GET /files/{id} only; expires after 15 minutes',
  },
  contents: { type: ['object', 'null'], description: 'deprecated; always null' },
});

export const runCommon = {
  status: { type: 'string' },
  failureReason: nullableString,
  failureMessage: nullableString,
  metadata: { type: ['object', 'null'] },
  usage: { type: ['object', 'null'] },
  createdAt: timestamp,
  updatedAt: timestamp,
} as const;

export { nullableString, timestamp };
