import { ParseFailure } from './parse-failure.ts';
import type { ParseFailureReason } from './parse-output.ts';

/**
 * An error as it crosses a reader's channel (structured clone keeps no class): its failure
 * reason when it was a {@link ParseFailure}, its name and message.
 */
export interface ReaderFailure {
  readonly ok: false;
  readonly reason?: ParseFailureReason;
  readonly name: string;
  readonly message: string;
}

/** What a reader sends for an error its work ended with. */
export function toReaderFailure(error: unknown): ReaderFailure {
  return {
    ok: false,
    ...(error instanceof ParseFailure ? { reason: error.reason } : {}),
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The error a reader's {@link ReaderFailure} stands for, in the process that asked: the
 * {@link ParseFailure} when it named a reason, else an error of its name (a RangeError stays
 * one: parseDocument reads it as a runtime limit the document met).
 */
export function fromReaderFailure(failure: ReaderFailure): Error {
  if (failure.reason) return new ParseFailure(failure.reason, failure.message);
  const Rebuilt = failure.name === 'RangeError' ? RangeError : Error;
  return Object.assign(new Rebuilt(failure.message), { name: failure.name });
}

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
