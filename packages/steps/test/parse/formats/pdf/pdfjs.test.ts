import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderPdfPage } from '../../../../src/parse/formats/pdf/render-page.ts';
import { openPdf } from '../../../../src/parse/formats/pdf/scan-page.ts';
import { makeLigaturePdf, makeType1Pdf } from '../../../fixtures/parse/make-font-pdf.ts';

const SCAN_PAGE = fileURLToPath(
  new URL('../../../../src/parse/formats/pdf/scan-page.ts', import.meta.url),
);
const MAKE_PDF = fileURLToPath(new URL('../../../fixtures/parse/make-pdf.ts', import.meta.url));

describe('loadPdfJs', () => {
  it('changes no global: builtins stay native, no worker hook, DecompressionStream kept but unused', {
    timeout: 30_000,
  }, () => {
    // A fresh process: builtins are per process, and other test files load pdf.js too.
    const script = `
        const natives = [Array.prototype.push, JSON.parse, JSON.stringify];
        // The application's DecompressionStream, counting its uses.
        let constructed = 0;
        const Native = globalThis.DecompressionStream;
        class Counting extends Native { constructor(format) { super(format); constructed++; } }
        globalThis.DecompressionStream = Counting;
        const { openPdf } = await import(${JSON.stringify(SCAN_PAGE)});
        const { makeReportPdf } = await import(${JSON.stringify(MAKE_PDF)});
        const { bytes } = await makeReportPdf({ pages: 2, tableRows: 3 });
        const task = await openPdf(bytes);
        const doc = await task.promise;
        const page = await doc.getPage(1);
        const text = await page.getTextContent();
        await task.destroy();
        const corrupt = await (await openPdf(new Uint8Array(0))).promise.catch(() => null);
        const now = [Array.prototype.push, JSON.parse, JSON.stringify];
        console.log(JSON.stringify({
          native: now.map((f, i) => f === natives[i]),
          workerHook: 'pdfjsWorker' in globalThis,
          decompressionStream: globalThis.DecompressionStream === Counting,
          constructed,
          pages: doc.numPages,
          read: text.items.some((item) => item.str.includes('Page 1')),
          corrupt,
        }));
      `;
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out.trim().split('\n').pop() ?? '')).toEqual({
      native: [true, true, true],
      workerHook: false,
      decompressionStream: true,
      constructed: 0,
      pages: 2,
      read: true,
      corrupt: null,
    });
  });
});

/** The text of page 1 and the dark pixels of its rendering at 72 dpi (one pixel a point). */
async function readAndDraw(bytes: Uint8Array): Promise<{ text: string; dark: number }> {
  const task = await openPdf(bytes);
  try {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    const { image } = await renderPdfPage(doc, 1, 72);
    let dark = 0;
    for (const value of image.data) if (value < 128) dark++;
    return { text, dark };
  } finally {
    await task.destroy();
  }
}

describe('embedded fonts, their files made on first use', () => {
  it('reads a Type1 font by its program and draws its glyphs from the file made when drawing', async () => {
    // One glyph, a 300 x 700 unit box: at 40 pt, 12 x 28 pixels for each of the three.
    const { text, dark } = await readAndDraw(await makeType1Pdf('AAA'));
    expect(text).toBe('AAA');
    expect(dark).toBeGreaterThanOrEqual(3 * 11 * 27);
    expect(dark).toBeLessThanOrEqual(3 * 13 * 29);
  });

  it('draws the glyphs of a CFF font whose text was read first', async () => {
    const { text, dark } = await readAndDraw(await makeLigaturePdf(['Drawn in full']));
    expect(text).toBe('Drawn in full');
    expect(dark).toBeGreaterThan(100);
  });
});
