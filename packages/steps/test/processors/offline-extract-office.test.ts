/**
 * Offline extraction through the whole path (PARSE, document view, extraction) on office files
 * laid out as documents, as spreadsheet and word-processor users write them: a purchase order
 * down the columns of a sheet, an invoice whose letterhead is the page header. Inputs are made by
 * the tests with exceljs and docx.
 */
import { Document, Header, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = { type: ['string', 'null'] };
const num = { type: ['number', 'null'] };

async function extract(bytes: Uint8Array, properties: Record<string, unknown>) {
  const result = await parseDocument(bytes, {
    config: { advancedOptions: { excelSkipCalculation: false } },
  });
  if (!result.ok) throw new Error(result.failureMessage);
  const view = buildDocumentView([{ output: result.output }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('sheets laid out as documents', { timeout: 30_000 }, () => {
  it("reads a total whose figure sits one column right of the items' last column", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sheet');
    sheet.getCell('A1').value = 'Initech Textiles LLC';
    sheet.getCell('A3').value = 'PURCHASE ORDER';
    sheet.getCell('A4').value = 'Order No.: 4551476225';
    ['Description', 'Quantity', 'Unit Rate', 'Line Amount'].forEach((text, i) => {
      sheet.getCell(6, i + 1).value = text;
    });
    const items: [string, number, number][] = [
      ['LED panel light 60x60', 2, 202.72],
      ['Translation services', 14, 272.21],
    ];
    items.forEach(([what, qty, rate], i) => {
      const row = 7 + i;
      sheet.getCell(row, 1).value = what;
      sheet.getCell(row, 2).value = qty;
      sheet.getCell(row, 3).value = rate;
      sheet.getCell(row, 4).value = { formula: `B${row}*C${row}`, result: undefined as never };
    });
    // The total's label under the amounts, its figure in a column no header names.
    sheet.getCell('D9').value = 'PO Total';
    sheet.getCell('E9').value = '£4,216.38';
    sheet.getCell('A11').value = 'Authorized by: Olumide Rahman';
    const bytes = new Uint8Array(await book.xlsx.writeBuffer());
    const value = await extract(bytes, {
      po_number: str,
      total: num,
      line_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: { description: str, quantity: num, unit_price: num, amount: num },
        },
      },
    });
    expect(value).toEqual({
      po_number: '4551476225',
      total: 4216.38,
      line_items: [
        { description: 'LED panel light 60x60', quantity: 2, unit_price: 202.72, amount: 405.44 },
        { description: 'Translation services', quantity: 14, unit_price: 272.21, amount: 3810.94 },
      ],
    });
  });
});

describe('word-processor letterheads', { timeout: 30_000 }, () => {
  it('reads the issuer from a letterhead in the page header', async () => {
    const doc = new Document({
      sections: [
        {
          headers: {
            default: new Header({
              children: [
                new Paragraph('Orchard & Vale Consulting Ltd'),
                new Paragraph('14 Quay Street, Bristol BS1 4DJ'),
              ],
            }),
          },
          children: [
            new Paragraph('INVOICE'),
            new Paragraph('Invoice No.: OV-2024-17'),
            new Paragraph('Bill To: Fjord Outdoor Oy'),
            new Paragraph('Total: 1,500.00'),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(doc));
    const value = await extract(bytes, {
      invoice_number: str,
      vendor_name: str,
      customer_name: str,
      total: num,
    });
    expect(value).toEqual({
      invoice_number: 'OV-2024-17',
      vendor_name: 'Orchard & Vale Consulting Ltd',
      customer_name: 'Fjord Outdoor Oy',
      total: 1500,
    });
  });
});
