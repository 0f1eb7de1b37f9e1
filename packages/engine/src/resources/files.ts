import type { StoredDocument } from '@docflow/storage';
import {
  assertNoIssues,
  EngineError,
  EngineErrorCode,
  notFound,
  type ValidationIssue,
} from '../errors.ts';
import type { FileDeletions } from '../files/file-deletions.ts';
import { readFileBytes, storeFile, toFileSummary } from '../files/file-store.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { FileSummary } from '../step-executor.ts';
import { type ListResult, listPage, type SortedPageParams } from './list-result.ts';

/** The interface's File: a stored file as `files.get` returns it. */
export interface FileResource extends FileSummary {
  /** A download URL; docflow has no URL server for files, so this is null. */
  readonly presignedUrl: string | null;
  /** Deprecated in the interface; always null here (parse runs hold parsed content). */
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
  list(params?: SortedPageParams & { nameContains?: string }): Promise<ListResult<FileSummary>>;
  /** The file's bytes. */
  download(id: string): Promise<Uint8Array>;
  /**
   * Deletes the file, its bytes and the files made from it (split children, conversions): runs
   * that pointed to it show `file: null`; one that still had to read it fails with FILE_DELETED.
   */
  delete(id: string): Promise<{ object: 'file'; id: string; deleted: true }>;
}

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

/** Creates `engine.files`. */
export function createFilesService(ctx: EngineContext, deletions: FileDeletions): FilesService {
  const get = async (id: string): Promise<FileResource> => {
    const doc =
      typeof id === 'string' && id !== '' ? await ctx.storage.getDocument('files', id) : undefined;
    if (!doc) throw notFound('file', id);
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
      return listPage(
        params,
        (page) =>
          ctx.storage.listDocuments('files', {
            ...page,
            ...(params?.nameContains === undefined ? {} : { nameContains: params.nameContains }),
          }),
        (d) => toFileSummary(d.data),
      );
    },
    download: (id) => readFileBytes(ctx, id),
    async delete(id) {
      const doc = await ctx.storage.getDocument('files', id);
      if (!doc) throw notFound('file', id);
      await deleteFileAndDerived(ctx, doc, deletions);
      return { object: 'file', id, deleted: true };
    },
  };
}

/**
 * Deletes a file, its bytes, and the files made from it (a split's child files, a converted
 * PDF, and theirs), children first. Runs keep their own records; what they return shows a
 * deleted file as `file: null`, and a run that still had to read it fails with FILE_DELETED.
 */
async function deleteFileAndDerived(
  ctx: EngineContext,
  doc: StoredDocument,
  deletions: FileDeletions,
): Promise<void> {
  const doomed: StoredDocument[] = [doc];
  for (let i = 0; i < doomed.length; i++) {
    const parent = doomed[i] as StoredDocument;
    let pageToken: string | undefined;
    do {
      const children = await ctx.storage.listDocuments('files', {
        parentId: parent.id,
        pageSize: 1000,
        ...(pageToken === undefined ? {} : { pageToken }),
      });
      doomed.push(...children.items);
      pageToken = children.nextPageToken;
    } while (pageToken !== undefined);
  }
  try {
    await ctx.storage.commit({
      deleteDocuments: doomed.map((d) => ({ collection: 'files' as const, id: d.id })),
    });
  } finally {
    deletions.committed();
  }
  for (const d of doomed) if (d.blobKey) await ctx.storage.blobs.delete(d.blobKey);
}
