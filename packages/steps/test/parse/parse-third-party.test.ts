import { readFileSync } from 'node:fs';
import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import type { Block, ParseRunOutput } from '../../src/parse/parse-output.ts';

/** PDFs LibreOffice, Chromium and Ghostscript made (fixtures/third-party/README.md says how). */
function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/third-party/${name}`, import.meta.url)));
}

async function parsed(bytes: Uint8Array): Promise<ParseRunOutput> {
  const result = await parseDocument(bytes, { fileName: 'third-party.pdf' });
  if (!result.ok) throw new Error(`${result.failureReason}: ${result.failureMessage}`);
  return result.output;
}

function blocks(output: ParseRunOutput): Block[] {
  return output.chunks.flatMap((chunk) => chunk.blocks);
}

function tables(output: ParseRunOutput): string[][][] {
  const all = blocks(output);
  return all
    .filter((block) => block.type === 'table')
    .map((table) => {
      const grid: string[][] = [];
      for (const cell of all) {
        if (cell.parentBlockId !== table.id || cell.details.type !== 'table_cell_details') continue;
        const row = grid[cell.details.rowIndex] ?? [];
        row[cell.details.columnIndex] = cell.content;
        grid[cell.details.rowIndex] = row;
      }
      return grid;
    });
}

describe('PDFs other software made', { timeout: 60_000 }, () => {
  it('reads a LibreOffice invoice line by line: fields, address, table header, total, code', async () => {
    const output = await parsed(fixture('libreoffice-invoice.pdf'));
    const markdown = output.chunks.map((chunk) => chunk.content).join('\n');
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Hooli Cloud Services');
    // Four label/value lines stay four lines, as pdftotext reads them.
    for (const line of [
      'Invoice Number: INV-1042',
      'Invoice Date: 2026-03-14',
      'Due Date: 2026-04-13',
      'PO Number: PO-8806',
      'Dr. Maria Lopez',
      '12 Harbour Street',
    ]) {
      expect(lines).toContain(line);
    }
    // pdf.js gives the header row as one text item across three cells: each cell gets its word.
    expect(tables(output)).toEqual([
      [
        ['Description', 'Qty', 'Amount'],
        ['Widget', '2', '10.00'],
        ['Gadget', '1', '2.50'],
      ],
    ]);
    // A bold total is a line of text with its value, not a heading.
    expect(lines).toContain('TOTAL 12.50');
    expect(blocks(output).find((b) => b.content === 'TOTAL 12.50')?.type).toBe('text');
    // A code listing (a fixed-pitch font) keeps its lines; `#` does not start a heading.
    expect(markdown).toContain(
      '\\# configure the client\nexport TOKEN=abc\n\\# run it\nclient --fetch',
    );
    expect(markdown).toContain(
      'flat fee applies to every file we find afflicted by official fiddly flows',
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
  });

  it('keeps a bold total of a Chromium invoice a line of text with its value, not a heading', async () => {
    const output = await parsed(fixture('chromium-invoice.pdf'));
    const markdown = output.chunks.map((chunk) => chunk.content).join('\n');
    const lines = markdown.split('\n');
    expect(lines[0]).toBe('# Initech Supplies');
    expect(lines).toContain('TOTAL 60.50');
    expect(markdown).not.toMatch(/^#+ TOTAL/m);
    for (const line of [
      'Invoice Number: INV-7731',
      'Due Date: 2026-06-01',
      'Dear Dr. Maria Lopez,',
    ]) {
      expect(lines).toContain(line);
    }
    expect(tables(output)).toEqual([
      [
        ['Description', 'Qty', 'Amount'],
        ['Paper', '3', '12.00'],
        ['Toner', '1', '48.50'],
      ],
    ]);
  });

  it('turns the LibreOffice page upright when /Rotate 90 shows it sideways, and says so', async () => {
    const upright = await parsed(fixture('libreoffice-invoice.pdf'));
    const doc = await PDFDocument.load(fixture('libreoffice-invoice.pdf'));
    doc.getPage(0).setRotation(degrees(90));
    const sideways = await parsed(await doc.save());
    // A4 as a viewer shows it: landscape; docflow turned it 270° clockwise to read it.
    expect(sideways.metadata?.pages?.[0]).toMatchObject({
      rotationApplied: 270,
      originalPageWidth: 841.89,
      originalPageHeight: 595.3,
    });
    expect(upright.metadata?.pages?.[0]).toMatchObject({
      rotationApplied: 0,
      originalPageWidth: 595.3,
      originalPageHeight: 841.89,
    });
    expect(sideways.chunks[0]?.content).toBe(upright.chunks[0]?.content);
  });

  it("leaves a plot's grid, axis breaks and a flowchart out of the tables (Ghostscript)", async () => {
    const output = await parsed(fixture('ghostscript-figures.pdf'));
    expect(tables(output)).toEqual([
      [
        ['Item', 'Qty', 'Price'],
        ['Bolt', '4', '0.25'],
        ['Nut', '9', '0.10'],
      ],
    ]);
    // The figures' text stays in the flow.
    const text = output.chunks.map((chunk) => chunk.content).join(' ');
    for (const word of ['(3,5)', 'Start', 'Stop', 'Estimate', 'Check', 'input']) {
      expect(text).toContain(word);
    }
  });
});
