import { createHash } from 'node:crypto';
import type { JsonObject, StorageAdapter } from '@docflow/storage';
import { notFound } from '../errors.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { FileSummary, NewFile } from '../step-executor.ts';
import { detectFileType } from './detect-file-type.ts';

/**
 * Where file bytes and file documents are kept: a `files` document per file (its summary) and
 * its bytes in the blob store under `file/<id>`. The files service and the runtime (executors'
 * `context.files`) both go through here. `blobKeyOf` is the blob key of a file's bytes.
 */
const FILE_BLOB_PREFIX = 'file/';
export const blobKeyOf = (id: string): string => `${FILE_BLOB_PREFIX}${id}`;

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

/**
 * Deletes file bytes that no file document owns: a process that stopped between storing a
 * file's bytes and committing its document (or between deleting a document and its bytes)
 * leaves them. Safe only while nothing else stores files, so `engine.start()` calls it before it
 * takes any request, and only on storage that this process alone writes (not on one that
 * several processes share, where another's upload may be between its two steps). It reads
 * every file's document once: start-up time grows with the number of files. Returns how many
 * it deleted.
 */
export async function sweepOrphanFileBlobs(storage: StorageAdapter): Promise<number> {
  if (storage.sharedByProcesses || storage.blobs.keys === undefined) return 0;
  let deleted = 0;
  for (const key of await storage.blobs.keys(FILE_BLOB_PREFIX)) {
    const doc = await storage.getDocument('files', key.slice(FILE_BLOB_PREFIX.length));
    if (doc?.blobKey === key) continue;
    await storage.blobs.delete(key);
    deleted++;
  }
  return deleted;
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

/**
 * The ids among `ids` whose files still exist. Runs keep the summaries of their files; a file
 * deleted since shows as `file: null` in what they return.
 */
export async function presentFiles(
  ctx: EngineContext,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  const present = new Set<string>();
  for (const id of ids) {
    if (!present.has(id) && (await ctx.storage.getDocument('files', id))) present.add(id);
  }
  return present;
}
