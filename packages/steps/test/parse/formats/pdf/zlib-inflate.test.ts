import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadPdfJs } from '../../../../src/parse/formats/pdf/pdfjs.ts';
import { openPdf } from '../../../../src/parse/formats/pdf/scan-page.ts';
import { forgetInflated, inflatedByPdfJs } from '../../../../src/parse/formats/pdf/zlib-inflate.ts';
import { flateTextPdf, flateTextStream } from '../../../fixtures/parse/make-bombs.ts';

/** The text of page 1 as pdf.js reads it. */
async function pageText(bytes: Uint8Array): Promise<string> {
  await loadPdfJs();
  const task = await openPdf(bytes);
  try {
    const page = await (await task.promise).getPage(1);
    const content = await page.getTextContent();
    return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  } finally {
    await task.destroy();
  }
}

describe('FlateDecode through zlib', () => {
  const lines = ['Invoice INV-7', 'Net 10.00', 'Total 12.50'];

  it("inflates pdf.js's content stream with zlib and keeps the result for the page's own reading", async () => {
    forgetInflated();
    const text = await pageText(flateTextPdf(lines));
    expect(text).toContain('Invoice INV-7');
    expect(text).toContain('Total 12.50');
    const stream = flateTextStream(lines);
    const kept = inflatedByPdfJs(stream);
    expect(kept && Buffer.from(kept).equals(inflateSync(stream))).toBe(true);
    // Other bytes of the same length are not taken for it.
    const other = stream.slice();
    other[other.length - 5] = (other.at(-5) ?? 0) ^ 1;
    expect(inflatedByPdfJs(other)).toBeUndefined();
    forgetInflated();
    expect(inflatedByPdfJs(stream)).toBeUndefined();
  });

  it('leaves a stream zlib refuses to pdf.js, which reads the lines before the cut', async () => {
    forgetInflated();
    const text = await pageText(flateTextPdf(lines, true));
    expect(text).toContain('Invoice INV-7');
    const stream = flateTextStream(lines);
    expect(inflatedByPdfJs(stream.subarray(0, stream.length - 8))).toBeUndefined();
  });
});
