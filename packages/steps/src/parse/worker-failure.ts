import { ParseFailure } from './parse-failure.ts';

/** Out of memory: a worker thread's heap limit, or a reader process's (contained-process.ts). */
const OUT_OF_MEMORY: ReadonlySet<string | undefined> = new Set([
  'ERR_WORKER_OUT_OF_MEMORY',
  'ERR_CHILD_OUT_OF_MEMORY',
]);

/**
 * What a contained parser's worker thread or reader process dying means for the document: out
 * of its heap, FILE_SIZE_TOO_LARGE naming the limit; any other death, CORRUPT_FILE. Either way
 * the worker ended, not the process that asked.
 */
export function workerFailure(
  type: string,
  heapMb: number,
  error: Error & { code?: string },
): ParseFailure {
  return OUT_OF_MEMORY.has(error.code)
    ? new ParseFailure(
        'FILE_SIZE_TOO_LARGE',
        `Reading the ${type} file needed more than the ${heapMb} MiB of memory its parser may use (limits.workerHeapMb): the document is too large or expands too far. Split it, or raise the limit.`,
      )
    : new ParseFailure(
        'CORRUPT_FILE',
        `The ${type} parser stopped on this file (${error.message}). Re-export the document from its source application.`,
      );
}
