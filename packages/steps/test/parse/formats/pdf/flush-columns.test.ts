/**
 * Two columns set flush against each other (a letterhead right-aligned up to where the order's
 * labels start, as LibreOffice lays out an HTML table whose cell padding it drops): no gap sets
 * them apart, their baselines do. The PDF is built by the test.
 */
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildPieces } from '../../../../src/parse/formats/pdf/text-lines.ts';
import type { TextRun } from '../../../../src/parse/formats/pdf/text-runs.ts';
import { parseDocument } from '../../../../src/parse/parse-document.ts';
import { buildDocumentView } from '../../../../src/processors/view/build-view.ts';

/** The right edge the left column ends at and the right column starts from. */
const EDGE = 322.6;

async function flushColumnsPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595.28, 841.89]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const right = (text: string, y: number, size: number) =>
    page.drawText(text, { x: EDGE - font.widthOfTextAtSize(text, size), y, size, font });
  right('9 Elm Avenue', 750.29, 9.5);
  right('Portland, OR 97205', 739.19, 9.5);
  right('info@lakeside.example', 717.09, 9.5);
  page.drawText('Order Ref', { x: EDGE, y: 748.39, size: 10, font });
  page.drawText('PO534636', { x: 492, y: 748.39, size: 10, font });
  page.drawText('Raised on', { x: EDGE, y: 719.79, size: 10, font });
  page.drawText('3 November, 2024', { x: 450.7, y: 719.79, size: 10, font });
  page.drawText('A line of body text in one size, then more of it.', {
    x: 72,
    y: 600,
    size: 10,
    font,
  });
  return pdf.save();
}

const run = (text: string, left: number, right: number, baseline: number, size: number) =>
  ({
    text,
    box: { left, top: baseline - size * 0.8, right, bottom: baseline + size * 0.2 },
    baseline,
    size,
    bold: false,
    angle: 0,
  }) satisfies TextRun;

describe('columns set flush against each other', () => {
  it('cuts runs that touch but sit on other baselines, not runs of one baseline', () => {
    const pieces = buildPieces([
      run('9 Elm Avenue', 256.8, EDGE, 91.6, 9.5),
      run('Order Ref', EDGE, 370.9, 93.5, 10),
      run('Total', 72, 96, 200, 10),
      run('due', 99, 117, 200, 9.5),
    ]);
    expect(pieces.map((p) => p.text)).toEqual(['9 Elm Avenue', 'Order Ref', 'Total due']);
  });

  it('reads the letterhead and the labels beside it apart in a PDF', async () => {
    const result = await parseDocument(await flushColumnsPdf(), {
      fileName: 'order.pdf',
      config: {},
    });
    if (!result.ok) throw new Error(result.failureMessage);
    const text = result.output.chunks.map((c) => c.content).join('\n');
    expect(text).not.toMatch(/AvenueOrder|exampleRaised/);
    expect(text).toContain('A line of body text in one size, then more of it.');
    // The view the offline processors read keeps them in cells of one row.
    const lines = buildDocumentView([{ output: result.output }]).pages.flatMap((p) =>
      p.lines.map((l) => l.text),
    );
    expect(lines).toContain('9 Elm Avenue    Order Ref    PO534636');
  });
});
