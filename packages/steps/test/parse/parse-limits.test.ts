/**
 * Documents that expand past what their size can honestly need, or lie about it (issue 21): each
 * is refused through the limits (counted while inflating), never by a crash of the process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeFormatReaders } from '../../src/parse/contained-format.ts';
import { DEFAULT_PARSE_LIMITS } from '../../src/parse/format-context.ts';
import { measureExpansion } from '../../src/parse/measure-expansion.ts';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { isParseFailure } from '../../src/parse/parse-failure.ts';
import {
  bombPdf,
  docxOf,
  honestBombDocx,
  paragraph,
  scanPdf,
} from '../fixtures/parse/make-bombs.ts';
import { makeRawXlsx } from '../fixtures/parse/make-raw-xlsx.ts';

/** The failure reason and message measuring `bytes` as a PDF ends with, or undefined when it passes. */
async function measurePdf(bytes: Uint8Array): Promise<string | undefined> {
  try {
    await measureExpansion('PDF', bytes, DEFAULT_PARSE_LIMITS, new AbortController().signal);
    return undefined;
  } catch (error) {
    if (!isParseFailure(error)) throw error;
    return `${error.reason}: ${error.message}`;
  }
}

describe('ZIP containers are measured by inflating them, never by their headers', {
  timeout: 120_000,
}, () => {
  it('a DOCX whose document.xml honestly expands to 450 MiB fails with FILE_SIZE_TOO_LARGE', async () => {
    const bytes = await honestBombDocx(450);
    // A few hundred KiB on disk: the attack killed the process at 4.8 GB.
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const result = await parseDocument(bytes, { fileName: 'bomb.docx' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(
      /The DOCX container expands to more than [\d.]+ MiB \([\d.]+ MiB counted when reading stopped\) from a file of/,
    );
  });

  it('the limit follows the size: a small file may not expand as far as a large one', async () => {
    const body = paragraph('x'.repeat(100)).repeat(8_000); // about 1 MiB of XML
    const bytes = docxOf(body);
    expect((await parseDocument(bytes)).ok).toBe(true);
    const tight = await parseDocument(bytes, {
      limits: { expansionRatio: 10, expansionAllowanceBytes: 64 * 1024 },
    });
    expect(tight).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
  });

  it.each([
    ['claims 1 TiB in a ZIP64 field', 2 ** 40],
    ['claims 10 bytes in a ZIP64 field', 10],
  ])(
    'a DOCX whose directory %s fails with CORRUPT_FILE before any parser trusts it',
    async (_, declared) => {
      const bytes = docxOf(paragraph('Invoice INV-1, total 10.00').repeat(5_000), declared);
      const result = await parseDocument(bytes);
      expect(result).toMatchObject({ ok: false, failureReason: 'CORRUPT_FILE' });
      expect(!result.ok && result.failureMessage).toMatch(
        new RegExp(
          `its directory says word/document\\.xml holds ${declared} bytes, its data inflates to \\d+`,
        ),
      );
    },
  );
});

describe('PDF streams are measured by inflating them', { timeout: 120_000 }, () => {
  it('a PDF whose page content inflates to 450 MiB fails with FILE_SIZE_TOO_LARGE before pdf.js reads it', async () => {
    const bytes = await bombPdf(450);
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    // Its reader process opens the document while the streams are measured, and reads no page
    // (no progress: the page count is reported before the first page is read).
    const progress: unknown[] = [];
    for (const limits of [{}, { workerHeapMb: 0 }]) {
      const result = await parseDocument(bytes, {
        fileName: 'bomb.pdf',
        limits,
        onProgress: (p) => progress.push(p),
      });
      expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
      expect(!result.ok && result.failureMessage).toMatch(
        /The PDF \(its compressed streams\) expands to more than/,
      );
    }
    expect(progress).toEqual([]);
    // The same drawing at a size a real page has reads.
    const small = await parseDocument(await bombPdf(0.05), { fileName: 'small.pdf' });
    expect(small.ok, !small.ok ? small.failureMessage : '').toBe(true);
  });

  it('a scan of ten pages, FlateDecode images that expand a thousand times, is no bomb', async () => {
    const bytes = await scanPdf(10);
    // 84 MB of pixels in about 90 KB: far past expansionRatio × size, as real scans are.
    expect(bytes.length).toBeLessThan(200 * 1024);
    expect(await measurePdf(bytes)).toBeUndefined();
  });

  it('an image that inflates past the dimensions its dictionary declares is a bomb', async () => {
    const message = await measurePdf(await scanPdf(1, 2550, 3300, 10));
    expect(message).toMatch(
      /^FILE_SIZE_TOO_LARGE: An image of the PDF inflates past the \d+ bytes/,
    );
  });
});

describe('tree-shaped inputs in linear time and bounded depth', { timeout: 120_000 }, () => {
  it('3 MB of HTML nested 300,000 <div>s deep reads as a flattened result (text kept past depth 128)', async () => {
    const depth = 300_000;
    const html = `<!doctype html><html><body><h1>Title</h1>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}<p>after</p></body></html>`;
    expect(html.length).toBeGreaterThan(3_000_000);
    const result = await parseDocument(new TextEncoder().encode(html), { fileName: 'deep.html' });
    if (!result.ok) throw new Error(result.failureMessage);
    expect(result.output.chunks.map((c) => c.content).join('\n')).toMatch(
      /Title[\s\S]*deep text[\s\S]*after/,
    );
  });

  it('markup within the depth limit is read exactly as before', async () => {
    const html = `<html><body>${'<div>'.repeat(100)}<h2>Inside</h2><ul><li>one<li>two</ul>${'</div>'.repeat(100)}</body></html>`;
    const result = await parseDocument(new TextEncoder().encode(html), { fileName: 'ok.html' });
    if (!result.ok) throw new Error(result.failureMessage);
    expect(result.output.chunks[0]?.content).toBe('## Inside\n\n- one\n\n- two');
  });

  it('a ragged HTML table counts its cells padded to its widest row against limits.maxCells', async () => {
    // 31 KB: one row of 3,000 cells over 1,000 rows of one, 3,003,000 cells once padded.
    const html = `<table><tr>${'<td>1</td>'.repeat(3000)}</tr>${'<tr><td>2</td></tr>'.repeat(1000)}</table>`;
    const result = await parseDocument(new TextEncoder().encode(html), { fileName: 'ragged.html' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(
      /padded to their widest \(limits\.maxCells\)/,
    );
    // The count is of the padded grid: 300 + 100 cells written, 30,300 once padded.
    const narrow = `<table><tr>${'<td>1</td>'.repeat(300)}</tr>${'<tr><td>2</td></tr>'.repeat(100)}</table>`;
    const parse = (maxCells: number) =>
      parseDocument(new TextEncoder().encode(narrow), { fileName: 'n.html', limits: { maxCells } });
    expect(await parse(30_299)).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    const read = await parse(30_300);
    if (!read.ok) throw new Error(read.failureMessage);
    const table = read.output.chunks[0]?.blocks.find((b) => b.type === 'table');
    expect(table?.details).toMatchObject({ rowCount: 101, columnCount: 300 });
  });

  it('an XLSX whose few cells lie on a diagonal counts its used rows × used columns against limits.maxCells', async () => {
    const column = (n: number): string =>
      n <= 26
        ? String.fromCharCode(64 + n)
        : column(Math.floor((n - 1) / 26)) + column(((n - 1) % 26) + 1);
    const diagonal = (n: number) =>
      makeRawXlsx(
        Array.from({ length: n }, (_, i) => [i + 1, [[`${column(i + 1)}${i + 1}`, 'x']]] as const),
      );
    // 2,000 cells, 4,000,000 once the sheet's table spans them.
    const wide = await parseDocument(diagonal(2000), { fileName: 'diagonal.xlsx' });
    expect(wide).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!wide.ok && wide.failureMessage).toMatch(/used rows × used columns/);
    const parse = (maxCells: number) =>
      parseDocument(diagonal(100), { fileName: 'd.xlsx', limits: { maxCells } });
    expect(await parse(9_999)).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect((await parse(10_000)).ok).toBe(true);
  });

  it('XML nested 300,000 elements deep fails with FILE_SIZE_TOO_LARGE, not INTERNAL_ERROR', async () => {
    const depth = 300_000;
    const xml = `<?xml version="1.0"?>${'<a>'.repeat(depth)}<v>x</v>${'</a>'.repeat(depth)}`;
    const result = await parseDocument(new TextEncoder().encode(xml), { fileName: 'deep.xml' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/more than 256 levels deep/);
    const fine = `<?xml version="1.0"?>${'<a>'.repeat(200)}<v>x</v>${'</a>'.repeat(200)}`;
    expect((await parseDocument(new TextEncoder().encode(fine), { fileName: 'ok.xml' })).ok).toBe(
      true,
    );
  });
});

afterAll(() => closeFormatReaders());

describe('parsers that hold the whole document run in a reader process with a bounded heap', {
  timeout: 120_000,
}, () => {
  it('a DOCX that needs more memory than limits.workerHeapMb ends its reader as FILE_SIZE_TOO_LARGE; the process goes on', async () => {
    const limits = { workerHeapMb: 96 };
    const small = await parseDocument(docxOf(paragraph('Invoice INV-1, total 10.00').repeat(50)), {
      limits,
    });
    expect(small.ok, !small.ok ? small.failureMessage : '').toBe(true);
    // About 40 MiB of honest XML (varied, so that it compresses as text does): within the
    // expansion limit of its size, beyond what its parser can hold in 96 MiB.
    const rows = Array.from({ length: 120_000 }, (_, i) =>
      paragraph(`Line ${i}: invoice INV-${i * 7919} for customer ${(i * 104729).toString(36)}`),
    );
    const large = await parseDocument(docxOf(rows.join('')), { limits });
    expect(large).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!large.ok && large.failureMessage).toMatch(/more than the 96 MiB of memory/);
    // This process is fine, and reads the next document.
    const after = await parseDocument(docxOf(paragraph('after').repeat(10)), { limits });
    expect(after.ok).toBe(true);
  });

  it("XML whose one text node is larger than the reader's whole heap ends the reader, not the process", async () => {
    // One allocation beyond the heap: a worker thread under resourceLimits aborted the whole
    // process on it (exit 134, nodejs/node#47224), since Node gives a thread only 16 MiB past its
    // limit to stop in. A reader process just dies of it. 60 MiB of text, a 32 MiB heap.
    const limits = { workerHeapMb: 32 };
    const encode = (text: string) => new TextEncoder().encode(text);
    const huge = encode(`<?xml version="1.0"?><doc><note>${'a'.repeat(60 << 20)}</note></doc>`);
    const result = await parseDocument(huge, { limits, fileName: 'note.xml' });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
    expect(!result.ok && result.failureMessage).toMatch(/XML file needed more than the 32 MiB/);
    const after = await parseDocument(encode('<doc><total>10.00</total></doc>'), {
      limits,
      fileName: 'after.xml',
    });
    expect(after.ok, !after.ok ? after.failureMessage : '').toBe(true);
    expect(after.ok && after.output.chunks[0]?.content).toMatch(/total: 10\.00/);
  });
});
