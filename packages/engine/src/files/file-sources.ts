import { EngineError, EngineErrorCode, isEngineError, type ValidationIssue } from '../errors.ts';
import type { EngineContext } from '../internal/engine-context.ts';
import type { FileSummary } from '../step-executor.ts';
import type { DownloadedFile } from './download-url.ts';
import { blobKeyOf, storeFile, toFileSummary } from './file-store.ts';

/**
 * A file given to a run (the interface and the SDK's FileFromId, FileFromUrl, FileFromText): a stored
 * file, a URL to download (with an optional name), or raw text where a run takes it.
 */
export type RunFileSource =
  | { readonly id: string }
  | {
      readonly url: string;
      readonly name?: string;
      /** The SDK's FileFromUrlSettings; `password` is refused (docflow reads no protected files). */
      readonly settings?: { readonly password?: string };
    }
  | { readonly text: string; readonly name?: string };

/** Downloads a URL file source. */
export type Download = (url: string, signal?: AbortSignal) => Promise<DownloadedFile>;

/** The run's files, and the failure of a URL that could not be downloaded (the run fails with it). */
export interface ResolvedFiles {
  readonly summaries: FileSummary[];
  /** Ids of the files this resolution stored (text and downloads), for {@link discardCreatedFiles}. */
  readonly created: readonly string[];
  readonly failure?: { readonly reason: string; readonly message: string };
}

/**
 * Checks that every `{ id }` source names a stored file, and throws NOT_FOUND naming each one
 * that does not (at `paths[i].id`) before anything is stored. Returns the summaries found.
 */
export async function checkFileIds(
  ctx: EngineContext,
  sources: readonly RunFileSource[],
  paths: readonly string[],
): Promise<(FileSummary | undefined)[]> {
  const issues: ValidationIssue[] = [];
  const found: (FileSummary | undefined)[] = [];
  for (const [i, source] of sources.entries()) {
    if (!('id' in source)) {
      found.push(undefined);
      continue;
    }
    const doc = await ctx.storage.getDocument('files', source.id);
    if (!doc) {
      issues.push({
        code: 'NOT_FOUND',
        path: `${paths[i]}.id`,
        message: `file ${source.id} does not exist`,
      });
    }
    found.push(doc ? toFileSummary(doc.data) : undefined);
  }
  if (issues.length > 0) {
    throw new EngineError(
      EngineErrorCode.NOT_FOUND,
      `Invalid run input: ${issues[0]?.path}: ${issues[0]?.message}`,
      { details: { issues } },
    );
  }
  return found;
}

/**
 * Turns a run's file sources into stored files: ids are looked up (a missing one is NOT_FOUND
 * before anything is stored), text is stored as a file, URLs are downloaded and stored. A URL
 * that cannot be downloaded (or that the document URL policy refuses) is not an error of the
 * request: the run is created FAILED with UNABLE_TO_DOWNLOAD_FILE, as the interface lists it, or
 * FILE_SIZE_TOO_LARGE when its body passed the download limit.
 */
export async function resolveFileSources(
  ctx: EngineContext,
  sources: readonly RunFileSource[],
  paths: readonly string[],
  download: Download,
  /** What {@link checkFileIds} returned for `sources`, when the caller looked them up already. */
  checked?: readonly (FileSummary | undefined)[],
): Promise<ResolvedFiles> {
  const known = checked ?? (await checkFileIds(ctx, sources, paths));
  const summaries: FileSummary[] = [];
  const created: string[] = [];
  // A storage failure halfway keeps none of the files stored before it.
  return keepFilesIfDone(ctx, [{ summaries, created }], async () => {
    const stored = (summary: FileSummary) => {
      summaries.push(summary);
      created.push(summary.id);
    };
    for (const [i, source] of sources.entries()) {
      const found = known[i];
      if (found) summaries.push(found);
      else if ('text' in source) {
        stored(
          await storeFile(ctx, {
            name: source.name ?? 'text.txt',
            data: new TextEncoder().encode(source.text),
          }),
        );
      } else if ('url' in source) {
        try {
          const { name, data } = await download(source.url);
          stored(await storeFile(ctx, { name: source.name ?? name, data }));
        } catch (error) {
          return {
            summaries,
            created,
            failure: {
              // Streamed up to the limit and dropped there: the file is too large, not missing.
              reason: isEngineError(error, EngineErrorCode.RESPONSE_TOO_LARGE)
                ? 'FILE_SIZE_TOO_LARGE'
                : 'UNABLE_TO_DOWNLOAD_FILE',
              message: `Could not download ${source.url}: ${error instanceof Error ? error.message : String(error)}`,
            },
          };
        }
      }
    }
    return { summaries, created };
  });
}

/**
 * Deletes the files a resolution stored, when the call that resolved them fails after all: a
 * refused create leaves no file row or blob behind. Best effort: the caller's error is what
 * matters, so a failure to delete (storage down) is left for the caller's error to explain.
 */
export async function discardCreatedFiles(
  ctx: EngineContext,
  resolved: readonly ResolvedFiles[],
): Promise<void> {
  const ids = resolved.flatMap((r) => r.created);
  if (ids.length === 0) return;
  try {
    await ctx.storage.commit({
      deleteDocuments: ids.map((id) => ({ collection: 'files' as const, id })),
    });
    for (const id of ids) await ctx.storage.blobs.delete(blobKeyOf(id));
  } catch {
    // The original failure is reported; these files stay until deleted by id.
  }
}

/**
 * Runs `use` over resolved files; when it throws, the files the resolution stored are deleted
 * before the error goes on.
 */
export async function keepFilesIfDone<T>(
  ctx: EngineContext,
  resolved: readonly ResolvedFiles[],
  use: () => Promise<T>,
): Promise<T> {
  try {
    return await use();
  } catch (error) {
    await discardCreatedFiles(ctx, resolved);
    throw error;
  }
}
