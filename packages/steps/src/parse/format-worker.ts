import type { FormatJob, FormatReply } from './contained-format.ts';
import type { DraftDocument } from './draft-document.ts';
import {
  type DraftPart,
  draftHead,
  draftItems,
  draftParts,
  LARGE_DRAFT_ITEMS,
} from './draft-parts.ts';
import { runFormat } from './run-format.ts';
import { type ReaderFailure, toReaderFailure } from './worker-failure.ts';

// Entry of a contained parser's reader process (contained-format.ts): reads one document per
// message under the process's heap limit, and answers its draft in parts (draft-parts.ts) and
// then its head, or its error.

/** Parts written but not yet through the pipe, at most: the reader waits for the caller past it. */
const PARTS_IN_FLIGHT = 4;

/** Sends a message; settles once it is written to the channel (or the channel is gone). */
function send(message: DraftPart | FormatReply): Promise<void> {
  return new Promise((resolve) => {
    // The callback comes for every message (with an error once the channel is gone).
    if (process.send) process.send(message, () => resolve());
    else resolve();
  });
}

async function read(job: FormatJob): Promise<DraftDocument | ReaderFailure> {
  const controller = new AbortController();
  try {
    return await runFormat(job.type, job.bytes, {
      config: job.config,
      limits: job.limits,
      signal: controller.signal,
      mimeType: job.mimeType,
      fileName: job.fileName,
      // Only PDFs use them, and PDFs are not read here.
      pdfWorkers: 'never',
    });
  } catch (error) {
    return toReaderFailure(error);
  }
}

/**
 * Answers a draft in parts, each released here once written, then its head. Before a large
 * draft, a full collection (the reader runs with `--expose-gc`): what parsing left behind is
 * freed, and sending the draft reuses that memory instead of growing the process further while
 * the caller grows by the draft it receives (about 40 MB lower at the two processes' peak for the
 * 100,000 × 6 sheet, for about 0.2 CPU seconds; bench/results/parse.md).
 */
async function answer(draft: DraftDocument): Promise<void> {
  if (draftItems(draft) > LARGE_DRAFT_ITEMS) (globalThis as { gc?: () => void }).gc?.();
  const written: Promise<void>[] = [];
  for (const part of draftParts(draft)) {
    written.push(send(part));
    if (written.length >= PARTS_IN_FLIGHT) await written.shift();
  }
  await Promise.all(written);
  await send({ ok: true, draft: draftHead(draft) });
}

process.on('message', (job: FormatJob) => {
  void read(job).then((result) => ('ok' in result ? send(result) : answer(result)));
});
// The parent going away (its channel closing) ends the reader too.
process.on('disconnect', () => process.exit(0));
