import type { FileType } from '@docflow/engine';
import { askChild, childEntry, startChild } from './contained-process.ts';
import type { DraftDocument } from './draft-document.ts';
import { DraftAssembler, type DraftPart, LARGE_DRAFT_ITEMS } from './draft-parts.ts';
import type { FormatContext, ParseLimits } from './format-context.ts';
import { readerPool } from './reader-pool.ts';
import type { ResolvedParseConfig } from './resolve-parse-config.ts';
import { runFormat } from './run-format.ts';
import { fromReaderFailure, type ReaderFailure, workerFailure } from './worker-failure.ts';

/**
 * Formats read in a reader process with a bounded heap: those whose parsers build a tree or a
 * sheet of the whole document in memory (a DOCX of honest but enormous XML, a sheet of millions
 * of cells, deep or huge markup). PDFs are read page by page (and their streams measured first),
 * images by sharp's native decoder under its pixel limit, text in one pass.
 */
const CONTAINED: ReadonlySet<FileType> = new Set(['DOCX', 'EXCEL', 'HTML', 'XML', 'CSV']);

/** One document for a format reader. */
export interface FormatJob {
  readonly type: FileType;
  readonly bytes: Uint8Array;
  readonly config: ResolvedParseConfig;
  readonly limits: ParseLimits;
  readonly mimeType: string;
  readonly fileName: string;
}

/**
 * What a format reader answers last: the draft's head (its units came before, in parts:
 * draft-parts.ts), or its error.
 */
export type FormatReply = { readonly ok: true; readonly draft: DraftDocument } | ReaderFailure;

const start = childEntry(import.meta.url, 'format-worker');

/**
 * V8 flags of a format reader. A young generation of 2 MiB semi-spaces instead of V8's default
 * (up to 16 MiB each, three of them committed while a large sheet is read): the reader's
 * resident memory at its peak, which adds to the caller's while the draft crosses, is 40–70 MB
 * lower for the 100,000 × 6 sheet, for no more CPU (bench/results/parse.md, 2026-11-26). And
 * `gc()`, which the reader calls before it sends a large draft (`format-worker.ts`).
 */
const READER_V8_FLAGS = ['--max-semi-space-size=2', '--expose-gc'];

/**
 * Warm readers, as for PDFs (reader-pool.ts): loading the parsers in a new process costs more
 * than most documents cost to read.
 */
const pool = readerPool({
  spawn: (heapMb) => startChild(start as NonNullable<typeof start>, heapMb, [], READER_V8_FLAGS),
  idleKept: 2,
  idleMs: 30_000,
});

/** Ends idle format readers (they are started again on demand). */
export function closeFormatReaders(): Promise<void> {
  return pool.close();
}

/** Idle format readers kept now. */
export function idleFormatReaders(): number {
  return pool.idle;
}

/**
 * A reader that answered a large draft (`LARGE_DRAFT_ITEMS` blocks and cells) is ended instead of
 * kept warm. V8 keeps the heap it grew to while it waits (about 280 MB resident after a sheet of
 * 600,000 cells), and ending it frees that before this process builds the output: the two peaks
 * no longer add up (decision 0032). The next document pays a reader's start, small beside
 * reading such a draft.
 */
const RETIRE_AFTER_ITEMS = LARGE_DRAFT_ITEMS;

/**
 * Reads a document with its format's parser, in a pooled reader process whose V8 heap is
 * `limits.workerHeapMb` for the formats that build the whole document in memory: a document
 * that needs more ends the reader, not this process, and fails with FILE_SIZE_TOO_LARGE (even
 * when one allocation overshoots the heap, which a worker thread's `resourceLimits` does not
 * contain: decision 0030); a reader that dies otherwise is CORRUPT_FILE. Other formats (and a
 * runtime where no reader can start, or `workerHeapMb: 0`) are read in this thread. An abort
 * kills the reader at once.
 */
export async function runFormatContained(
  type: FileType,
  bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  const heapMb = context.limits.workerHeapMb;
  if (!CONTAINED.has(type) || start === undefined || heapMb <= 0) {
    return runFormat(type, bytes, context);
  }
  const { signal } = context;
  signal.throwIfAborted();
  const reader = await pool.acquire(heapMb);
  const job: FormatJob = {
    type,
    bytes,
    config: context.config,
    limits: context.limits,
    mimeType: context.mimeType,
    fileName: context.fileName,
  };
  const assembler = new DraftAssembler();
  // A part out of order is a reader's fault: that reply ends the parse, and the reader goes,
  // as does one that answered a large draft (RETIRE_AFTER_ITEMS).
  let astray = false;
  let items = 0;
  return askChild<FormatReply | DraftPart, DraftDocument>(reader.child, job, signal, {
    reply: (message) => {
      if ('part' in message) {
        if (message.part === 'cells') items += message.contents.length;
        else if (message.part !== 'unit') items += message.blocks.length;
        try {
          assembler.add(message);
          return undefined;
        } catch (error) {
          astray = true;
          return { error: workerFailure(type, heapMb, error as Error) };
        }
      }
      return message.ok
        ? { value: assembler.finish(message.draft) }
        : { error: fromReaderFailure(message) };
    },
    failed: (error) => workerFailure(type, heapMb, error),
    answered: () => {
      if (astray || items > RETIRE_AFTER_ITEMS) reader.child.process.kill();
      else pool.release(reader);
    },
  });
}
