import type { Worker } from 'node:worker_threads';
import type { FileType } from '@docflow/engine';
import type { DraftDocument } from './draft-document.ts';
import type { FormatContext, ParseLimits } from './format-context.ts';
import { ParseFailure } from './parse-failure.ts';
import type { ParseFailureReason } from './parse-output.ts';
import type { ResolvedParseConfig } from './resolve-parse-config.ts';
import { runFormat } from './run-format.ts';
import { askWorker, startWorker, workerEntry } from './worker-entry.ts';
import { workerFailure } from './worker-failure.ts';

/**
 * Formats read in a worker thread with a bounded heap: those whose parsers build a tree or a
 * sheet of the whole document in memory (a DOCX of honest but enormous XML, a sheet of millions
 * of cells, deep or huge markup). PDFs are read page by page (and their streams measured first),
 * images by sharp's native decoder under its pixel limit, text in one pass.
 */
const CONTAINED: ReadonlySet<FileType> = new Set(['DOCX', 'EXCEL', 'HTML', 'XML', 'CSV']);

/** One document for a format worker. */
export interface FormatJob {
  readonly type: FileType;
  readonly bytes: Uint8Array;
  readonly config: ResolvedParseConfig;
  readonly limits: ParseLimits;
  readonly mimeType: string;
  readonly fileName: string;
}

/** What a format worker answers. */
export type FormatReply =
  | { readonly ok: true; readonly draft: DraftDocument }
  | {
      readonly ok: false;
      readonly reason?: ParseFailureReason;
      readonly name: string;
      readonly message: string;
    };

const start = workerEntry(import.meta.url, 'format-worker');

/** Idle workers kept for the next document (loading the parsers costs more than a parse). */
const idle: { worker: Worker; heapMb: number }[] = [];
const IDLE_KEPT = 2;
const IDLE_MS = 5000;
let timer: NodeJS.Timeout | undefined;

function release(entry: { worker: Worker; heapMb: number }): void {
  entry.worker.unref();
  if (idle.length >= IDLE_KEPT) {
    void entry.worker.terminate();
    return;
  }
  idle.push(entry);
  timer ??= setTimeout(() => {
    timer = undefined;
    for (const e of idle.splice(0)) void e.worker.terminate();
  }, IDLE_MS);
  timer.unref();
}

function acquire(heapMb: number): { worker: Worker; heapMb: number } {
  const i = idle.findIndex((e) => e.heapMb === heapMb);
  const found = i === -1 ? undefined : idle.splice(i, 1)[0];
  if (found) {
    found.worker.ref();
    return found;
  }
  const worker = startWorker(start as NonNullable<typeof start>, {
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: Math.min(64, heapMb),
    },
  });
  return { worker, heapMb };
}

/**
 * Reads a document with its format's parser, in a worker thread whose heap is bounded by
 * `limits.workerHeapMb` for the formats that build the whole document in memory: a document
 * that needs more ends the worker, not the process, and fails with FILE_SIZE_TOO_LARGE; a
 * worker that dies otherwise is CORRUPT_FILE. Other formats (and a runtime without workers, or
 * `workerHeapMb: 0`) are read in this thread. An abort terminates the worker at once.
 */
export function runFormatContained(
  type: FileType,
  bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  const heapMb = context.limits.workerHeapMb;
  if (!CONTAINED.has(type) || start === undefined || heapMb <= 0) {
    return runFormat(type, bytes, context);
  }
  const { signal } = context;
  if (signal.aborted) return Promise.reject(signal.reason);
  if (timer && idle.length <= 1) {
    clearTimeout(timer);
    timer = undefined;
  }
  const entry = acquire(heapMb);
  const job: FormatJob = {
    type,
    bytes,
    config: context.config,
    limits: context.limits,
    mimeType: context.mimeType,
    fileName: context.fileName,
  };
  return askWorker<FormatReply, DraftDocument>(entry.worker, job, signal, {
    reply: (reply) => {
      if (reply.ok) return { value: reply.draft };
      if (reply.reason) return { error: new ParseFailure(reply.reason, reply.message) };
      const Rebuilt = reply.name === 'RangeError' ? RangeError : Error;
      return { error: Object.assign(new Rebuilt(reply.message), { name: reply.name }) };
    },
    failed: (error) => workerFailure(type, heapMb, error),
    answered: () => release(entry),
  });
}
