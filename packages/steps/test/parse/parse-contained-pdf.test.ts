import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS } from '../../src/parse/format-context.ts';
import {
  openPdfSession,
  pdfHeapMb,
  pdfStreamLimit,
} from '../../src/parse/formats/pdf/pdf-session.ts';
import { closePdfWorkers } from '../../src/parse/formats/pdf/pdf-worker-pool.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { resolveParseConfig } from '../../src/parse/resolve-parse-config.ts';
import { longStringPdf, lzwBombPdf } from '../fixtures/parse/make-bombs.ts';
import { makeReportPdf, reportPageTruth } from '../fixtures/parse/make-pdf.ts';

afterAll(() => closePdfWorkers());

const MiB = 1024 * 1024;

describe('pdf.js reads every PDF in a reader process with a bounded heap', {
  timeout: 120_000,
}, () => {
  it('a PDF whose text outgrows the heap fails with FILE_SIZE_TOO_LARGE, and the next PDF parses', async () => {
    // One string of 32 million letters: 32 MiB of content stream, within what a 230 KB file may
    // inflate to; pdf.js's lexer holds 8 bytes per letter in one array, which it grows by copying
    // (the kind of allocation that aborts a whole process from a worker thread over its limit).
    const bomb = await longStringPdf(32_000_000, 200_000);
    const limits = { workerHeapMb: 256 };
    const failed = await parseDocument(bomb, { limits });
    expect(failed).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!failed.ok && failed.failureMessage).toMatch(
      /more than the 256 MiB .*limits\.workerHeapMb/,
    );
    // The process is still here, and so is a reader for the next document, under the same limits.
    const { bytes } = await makeReportPdf({ pages: 2 });
    const next = await parseDocument(bytes, { limits });
    if (!next.ok) throw new Error(next.failureMessage);
    const text = next.output.chunks.map((chunk) => chunk.content).join('\n');
    expect(text).toContain(reportPageTruth(2).heading);
  });

  it('a request to a reader that already ran out of heap is FILE_SIZE_TOO_LARGE too', async () => {
    // The session's reader dies of the bomb's page; what is asked of it afterwards (a render for
    // OCR, another share) must say why it died, not call a document that merely outgrew the
    // heap damaged.
    const bomb = await longStringPdf(32_000_000, 200_000);
    const resolved = resolveParseConfig({});
    if (!resolved.ok) throw new Error('config');
    const session = await openPdfSession(bomb, {
      config: resolved.config,
      limits: { ...DEFAULT_PARSE_LIMITS, workerHeapMb: 256 },
      signal: new AbortController().signal,
      mimeType: 'application/pdf',
      fileName: 'bomb.pdf',
      pdfWorkers: 'never',
    });
    expect(session.heapMb).toBe(256);
    try {
      await expect(session.read([1])).rejects.toMatchObject({ reason: 'FILE_SIZE_TOO_LARGE' });
      await expect(session.render(1, 72)).rejects.toMatchObject({
        reason: 'FILE_SIZE_TOO_LARGE',
      });
      await expect(session.read([1])).rejects.toMatchObject({ reason: 'FILE_SIZE_TOO_LARGE' });
    } finally {
      await session.close();
    }
  });

  it('a stream that LZW-decodes past the stream limit fails with FILE_SIZE_TOO_LARGE', async () => {
    // LZW is not counted before parsing (only FlateDecode is): the reader's own limit stops it.
    const result = await parseDocument(lzwBombPdf(48), {
      limits: { maxUncompressedBytes: 16 * MiB },
    });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/decodes past what one stream may hold/);
  });

  it('sizes the heap by the file: a floor, a power of two, limits.workerHeapMb at most', () => {
    expect(pdfHeapMb(DEFAULT_PARSE_LIMITS, 200 * 1024)).toBe(512);
    expect(pdfHeapMb(DEFAULT_PARSE_LIMITS, 20 * MiB)).toBe(1024);
    expect(pdfHeapMb(DEFAULT_PARSE_LIMITS, 100 * MiB)).toBe(2048);
    expect(pdfHeapMb({ ...DEFAULT_PARSE_LIMITS, workerHeapMb: 300 }, 200 * 1024)).toBe(300);
    // One stream: what the file may expand to, or a 100-megapixel image, within the total limit.
    expect(pdfStreamLimit(DEFAULT_PARSE_LIMITS, 200 * 1024)).toBe(400_000_000);
    expect(pdfStreamLimit(DEFAULT_PARSE_LIMITS, 50 * MiB)).toBe(1024 * MiB);
  });
});
