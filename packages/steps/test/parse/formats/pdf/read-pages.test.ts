import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS, type FormatContext } from '../../../../src/parse/format-context.ts';
import { type LaidPage, layOutPage } from '../../../../src/parse/formats/pdf/laid-page.ts';
import { openPdfSession } from '../../../../src/parse/formats/pdf/pdf-session.ts';
import {
  closePdfWorkers,
  idlePdfReaders,
  pdfWorkersAvailable,
  readOnWorker,
} from '../../../../src/parse/formats/pdf/pdf-worker-pool.ts';
import { readPages } from '../../../../src/parse/formats/pdf/read-pages.ts';
import { openPdf, scanPage } from '../../../../src/parse/formats/pdf/scan-page.ts';
import type { ParseConfig } from '../../../../src/parse/parse-output.ts';
import { resolveParseConfig } from '../../../../src/parse/resolve-parse-config.ts';
import { makeGraphicsPdf } from '../../../fixtures/parse/make-graphics-pdf.ts';
import { makeReportPdf } from '../../../fixtures/parse/make-pdf.ts';

function contextOf(config: ParseConfig = {}, signal = new AbortController().signal): FormatContext {
  const resolved = resolveParseConfig(config);
  if (!resolved.ok) throw new Error(resolved.issues.join('; '));
  return {
    config: resolved.config,
    limits: DEFAULT_PARSE_LIMITS,
    signal,
    mimeType: 'application/pdf',
    fileName: 'test.pdf',
    pdfWorkers: 'auto',
  };
}

/** Every page through the operator list, as before the content-stream reader, laid out. */
async function operatorListPages(bytes: Uint8Array, context: FormatContext): Promise<LaidPage[]> {
  const task = await openPdf(bytes);
  try {
    const doc = await task.promise;
    const pages: LaidPage[] = [];
    for (let n = 1; n <= doc.numPages; n++)
      pages.push(layOutPage(await scanPage(doc, n, context.config, false), context.config));
    return pages;
  } finally {
    await task.destroy();
  }
}

const tablesOf = (page: LaidPage) => page.blocks.filter((block) => block.type === 'table').length;

async function read(bytes: Uint8Array, context: FormatContext, threshold?: number) {
  const session = await openPdfSession(bytes, context);
  try {
    const pages = Array.from({ length: session.numPages }, (_, i) => i + 1);
    return await readPages(bytes, session, pages, context, threshold);
  } finally {
    await session.close();
  }
}

afterAll(() => closePdfWorkers());

describe('readPages', { timeout: 60_000 }, () => {
  it('reads a report from content streams, with what the operator list gives', async () => {
    const { bytes } = await makeReportPdf({ pages: 4, rotatedPages: [2], turnedTextPages: [3] });
    const context = contextOf();
    const result = await read(bytes, context);
    // Bold comes with the text content's font styles: no page needs the operator list, and the
    // pages read are those the list gives (headings and bold table headers included).
    expect(result.paths).toEqual({ text: 0, 'content-stream': 4, 'operator-list': 0 });
    expect(result.threads).toBe(0);
    expect(result.pages).toEqual(await operatorListPages(bytes, context));
    expect(result.pages.every((page) => tablesOf(page) === 1)).toBe(true);
  });

  it('takes pages in from the reader as they are laid out, the last ones with the reply', async () => {
    // Eight pages a message: the first eight come before the reply, the other two with it.
    const { bytes } = await makeReportPdf({ pages: 10 });
    const context = contextOf();
    const session = await openPdfSession(bytes, context);
    expect(session.heapMb).toBeGreaterThan(0);
    const seen: LaidPage[] = [];
    let replied = false;
    try {
      const result = await session.read([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], (page) => {
        expect(replied).toBe(false);
        seen.push(page);
      });
      replied = true;
      // The share's pages are those that came, laid out, in order.
      expect(seen.map((page) => page.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(result.pages).toEqual(seen);
      expect(seen.every((page) => tablesOf(page) === 1)).toBe(true);
      expect(result.paths['content-stream']).toBe(10);
    } finally {
      await session.close();
    }
  });

  it('a last read without scans lets the reader close the document as it answers', async () => {
    const { bytes } = await makeReportPdf({ pages: 2 });
    const context = contextOf();
    const session = await openPdfSession(bytes, context);
    await session.read([1], undefined, true);
    // Closed there: nothing more can be asked of the document (the close asks nothing).
    await expect(session.render(1, 72)).rejects.toThrow(/no document is open/);
    await session.close();
    // The reader serves the next document, which reads as it reads alone.
    const again = await read(bytes, context);
    expect(again.pages.map((page) => page.number)).toEqual([1, 2]);
    expect(again.pages).toEqual((await read(bytes, contextOf())).pages);
  });

  it('a last read with a scan keeps the document open for the scan to be rendered', async () => {
    const doc = await PDFDocument.create();
    const gray = { width: 40, height: 40, channels: 1 } as const;
    const png = await sharp(Buffer.alloc(40 * 40, 200), { raw: gray })
      .png()
      .toBuffer();
    const image = await doc.embedPng(new Uint8Array(png));
    doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    const bytes = await doc.save();
    const session = await openPdfSession(bytes, contextOf());
    try {
      const { pages } = await session.read([1], undefined, true);
      expect(pages[0]?.scanned).toBe(true);
      const rendered = await session.render(1, 36);
      expect(rendered.image.width).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  it('falls back to the operator list page by page where the content reader declines', async () => {
    const { bytes, pages } = await makeGraphicsPdf();
    const context = contextOf();
    const result = await read(bytes, context);
    const declined = pages.filter((page) => page.unsupported).length;
    expect(declined).toBeGreaterThan(0);
    // The declined pages take the list; the rest the content stream.
    expect(result.paths).toEqual({
      text: 0,
      'content-stream': pages.length - declined,
      'operator-list': declined,
    });
    expect(result.pages).toEqual(await operatorListPages(bytes, context));
  });

  it('reads pages with little text from the content stream unless images cover them (scans)', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const gray = { width: 40, height: 40, channels: 1 } as const;
    const png = await sharp(Buffer.alloc(40 * 40, 200), { raw: gray })
      .png()
      .toBuffer();
    const image = await doc.embedPng(new Uint8Array(png));
    // A section's last line on a page of its own; a caption under a small figure; a scan.
    doc.addPage([612, 792]).drawText('End of section 1.', { x: 72, y: 720, size: 11, font });
    const figure = doc.addPage([612, 792]);
    figure.drawImage(image, { x: 72, y: 500, width: 200, height: 200 });
    figure.drawText('Figure 1', { x: 72, y: 480, size: 11, font });
    doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    const bytes = await doc.save();
    const context = contextOf();
    const result = await read(bytes, context);
    expect(result.paths).toEqual({ text: 0, 'content-stream': 2, 'operator-list': 1 });
    expect(result.pages.map((page) => page.scanned)).toEqual([false, false, true]);
    expect(result.pages).toEqual(await operatorListPages(bytes, context));
  });

  it('reads without graphics where the engine needs none (parse_light)', async () => {
    const { bytes } = await makeReportPdf({ pages: 2 });
    const result = await read(bytes, contextOf({ engine: 'parse_light' }));
    expect(result.paths).toEqual({ text: 2, 'content-stream': 0, 'operator-list': 0 });
    expect(result.pages.every((page) => tablesOf(page) === 0)).toBe(true);
  });

  it('splits large documents over pooled worker threads with the same result', async () => {
    expect(pdfWorkersAvailable()).toBe(true);
    const { bytes } = await makeReportPdf({ pages: 6 });
    const context = contextOf();
    const inThread = await read(bytes, context);
    const first = await read(bytes, context, 1);
    expect(first.threads).toBeGreaterThanOrEqual(1);
    expect(first.pages).toEqual(inThread.pages);
    // Pooled threads serve the next document too.
    const second = await read(bytes, context, 1);
    expect(second.pages).toEqual(inThread.pages);
  });

  it('stops when the parse is aborted', async () => {
    const { bytes } = await makeReportPdf({ pages: 6 });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(read(bytes, contextOf({}, controller.signal), 1)).rejects.toThrow('stop');
    await expect(read(bytes, contextOf({}, controller.signal))).rejects.toThrow('stop');
  });
});

describe('a pooled reader whose share of pages failed', { timeout: 60_000 }, () => {
  it('goes back to the pool instead of staying held', async () => {
    const { bytes } = await makeReportPdf({ pages: 2 });
    await closePdfWorkers();
    expect(idlePdfReaders()).toBe(0);
    const context = contextOf();
    // A stream limit of 16 bytes: the reader answers FILE_SIZE_TOO_LARGE and lives on.
    await expect(
      readOnWorker(
        { bytes, pages: [1], config: context.config, hasForm: false, streamLimit: 16 },
        512,
        context.signal,
      ),
    ).rejects.toMatchObject({ reason: 'FILE_SIZE_TOO_LARGE' });
    expect(idlePdfReaders()).toBe(1);
  });
});
