import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { DraftBlock, DraftDocument } from '../../../src/parse/draft-document.ts';
import { DEFAULT_PARSE_LIMITS, type FormatContext } from '../../../src/parse/format-context.ts';
import { parseXlsx } from '../../../src/parse/formats/parse-xlsx.ts';
import { parseDocument } from '../../../src/parse/parse-document.ts';
import type { ParseConfig, TableCellDetails } from '../../../src/parse/parse-output.ts';
import { resolveParseConfig } from '../../../src/parse/resolve-parse-config.ts';
import { makeXlsx } from '../../fixtures/parse/make-office.ts';
import { makeRawSheetXlsx, makeRawXlsx } from '../../fixtures/parse/make-raw-xlsx.ts';

const ADVANCED: ParseConfig = {
  advancedOptions: {
    excelParsingMode: 'advanced',
    excelIncludeCellMetadata: true,
    excelIncludeCellFormatting: true,
  },
};

function context(config: ParseConfig = {}): FormatContext {
  const resolved = resolveParseConfig(config);
  if (!resolved.ok) throw new Error(resolved.issues.join('; '));
  return {
    config: resolved.config,
    limits: DEFAULT_PARSE_LIMITS,
    signal: new AbortController().signal,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    fileName: 'book.xlsx',
    pdfWorkers: 'auto',
  };
}

function table(draft: DraftDocument, sheet = 0): DraftBlock | undefined {
  return draft.units[sheet]?.blocks.find((block) => block.type === 'table');
}

function cellDetails(block: DraftBlock | undefined): TableCellDetails[] {
  return [...(block?.cells?.details ?? [])];
}

/** Row 2 and column B are empty; texts need markdown escaping. */
async function makeGappyXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Gaps');
  sheet.getCell('A1').value = 'Name';
  sheet.getCell('C1').value = 'Note';
  sheet.getCell('A3').value = 'a|b';
  sheet.getCell('C3').value = 'line one\nline two';
  sheet.getCell('D4').value = 7;
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('parseXlsx', () => {
  it('leaves out empty rows and columns and writes the sheet as a markdown table', async () => {
    const draft = await parseXlsx(await makeGappyXlsx(), context(ADVANCED));
    const block = table(draft);
    expect(block?.content).toBe(
      [
        '| Name | Note |  |',
        '| --- | --- | --- |',
        '| a\\|b | line one line two |  |',
        '|  |  | 7 |',
      ].join('\n'),
    );
    expect(block?.details).toEqual({ type: 'table_details', rowCount: 3, columnCount: 3 });
    expect(cellDetails(block).map((d) => [d.cellReference, d.rowIndex, d.columnIndex])).toEqual([
      ['A1', 0, 0],
      ['C1', 0, 1],
      ['A3', 1, 0],
      ['C3', 1, 1],
      ['D4', 2, 2],
    ]);
  });

  it('orders rows by number even when the sheet lists them out of order', async () => {
    const bytes = makeRawXlsx([
      [3, [['A3', 'third']]],
      [
        1,
        [
          ['A1', 'first'],
          ['B1', 'head'],
        ],
      ],
      [2, [['B2', 'second']]],
    ]);
    const draft = await parseXlsx(bytes, context(ADVANCED));
    const block = table(draft);
    expect(block?.content).toBe(
      ['| first | head |', '| --- | --- |', '|  | second |', '| third |  |'].join('\n'),
    );
    const byRef = new Map(cellDetails(block).map((d) => [d.cellReference, d]));
    expect(byRef.get('A3')).toMatchObject({ rowIndex: 2, columnIndex: 0 });
    expect(byRef.get('B2')).toMatchObject({ rowIndex: 1, columnIndex: 1 });
  });

  it('reads a workbook handed over as a view into a larger buffer', async () => {
    const bytes = await makeXlsx();
    const larger = new Uint8Array(bytes.length + 64).fill(0x5a);
    larger.set(bytes, 32);
    const view = larger.subarray(32, 32 + bytes.length);
    const draft = await parseXlsx(view, context());
    expect(draft).toEqual(await parseXlsx(bytes, context()));
    expect(table(draft)?.content).toContain('| North | $1,234.50 |');
  });

  it('shares one frozen formatting object between cells of the same style', async () => {
    const draft = await parseXlsx(await makeXlsx(), context(ADVANCED));
    const header = cellDetails(table(draft)).filter((d) => d.rowIndex === 0);
    expect(header.length).toBeGreaterThan(2);
    const [first, ...rest] = header.map((d) => d.formatting);
    expect(first).toEqual({ bold: true });
    for (const formatting of rest) expect(formatting).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});

describe('parseXlsx cell details', () => {
  const advanced = (metadata: boolean, formatting: boolean): ParseConfig => ({
    advancedOptions: {
      excelParsingMode: 'advanced',
      excelIncludeCellMetadata: metadata,
      excelIncludeCellFormatting: formatting,
    },
  });

  it.each([
    [
      'metadata and formatting',
      advanced(true, true),
      [
        {
          type: 'table_cell_details',
          rowIndex: 0,
          columnIndex: 0,
          cellReference: 'A1',
          formatting: { bold: true },
        },
        {
          type: 'table_cell_details',
          rowIndex: 1,
          columnIndex: 0,
          cellReference: 'A2',
          formatting: { backgroundColor: '#FFFF00' },
        },
        { type: 'table_cell_details', rowIndex: 1, columnIndex: 1, cellReference: 'B2' },
        {
          type: 'table_cell_details',
          rowIndex: 1,
          columnIndex: 4,
          cellReference: 'E2',
          formula: '=B2*2',
        },
      ],
    ],
    [
      'metadata only',
      advanced(true, false),
      [
        { type: 'table_cell_details', rowIndex: 0, columnIndex: 0, cellReference: 'A1' },
        { type: 'table_cell_details', rowIndex: 1, columnIndex: 0, cellReference: 'A2' },
        { type: 'table_cell_details', rowIndex: 1, columnIndex: 1, cellReference: 'B2' },
        {
          type: 'table_cell_details',
          rowIndex: 1,
          columnIndex: 4,
          cellReference: 'E2',
          formula: '=B2*2',
        },
      ],
    ],
    [
      'formatting only',
      advanced(false, true),
      [
        { type: 'table_cell_details', rowIndex: 0, columnIndex: 0, formatting: { bold: true } },
        {
          type: 'table_cell_details',
          rowIndex: 1,
          columnIndex: 0,
          formatting: { backgroundColor: '#FFFF00' },
        },
        { type: 'table_cell_details', rowIndex: 1, columnIndex: 1 },
        { type: 'table_cell_details', rowIndex: 1, columnIndex: 4 },
      ],
    ],
  ] as const)(
    'holds exactly the fields asked for, in the interface order (%s)',
    async (_label, config, expected) => {
      const draft = await parseXlsx(await makeXlsx(), context(config));
      const details = cellDetails(table(draft));
      const picked = [
        details.find((d) => d.rowIndex === 0 && d.columnIndex === 0),
        details.find((d) => d.rowIndex === 1 && d.columnIndex === 0),
        details.find((d) => d.rowIndex === 1 && d.columnIndex === 1),
        details.find((d) => d.rowIndex === 1 && d.columnIndex === 4),
      ];
      // JSON text, so that both the set of keys and their order are compared.
      expect(picked.map((d) => JSON.stringify(d))).toEqual(expected.map((d) => JSON.stringify(d)));
    },
  );

  it('gives every cell block one shared, frozen, empty polygon', async () => {
    const result = await parseDocument(await makeXlsx(), { fileName: 'book.xlsx' });
    if (!result.ok) throw new Error(result.failureMessage);
    const cells =
      result.output.chunks[0]?.blocks.filter((block) => block.type === 'table_cell') ?? [];
    expect(cells.length).toBeGreaterThan(10);
    const [first, ...rest] = cells.map((cell) => cell.polygon);
    expect(first).toEqual([]);
    expect(Object.isFrozen(first)).toBe(true);
    for (const polygon of rest) expect(polygon).toBe(first);
  });
});

describe('parseXlsx reader', () => {
  it('moves shared formulas to each cell, keeping $ parts, strings and names', async () => {
    const bytes = makeRawSheetXlsx(
      '<sheetData>' +
        '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f t="shared" ref="B1:B3" si="0">A1*$A$1+SUM(A$1:A1)&amp;"A1"</f></c></row>' +
        '<row r="2"><c r="A2"><v>3</v></c><c r="B2"><f t="shared" si="0"/></c></row>' +
        '<row r="3"><c r="A3"><v>4</v></c><c r="B3"><f t="shared" si="0"/><v>99</v></c></row>' +
        '</sheetData>',
    );
    const draft = await parseXlsx(
      bytes,
      context({
        ...ADVANCED,
        advancedOptions: { ...ADVANCED.advancedOptions, excelSkipCalculation: false },
      }),
    );
    const byRef = new Map(cellDetails(table(draft)).map((d, i) => [d.cellReference, { d, i }]));
    expect(byRef.get('B2')?.d.formula).toBe('=A2*$A$1+SUM(A$1:A2)&"A1"');
    expect(byRef.get('B3')?.d.formula).toBe('=A3*$A$1+SUM(A$1:A3)&"A1"');
    const contents = table(draft)?.cells?.contents ?? [];
    // Calculated where no result is stored (B1, B2), the cached result kept (B3).
    expect(contents[byRef.get('B1')?.i ?? -1]).toBe('6A1');
    expect(contents[byRef.get('B2')?.i ?? -1]).toBe('11A1');
    expect(contents[byRef.get('B3')?.i ?? -1]).toBe('99');
  });

  it('reads hidden columns, rich and phonetic text, rich inline strings and prefixed elements', async () => {
    const bytes = makeRawSheetXlsx(
      '<x:cols><x:col min="2" max="3" hidden="1"/></x:cols><x:sheetData>' +
        '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="s"><x:v>1</x:v></x:c><x:c r="D1" t="inlineStr"><x:is>\n  <x:r><x:t>in </x:t></x:r>\n  <x:r><x:t>line</x:t></x:r>\n</x:is></x:c></x:row>' +
        '<x:row r="2"><x:c r="A2" t="b"><x:v>1</x:v></x:c><x:c r="C2"><x:v>5</x:v></x:c><x:c r="D2" t="e"><x:v>#N/A</x:v></x:c></x:row>' +
        '</x:sheetData>',
      '<si><r><t>Rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></si><si><t>hidden</t></si>',
    );
    const shown = await parseXlsx(bytes, context());
    expect(table(shown)?.content).toBe(
      [
        '| Rich text | hidden |  | in line |',
        '| --- | --- | --- | --- |',
        '| TRUE |  | 5 | #N/A |',
      ].join('\n'),
    );
    // Only the text of the runs: not the whitespace between the elements.
    expect(table(shown)?.cells?.contents).toContain('in line');
    const skipped = await parseXlsx(
      bytes,
      context({ advancedOptions: { excelSkipHiddenContent: true } }),
    );
    expect(table(skipped)?.content).toBe(
      ['| Rich text | in line |', '| --- | --- |', '| TRUE | #N/A |'].join('\n'),
    );
  });

  it('fails on a workbook whose sheet part is damaged', async () => {
    const bytes = makeRawSheetXlsx(
      '<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData>',
    );
    // Break the local header signature of the sheet part.
    const text = Buffer.from(bytes).toString('latin1');
    // The first occurrence of the name is in its local header, 30 bytes after the signature.
    const at = text.indexOf('xl/worksheets/sheet1.xml') - 30;
    expect(text.slice(at, at + 4)).toBe('PK\u0003\u0004');
    const damaged = Uint8Array.from(bytes);
    damaged[at] = 0;
    await expect(parseXlsx(damaged, context())).rejects.toMatchObject({ reason: 'CORRUPT_FILE' });
  });
});

/**
 * Formulas as openpyxl writes them: no cached result (exceljs writes `<f>` without `<v>` when a
 * formula value has no result), beside one cached result and cells of another sheet.
 */
async function makeUncachedXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Items');
  sheet.getCell('A1').value = 2;
  sheet.getCell('A2').value = 3;
  sheet.getCell('A3').value = { formula: 'SUM(A1:A2)' } as ExcelJS.CellFormulaValue;
  sheet.getCell('B1').value = { formula: 'A3*2' } as ExcelJS.CellFormulaValue;
  sheet.getCell('B2').value = { formula: 'Rates!A1+1' } as ExcelJS.CellFormulaValue;
  sheet.getCell('B3').value = { formula: 'NOSUCHFUNCTION(1)' } as ExcelJS.CellFormulaValue;
  sheet.getCell('B4').value = { formula: 'B4+1' } as ExcelJS.CellFormulaValue;
  sheet.getCell('B5').value = { formula: '1/0' } as ExcelJS.CellFormulaValue;
  sheet.getCell('C1').value = { formula: 'A1/3' } as ExcelJS.CellFormulaValue;
  sheet.getCell('C1').numFmt = '0.00';
  sheet.getCell('C2').value = { formula: 'IF(A3>4,"high","low")' } as ExcelJS.CellFormulaValue;
  sheet.getCell('C3').value = { formula: 'A1+A2', result: 99 };
  workbook.addWorksheet('Rates').getCell('A1').value = 10;
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Each cell of the first sheet by its A1 reference: its text and details. */
function cellsByReference(draft: DraftDocument): Record<string, [string, TableCellDetails]> {
  const cells = table(draft)?.cells;
  const out: Record<string, [string, TableCellDetails]> = {};
  cells?.details.forEach((details, i) => {
    out[details.cellReference ?? `${details.rowIndex},${details.columnIndex}`] = [
      cells.contents[i] ?? '',
      details,
    ];
  });
  return out;
}

describe('formulas without a cached result', () => {
  it('are empty by default, and their details say so', async () => {
    const draft = await parseXlsx(await makeUncachedXlsx(), context(ADVANCED));
    const cells = cellsByReference(draft);
    expect(cells.A3).toEqual([
      '',
      expect.objectContaining({ formula: '=SUM(A1:A2)', formulaValue: 'missing' }),
    ]);
    expect(cells.C3?.[0]).toBe('99');
    expect(cells.C3?.[1].formulaValue).toBeUndefined();
    // Without cell metadata the formula is still named for a cell that shows nothing.
    const plain = cellsByReference(await parseXlsx(await makeUncachedXlsx(), context()));
    expect(Object.values(plain).filter(([, d]) => d.formulaValue === 'missing')).toHaveLength(8);
    expect(Object.values(plain).find(([, d]) => d.formula === '=A3*2')?.[0]).toBe('');
  });

  it('include those openpyxl writes with an empty value element', async () => {
    // openpyxl stores `<f>A1*B1</f><v></v>` (or `<v/>`): no result, not an empty text.
    const bytes = makeRawSheetXlsx(
      '<sheetData><row r="1"><c r="A1"><v>2</v></c><c r="B1"><v>3.5</v></c><c r="C1"><f>A1*B1</f><v></v></c><c r="D1"><f>A1+1</f><v/></c></row></sheetData>',
    );
    const plain = cellsByReference(await parseXlsx(bytes, context(ADVANCED)));
    expect(plain.C1).toEqual([
      '',
      expect.objectContaining({ formula: '=A1*B1', formulaValue: 'missing' }),
    ]);
    expect(plain.D1?.[1].formulaValue).toBe('missing');
    const config: ParseConfig = {
      advancedOptions: { ...ADVANCED.advancedOptions, excelSkipCalculation: false },
    };
    const calculated = cellsByReference(await parseXlsx(bytes, context(config)));
    expect([calculated.C1?.[0], calculated.D1?.[0]]).toEqual(['7', '3']);
    expect(calculated.C1?.[1].formulaValue).toBe('calculated');
  });

  it('are calculated with excelSkipCalculation: false (Excel semantics, other sheets, formats)', async () => {
    const config: ParseConfig = {
      advancedOptions: { ...ADVANCED.advancedOptions, excelSkipCalculation: false },
    };
    const cells = cellsByReference(await parseXlsx(await makeUncachedXlsx(), context(config)));
    const text = (ref: string) => cells[ref]?.[0];
    expect([text('A3'), text('B1'), text('B2'), text('B5'), text('C1'), text('C2')]).toEqual([
      '5',
      '10',
      '11',
      '#DIV/0!',
      '0.67',
      'high',
    ]);
    expect(cells.A3?.[1].formulaValue).toBe('calculated');
    // A cached result is kept as the workbook stored it.
    expect(cells.C3).toEqual([
      '99',
      expect.not.objectContaining({ formulaValue: expect.anything() }),
    ]);
    // What cannot be calculated stays empty, with the reason.
    expect(cells.B3).toEqual([
      '',
      expect.objectContaining({
        formulaValue: 'missing',
        formulaError: expect.stringMatching(/NOSUCHFUNCTION/),
      }),
    ]);
    expect(cells.B4?.[1]).toMatchObject({
      formulaValue: 'missing',
      formulaError: 'circular reference',
    });
  });
});

/**
 * An invoice laid out in a sheet, as openpyxl users write one: a letterhead and "Label: value"
 * lines, an item table whose amounts are formulas without cached results, a total's formula
 * alone in its row, then a lone row (label and value) and terms; a second sheet is a one-column
 * list.
 */
async function makeInvoiceSheetXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Invoice');
  const formula = (text: string) => ({ formula: text }) as ExcelJS.CellFormulaValue;
  sheet.getCell('A1').value = 'Northwind Traders';
  sheet.getCell('A2').value = '1 Main St';
  sheet.getCell('A4').value = 'Invoice No.: INV-7';
  sheet.getCell('A5').value = 'Date: 2024-05-01';
  sheet.getRow(7).values = ['Item', 'Qty', 'Price', 'Amount'];
  sheet.getRow(8).values = ['Widget', 2, 2.5];
  sheet.getCell('D8').value = formula('B8*C8');
  sheet.getRow(9).values = ['Gadget', 1, 4];
  sheet.getCell('D9').value = formula('B9*C9');
  sheet.getCell('D10').value = formula('SUM(D8:D9)');
  sheet.getCell('D12').value = 'Total due';
  sheet.getCell('E12').value = '9.00 EUR';
  sheet.getCell('A13').value = 'Thank you';
  const list = workbook.addWorksheet('List');
  for (const [i, name] of ['Ann', 'Bob', 'Cy'].entries()) list.getCell(`A${i + 1}`).value = name;
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('a sheet laid out as a document', () => {
  it('gives its lines of text as text blocks around the table, in reading order', async () => {
    const config: ParseConfig = {
      advancedOptions: { ...ADVANCED.advancedOptions, excelSkipCalculation: false },
    };
    const draft = await parseXlsx(await makeInvoiceSheetXlsx(), context(config));
    const blocks = draft.units[0]?.blocks ?? [];
    expect(blocks.map((b) => [b.type, b.type === 'table' ? '' : b.content])).toEqual([
      ['text', 'Invoice'],
      ['text', 'Northwind Traders'],
      ['text', '1 Main St'],
      ['text', 'Invoice No.: INV-7'],
      ['text', 'Date: 2024-05-01'],
      ['table', ''],
      // A lone row of cells is a line, its cells apart.
      ['text', 'Total due    9.00 EUR'],
      ['text', 'Thank you'],
    ]);
    // Text blocks name their cell with excelIncludeCellMetadata.
    expect(blocks[1]?.details).toEqual({ type: 'text_details', cellReference: 'A1' });
    const block = table(draft);
    // The table's rows and columns are its own (the total's formula stays in it, calculated).
    expect(block?.content).toBe(
      [
        '| Item | Qty | Price | Amount |',
        '| --- | --- | --- | --- |',
        '| Widget | 2 | 2.5 | 5 |',
        '| Gadget | 1 | 4 | 4 |',
        '|  |  |  | 9 |',
      ].join('\n'),
    );
    expect(block?.details).toEqual({ type: 'table_details', rowCount: 4, columnCount: 4 });
    expect(
      cellDetails(block).map((d) => [d.cellReference, d.rowIndex, d.columnIndex]),
    ).toContainEqual(['D10', 3, 3]);
    expect(cellDetails(block).find((d) => d.cellReference === 'D10')?.formulaValue).toBe(
      'calculated',
    );
    // A one-column list stays a table.
    expect(draft.units[1]?.blocks.map((b) => b.type)).toEqual(['text', 'table']);
  });
});
