import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import type { Block, ParseRunOutput } from '../../src/parse/parse-output.ts';
import { makeLigaturePdf, makeSpacedPdf } from '../fixtures/parse/make-font-pdf.ts';
import {
  makeEncryptedPdf,
  makeFormPdf,
  makeReportPdf,
  makeZeroPagePdf,
  type ReportPageTruth,
} from '../fixtures/parse/make-pdf.ts';
import { tableCellAccuracy, wordRecall } from './metrics.ts';

async function parsed(bytes: Uint8Array, config = {}): Promise<ParseRunOutput> {
  const result = await parseDocument(bytes, { fileName: 'report.pdf', config });
  if (!result.ok) throw new Error(`${result.failureReason}: ${result.failureMessage}`);
  return result.output;
}

function pageText(truth: ReportPageTruth): string {
  return [truth.heading, ...truth.paragraphs, ...truth.table.flat()].join(' ');
}

function cellsOf(blocks: readonly Block[], table: Block): string[][] {
  const grid: string[][] = [];
  for (const block of blocks) {
    if (block.parentBlockId !== table.id || block.details.type !== 'table_cell_details') continue;
    const row = grid[block.details.rowIndex] ?? [];
    row[block.details.columnIndex] = block.content;
    grid[block.details.rowIndex] = row;
  }
  return grid;
}

describe('PDF (born-digital)', { timeout: 60_000 }, () => {
  let report: { bytes: Uint8Array; truth: ReportPageTruth[] };
  let output: ParseRunOutput;
  beforeAll(async () => {
    report = await makeReportPdf({ pages: 4, rotatedPages: [2], turnedTextPages: [3] });
    output = await parsed(report.bytes);
  }, 60_000);

  it('recalls every word of every page, one page chunk each', () => {
    expect(output.chunks).toHaveLength(4);
    output.chunks.forEach((chunk, index) => {
      const truth = report.truth[index];
      if (!truth) throw new Error('missing truth');
      expect(chunk.metadata.pageRange).toEqual({ start: index + 1, end: index + 1 });
      expect(wordRecall(pageText(truth), chunk.content)).toBe(1);
    });
  });

  it('reads the heading, the paragraphs and the table in order, in markdown', () => {
    const truth = report.truth[0];
    const content = output.chunks[0]?.content ?? '';
    expect(content.startsWith(`# ${truth?.heading}`)).toBe(true);
    const order = [
      truth?.paragraphs[0],
      truth?.paragraphs[2],
      '| Item | Region | Qty | Price | Total |',
    ];
    const positions = order.map((text) => content.indexOf(text ?? '?'));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('turns ruled tables into table and table_cell blocks with every cell right', () => {
    output.chunks.forEach((chunk, index) => {
      const tables = chunk.blocks.filter((block) => block.type === 'table');
      expect(tables).toHaveLength(1);
      const table = tables[0] as Block;
      const truth = report.truth[index]?.table ?? [];
      expect(table.details).toEqual({
        type: 'table_details',
        rowCount: truth.length,
        columnCount: 5,
      });
      expect(tableCellAccuracy(truth, cellsOf(chunk.blocks, table))).toBe(1);
    });
  });

  it('keeps every block inside its page, in points, with a matching polygon', () => {
    for (const chunk of output.chunks) {
      for (const block of chunk.blocks) {
        const page = block.metadata.page;
        const box = block.boundingBox;
        if (!page || !box) throw new Error(`block ${block.id} has no geometry`);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.top).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(page.width);
        expect(box.bottom).toBeLessThanOrEqual(page.height);
        expect(box.right).toBeGreaterThanOrEqual(box.left);
        expect(block.polygon).toHaveLength(4);
      }
    }
  });

  it('puts rotated pages upright: /Rotate and turned text', () => {
    const pages = output.metadata?.pages ?? [];
    // Page 2's /Rotate makes it read upright in a viewer (nothing to turn); page 3's text runs
    // up the page, turned 90° clockwise to read.
    expect(pages.map((page) => page.rotationApplied)).toEqual([0, 0, 90, 0]);
    expect(pages[1]).toMatchObject({ originalPageWidth: 612, originalPageHeight: 792, dpi: 72 });
    expect(pages[2]).toMatchObject({ originalPageWidth: 792, originalPageHeight: 612, dpi: 72 });
    for (const index of [1, 2]) {
      const chunk = output.chunks[index];
      const heading = chunk?.blocks[0];
      // Upright: portrait page, heading near the top left, as on page 1.
      expect(heading?.metadata.page).toMatchObject({ width: 612, height: 792 });
      expect(heading?.boundingBox?.left).toBeCloseTo(72, 0);
      expect(heading?.boundingBox?.top).toBeLessThan(100);
      expect(heading?.content).toBe(report.truth[index]?.heading);
    }
  });

  it('turns a page /Rotate 90 shows sideways upright, and says so', async () => {
    // An upright page given /Rotate 90 (qpdf --rotate=+90): a viewer shows it landscape, its text
    // running down the page; docflow turns it 270° clockwise so that the text reads again.
    const sideways = await makeReportPdf({ pages: 2, sidewaysPages: [2] });
    const out = await parsed(sideways.bytes);
    expect(out.metadata?.pages?.[1]).toEqual({
      number: 2,
      rotationApplied: 270,
      originalPageWidth: 792,
      originalPageHeight: 612,
      dpi: 72,
    });
    const heading = out.chunks[1]?.blocks[0];
    expect(heading?.content).toBe(sideways.truth[1]?.heading);
    expect(heading?.metadata.page).toMatchObject({ width: 612, height: 792 });
    // Coordinates in the upright frame: where the upright page 1 has its heading.
    const first = out.chunks[0]?.blocks[0]?.boundingBox;
    expect(heading?.boundingBox?.left).toBeCloseTo(first?.left ?? -1, 0);
    expect(heading?.boundingBox?.top).toBeCloseTo(first?.top ?? -1, 0);
  });

  it('reports rotationApplied null when rotation detection is disabled', async () => {
    const out = await parsed(report.bytes, { advancedOptions: { pageRotationEnabled: false } });
    expect(out.metadata?.pages?.map((page) => page.rotationApplied)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('honours page ranges', async () => {
    const out = await parsed(report.bytes, {
      advancedOptions: { pageRanges: [{ start: 2, end: 2 }, { start: 4 }] },
    });
    expect(out.chunks.map((chunk) => chunk.metadata.pageRange.start)).toEqual([2, 4]);
    expect(out.metadata?.pages?.map((page) => page.number)).toEqual([2, 4]);
  });

  it('chunks by document and by section', async () => {
    const whole = await parsed(report.bytes, { chunkingStrategy: { type: 'document' } });
    expect(whole.chunks).toHaveLength(1);
    expect(whole.chunks[0]?.metadata.pageRange).toEqual({ start: 1, end: 4 });
    const sections = await parsed(report.bytes, { chunkingStrategy: { type: 'section' } });
    expect(sections.chunks.map((chunk) => chunk.content.split('\n')[0])).toEqual(
      report.truth.map((truth) => `# ${truth.heading}`),
    );
    expect(sections.chunks.every((chunk) => chunk.type === 'section')).toBe(true);
  });

  it('lays text out in fixed width for the spatial target', async () => {
    const out = await parsed(report.bytes, { target: 'spatial' });
    const lines = out.chunks[0]?.content.split('\n') ?? [];
    const header = lines.find((line) => line.includes('Item') && line.includes('Total')) ?? '';
    const row = lines.find((line) => line.includes('SKU-1-1')) ?? '';
    // Columns line up: "Total" and the row's total start at the same column.
    expect(header.indexOf('Total')).toBeGreaterThan(0);
    expect(
      Math.abs(header.indexOf('Total') - row.indexOf(report.truth[0]?.table[1]?.[4] ?? '?')),
    ).toBeLessThanOrEqual(2);
  });

  it('reads AcroForm fields as key_value blocks', async () => {
    const out = await parsed(await makeFormPdf());
    const fields = out.chunks[0]?.blocks.filter((block) => block.type === 'key_value') ?? [];
    expect(fields.map((field) => field.details)).toEqual([
      { type: 'key_value_details', key: 'applicant.name', value: 'Ada Lovelace' },
      { type: 'key_value_details', key: 'terms.accepted', value: 'checked' },
    ]);
    expect(out.chunks[0]?.blocks.some((block) => block.type === 'table')).toBe(false);
  });
});

describe('PDF failures', { timeout: 60_000 }, () => {
  it.each([
    ['an encrypted PDF', () => makeEncryptedPdf(), 'PASSWORD_PROTECTED_FILE'],
    ['a truncated PDF', async () => (await makeFormPdf()).subarray(0, 900), 'CORRUPT_FILE'],
    [
      'a PDF header and garbage',
      () => new TextEncoder().encode('%PDF-1.7\n\x01\x02garbage'),
      'CORRUPT_FILE',
    ],
    ['a PDF with zero pages', () => makeZeroPagePdf(), 'CORRUPT_FILE'],
  ])('%s fails with %s', async (_label, make, reason) => {
    const result = await parseDocument(await make());
    expect(result).toMatchObject({ ok: false, failureReason: reason });
    expect(!result.ok && result.failureMessage.length).toBeGreaterThan(20);
  });

  it('fails page ranges that select nothing, and selections above the page limit', async () => {
    const { bytes } = await makeReportPdf({ pages: 3 });
    const none = await parseDocument(bytes, {
      config: { advancedOptions: { pageRanges: [{ start: 10, end: 12 }] } },
    });
    expect(none).toMatchObject({ ok: false, failureReason: 'INVALID_CONFIG_OPTIONS' });
    const many = await parseDocument(bytes, { limits: { maxPages: 2 } });
    expect(many).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
  });
});

describe('PDF layout', { timeout: 60_000 }, () => {
  it('reads two columns one after the other, bullets as a list, images as figures', async () => {
    const { TINY_PNG } = await import('../fixtures/parse/make-office.ts');
    const { LAYOUT_TRUTH, makeLayoutPdf } = await import('../fixtures/parse/make-pdf.ts');
    const out = await parsed(await makeLayoutPdf(TINY_PNG));
    const content = out.chunks[0]?.content ?? '';
    const t = LAYOUT_TRUTH;
    expect(content.startsWith(`# ${t.title}`)).toBe(true);
    // The left column's paragraph comes whole before the right column's.
    expect(content).toContain(t.left.join(' '));
    expect(content).toContain(t.right.join(' '));
    expect(content.indexOf(t.left[2])).toBeLessThan(content.indexOf(t.right[0]));
    for (const bullet of t.bullets) expect(content).toContain(`- ${bullet}`);
    // A bold body-size line is a sub-heading, one level below the 20 pt title.
    expect(content).toContain(`## ${t.subheading}\n\n- ${t.bullets[0]}`);
    const figure = out.chunks[0]?.blocks.find((block) => block.type === 'figure');
    expect(figure?.details).toEqual({ type: 'figure_details', figureType: 'image' });
    // Drawn at x 72..272, y 300..450 from the bottom: top-left origin puts it at 342..492.
    expect(figure?.boundingBox).toEqual({ left: 72, top: 342, right: 272, bottom: 492 });
  });
});

describe('PDF engines', { timeout: 60_000 }, () => {
  it('parse_light reads text without rules: no tables, half the credits', async () => {
    const { bytes, truth } = await makeReportPdf({ pages: 2 });
    const result = await parseDocument(bytes, { config: { engine: 'parse_light' } });
    if (!result.ok) throw new Error(result.failureMessage);
    expect(result.usage).toEqual({ credits: 1, pages: 2 });
    const chunk = result.output.chunks[0];
    expect(chunk?.blocks.some((block) => block.type === 'table')).toBe(false);
    expect(wordRecall(pageText(truth[0] as ReportPageTruth), chunk?.content ?? '')).toBe(1);
  });

  it('parse_auto reads rules on pages with table columns and bills by complexity', async () => {
    const { bytes } = await makeReportPdf({ pages: 2 });
    const { TINY_PNG } = await import('../fixtures/parse/make-office.ts');
    const { makeLayoutPdf } = await import('../fixtures/parse/make-pdf.ts');
    const tables = await parseDocument(bytes, { config: { engine: 'parse_auto' } });
    if (!tables.ok) throw new Error(tables.failureMessage);
    expect(
      tables.output.chunks.map((c) => c.blocks.filter((b) => b.type === 'table').length),
    ).toEqual([1, 1]);
    expect(tables.usage.credits).toBe(2);
    const prose = await parseDocument(await makeLayoutPdf(TINY_PNG), {
      config: { engine: 'parse_auto' },
    });
    if (!prose.ok) throw new Error(prose.failureMessage);
    expect(prose.usage.credits).toBe(0.5);
  });
});

describe('PDF documents at once', { timeout: 60_000 }, () => {
  it('parses documents concurrently in one thread as it does one at a time, an abort touching only its own', async () => {
    // One pdf.js worker half serves every document a thread opens (pdfjs.ts).
    const report = (await makeReportPdf({ pages: 3, rotatedPages: [2] })).bytes;
    const form = await makeFormPdf();
    const alone = [await parsed(report), await parsed(form)];
    const controller = new AbortController();
    const doomed = parseDocument(report, { fileName: 'a.pdf', signal: controller.signal });
    const together = Promise.all([
      parsed(report),
      parsed(form),
      parsed(report, { engine: 'parse_light' }),
    ]);
    controller.abort(new Error('stop'));
    await expect(doomed).rejects.toThrow('stop');
    const [first, second, light] = await together;
    const strip = (output: ParseRunOutput) => JSON.stringify(output.chunks);
    expect(strip(first as ParseRunOutput)).toBe(strip(alone[0] as ParseRunOutput));
    expect(strip(second as ParseRunOutput)).toBe(strip(alone[1] as ParseRunOutput));
    expect((light as ParseRunOutput).chunks).toHaveLength(3);
  });
});

describe('PDF text decoding', () => {
  it("decodes ligatures a partial ToUnicode leaves out from the font's glyph names", async () => {
    // Codes 0xAE and 0xAF are the fi and fl glyphs of the font's built-in encoding; its
    // ToUnicode maps only the letters (as TeX's dvipdfmx writes it).
    const bytes = await makeLigaturePdf(['The \\256le was \\257agged', 'Speci\\256ed \\257ow']);
    const out = await parsed(bytes);
    expect(out.chunks[0]?.content).toBe('The file was flagged Specified flow');
  });

  it('reads letter-spaced text as words (character spacing is no word space)', async () => {
    const bytes = await makeSpacedPdf([
      ['LUMIERE CATERING S.A.', 2.5],
      ['Tight tracking stays readable', -0.3],
      ['Plain words', 0],
    ]);
    const out = await parsed(bytes);
    expect(out.chunks[0]?.content.split('\n').filter((l) => l !== '')).toEqual([
      'LUMIERE CATERING S.A.',
      'Tight tracking stays readable',
      'Plain words',
    ]);
  });

  it('never emits control characters, whatever codes a font leaves unmapped', async () => {
    // Codes 0x01, 0x08 and 0x1C have no glyph name and no ToUnicode entry.
    const bytes = await makeLigaturePdf(['Total\\001 due\\010 now\\034']);
    const out = await parsed(bytes);
    expect(out.chunks[0]?.content).toBe('Total due now');
    expect(JSON.stringify(out)).not.toMatch(/\\u00(0[0-8bcef]|1[0-9a-f])/);
  });
});
