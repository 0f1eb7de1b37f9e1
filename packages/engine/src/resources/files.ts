import { createHash } from 'node:crypto';
import type { JsonObject } from '@docflow/storage';
import { assertNoIssues, EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';
import { detectFileType } from '../files/detect-file-type.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { FileSummary, NewFile } from '../step-executor.ts';
import {
  type ListResult,
  listing,
  notFound,
  type PageParams,
  pageOptions,
  toListResult,
} from './list-result.ts';

/** SPEC.md File: a stored file as `files.get` returns it. */
export interface FileResource extends FileSummary {
  /** A download URL; docflow has no URL server for files, so this is null. */
  readonly presignedUrl: string | null;
  /** Deprecated in SPEC.md; always null here (parse runs hold parsed content). */
  readonly contents: null;
}

/** Input of {@link FilesService.upload}. */
export interface UploadFileInput {
  /** The file name, 1 to 255 characters. */
  readonly name: string;
  /** The bytes (a string is stored as UTF-8). */
  readonly data: Uint8Array | ArrayBuffer | string;
}

/** `engine.files`. */
export interface FilesService {
  /** Stores a file; its type is detected from its content, never from the name alone. */
  upload(input: UploadFileInput): Promise<FileResource>;
  get(id: string): Promise<FileResource>;
  list(
    params?: PageParams & { nameContains?: string; sortDir?: 'asc' | 'desc' },
  ): Promise<ListResult<FileSummary>>;
  /** The file's bytes. */
  download(id: string): Promise<Uint8Array>;
  /** Deletes the file and its bytes. */
  delete(id: string): Promise<{ object: 'file'; id: string; deleted: true }>;
}

const blobKeyOf = (id: string): string => `file/${id}`;

/** Turns `data` into bytes, naming the field when it is of the wrong type. */
function toBytes(data: unknown, path: string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (typeof data === 'string') return new TextEncoder().encode(data);
  throw new EngineError(EngineErrorCode.VALIDATION_FAILED, `${path} must be bytes or a string`, {
    details: {
      issues: [
        { code: 'INVALID_TYPE', path, message: 'must be a Uint8Array, ArrayBuffer or string' },
      ],
    },
  });
}

function checkName(name: unknown, path: string): ValidationIssue[] {
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) {
    return [{ code: 'INVALID_NAME', path, message: 'must be a string of 1 to 255 characters' }];
  }
  return [];
}

/** Projects a stored file document to a summary. */
export function toFileSummary(data: JsonObject): FileSummary {
  return {
    object: 'file',
    id: data.id as string,
    name: data.name as string,
    type: (data.type ?? null) as FileSummary['type'],
    parentFileId: (data.parentFileId ?? null) as string | null,
    metadata: (data.metadata ?? {}) as FileSummary['metadata'],
    createdAt: data.createdAt as string,
    updatedAt: data.updatedAt as string,
  };
}

/**
 * Stores bytes as a file. With `deterministicKey`, the id is derived from it so that an executor
 * that runs again after a crash finds its own file instead of creating a second one.
 */
export async function storeFile(
  ctx: EngineContext,
  file: NewFile,
  deterministicKey?: string,
): Promise<FileSummary> {
  const id =
    deterministicKey === undefined
      ? ctx.newId('file_')
      : `file_${createHash('sha256').update(`${deterministicKey}\0${file.name}`).digest('hex').slice(0, 24)}`;
  if (deterministicKey !== undefined) {
    const existing = await ctx.storage.getDocument('files', id);
    if (existing) return toFileSummary(existing.data);
  }
  const detected = detectFileType(file.data, file.name);
  const now = ctx.nowIso();
  const summary: FileSummary = {
    object: 'file',
    id,
    name: file.name,
    type: detected.type,
    parentFileId: file.parentFileId ?? null,
    metadata: { ...(file.metadata ?? {}), mimeType: detected.mimeType, size: file.data.byteLength },
    createdAt: now,
    updatedAt: now,
  };
  await ctx.storage.blobs.put(blobKeyOf(id), file.data);
  await ctx.storage.commit({
    documents: [
      {
        collection: 'files',
        id,
        name: file.name,
        blobKey: blobKeyOf(id),
        parentId: file.parentFileId,
        data: summary as unknown as JsonObject,
        expectedRevision: 0,
        at: now,
      },
    ],
  });
  return summary;
}

/** Reads a file's bytes, or throws NOT_FOUND naming `path`. */
export async function readFileBytes(
  ctx: EngineContext,
  id: string,
  path = 'id',
): Promise<Uint8Array> {
  const doc = await ctx.storage.getDocument('files', id);
  if (!doc?.blobKey) throw notFound('file', id, path);
  const bytes = await ctx.storage.blobs.get(doc.blobKey);
  if (!bytes) throw notFound('file bytes of', id, path);
  return bytes;
}

/** Creates `engine.files`. */
export function createFilesService(ctx: EngineContext): FilesService {
  const get = async (id: string): Promise<FileResource> => {
    const doc = typeof id === 'string' ? await ctx.storage.getDocument('files', id) : undefined;
    if (!doc) throw notFound('file', String(id));
    return { ...toFileSummary(doc.data), presignedUrl: null, contents: null };
  };
  return {
    async upload(input) {
      if (typeof input !== 'object' || input === null) {
        assertNoIssues(
          [{ code: 'INVALID_TYPE', path: '', message: 'must be an object' }],
          'file upload',
        );
      }
      assertNoIssues(checkName(input.name, 'name'), 'file upload');
      const data = toBytes(input.data, 'data');
      const summary = await storeFile(ctx, { name: input.name, data });
      return { ...summary, presignedUrl: null, contents: null };
    },
    get,
    async list(params) {
      const page = await listing(() =>
        ctx.storage.listDocuments('files', {
          ...pageOptions(params),
          order: params?.sortDir ?? 'desc',
          ...(params?.nameContains === undefined ? {} : { nameContains: params.nameContains }),
        }),
      );
      return toListResult(page, (d) => toFileSummary(d.data));
    },
    download: (id) => readFileBytes(ctx, id),
    async delete(id) {
      const doc = await ctx.storage.getDocument('files', id);
      if (!doc) throw notFound('file', id);
      await ctx.storage.commit({ deleteDocuments: [{ collection: 'files', id }] });
      if (doc.blobKey) await ctx.storage.blobs.delete(doc.blobKey);
      return { object: 'file', id, deleted: true };
    },
  };
}
