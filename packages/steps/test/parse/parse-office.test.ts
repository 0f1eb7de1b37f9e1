import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import type { Block, ParseConfig, ParseRunOutput } from '../../src/parse/parse-output.ts';
import {
  DOCX_TRUTH,
  LAYOUT_DOCX_TRUTH,
  LETTERHEAD_DOCX_TRUTH,
  makeDocx,
  makeEncryptedOffice,
  makeLayoutDocx,
  makeLegacyDoc,
  makeLetterheadDocx,
  makeXlsx,
  makeZipBomb,
  XLSX_TRUTH,
} from '../fixtures/parse/make-office.ts';
import { tableCellAccuracy } from './metrics.ts';
import { utf8 } from './step-context.ts';

async function parsed(
  bytes: Uint8Array,
  config: ParseConfig = {},
  fileName?: string,
): Promise<ParseRunOutput> {
  const result = await parseDocument(bytes, { config, ...(fileName ? { fileName } : {}) });
  if (!result.ok) throw new Error(`${result.failureReason}: ${result.failureMessage}`);
  return result.output;
}

function grid(blocks: readonly Block[], table: Block | undefined): string[][] {
  const out: string[][] = [];
  for (const block of blocks) {
    if (block.parentBlockId !== table?.id || block.details.type !== 'table_cell_details') continue;
    const row = out[block.details.rowIndex] ?? [];
    row[block.details.columnIndex] = block.content;
    out[block.details.rowIndex] = row;
  }
  return out;
}

describe('CSV', () => {
  it.each([
    [',', 'name,city,amount\n"Smith, J",Berlin,10.00\nDoe,"Paris ""Nord""",3\n'],
    [';', 'name;city;amount\n"Smith, J";Berlin;10.00\nDoe;"Paris ""Nord""";3\n'],
    ['\t', 'name\tcity\tamount\n"Smith, J"\tBerlin\t10.00\nDoe\t"Paris ""Nord"""\t3\n'],
    ['|', 'name|city|amount\n"Smith, J"|Berlin|10.00\nDoe|"Paris ""Nord"""|3\n'],
  ])('detects %j and reads every cell', async (_delimiter, text) => {
    const output = await parsed(utf8(text), {}, 'data.csv');
    const blocks = output.chunks[0]?.blocks ?? [];
    const table = blocks.find((block) => block.type === 'table');
    expect(table?.details).toEqual({ type: 'table_details', rowCount: 3, columnCount: 3 });
    expect(grid(blocks, table)).toEqual([
      ['name', 'city', 'amount'],
      ['Smith, J', 'Berlin', '10.00'],
      ['Doe', 'Paris "Nord"', '3'],
    ]);
    expect(output.chunks[0]?.content).toContain('| name | city | amount |');
  });

  it('prefers tab over comma for a two-column tab file with commas in values', async () => {
    const output = await parsed(utf8('a\tb\n1,5\t2,5\n3,1\t4,2\n'), {}, 'x.tsv');
    const blocks = output.chunks[0]?.blocks ?? [];
    expect(grid(blocks, blocks[0])).toEqual([
      ['a', 'b'],
      ['1,5', '2,5'],
      ['3,1', '4,2'],
    ]);
  });

  it('fails above limits.maxCells', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => `${i},${i}`).join('\n');
    const result = await parseDocument(utf8(rows), { limits: { maxCells: 50 } });
    expect(result).toMatchObject({ ok: false, failureReason: 'FILE_SIZE_TOO_LARGE' });
  });
});

describe('HTML', { timeout: 60_000 }, () => {
  const html = `<!DOCTYPE html><html><head><title>t</title><style>p{}</style><script>alert(1)</script></head>
  <body><h1>Annual <em>report</em></h1><p>Revenue grew <strong>12%</strong> in <a href="https://x.test">2025</a>.</p>
  <ul><li>First point</li><li>Second point<ul><li>Nested point</li></ul></li></ul>
  <table><thead><tr><th>Q</th><th>Revenue</th></tr></thead><tbody><tr><td>Q1</td><td>1,000</td></tr><tr><td colspan="2">Total only</td></tr></tbody></table>
  <h2>Outlook</h2><p>Stable.</p><img src="chart.png" alt="Revenue chart"></body></html>`;

  it('reads headings, paragraphs, lists, tables and images in order', async () => {
    const output = await parsed(utf8(html));
    const [chunk] = output.chunks;
    expect(chunk?.content).toBe(
      [
        '# Annual *report*',
        'Revenue grew **12%** in [2025](https://x.test).',
        '- First point',
        '- Second point',
        '  - Nested point',
        '| Q | Revenue |\n| --- | --- |\n| Q1 | 1,000 |\n| Total only |  |',
        '## Outlook',
        'Stable.',
        '![Revenue chart](chart.png)',
      ].join('\n\n'),
    );
    expect(chunk?.content).not.toContain('alert');
    const table = chunk?.blocks.find((block) => block.type === 'table');
    expect(grid(chunk?.blocks ?? [], table)).toEqual([
      ['Q', 'Revenue'],
      ['Q1', '1,000'],
      ['Total only', ''],
    ]);
    expect(chunk?.blocks.find((block) => block.type === 'figure')).toMatchObject({
      content: 'Revenue chart',
      details: { type: 'figure_details', figureType: 'image' },
    });
  });

  it('splits sections at headings', async () => {
    const output = await parsed(utf8(html), { chunkingStrategy: { type: 'section' } });
    expect(output.chunks.map((chunk) => chunk.content.split('\n')[0])).toEqual([
      '# Annual *report*',
      '## Outlook',
    ]);
  });

  it('converts a 4,000-row table (linear table rule)', async () => {
    const rows = Array.from(
      { length: 4000 },
      (_, i) => `<tr><td>r${i}</td><td>${i}</td></tr>`,
    ).join('');
    const output = await parsed(utf8(`<html><body><table>${rows}</table></body></html>`));
    const table = output.chunks[0]?.blocks.find((block) => block.type === 'table');
    expect(table?.details).toEqual({ type: 'table_details', rowCount: 4000, columnCount: 2 });
  });
});

describe('XML', () => {
  it('keeps values as text and paths as structure', async () => {
    const xml =
      '<?xml version="1.0"?><invoice id="7"><total>10.00</total><code>007</code><line><sku>A&amp;B</sku></line><line><sku>C</sku></line></invoice>';
    const output = await parsed(utf8(xml));
    const content = output.chunks[0]?.content ?? '';
    expect(content).toContain('- total: 10.00');
    expect(content).toContain('- code: 007');
    expect(content).toContain('- @id: 7');
    expect(content).toContain('**invoice.line[0]**\n- sku: A&B');
    expect(content).toContain('**invoice.line[1]**\n- sku: C');
  });

  it('does not expand declared entities (billion laughs)', async () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz><v>&lol2;</v></lolz>`;
    const result = await parseDocument(utf8(xml));
    if (result.ok) expect(result.output.chunks[0]?.content.length).toBeLessThan(200);
    else expect(result.failureReason).toBe('CORRUPT_FILE');
  });

  it('fails malformed XML with CORRUPT_FILE and the position', async () => {
    const result = await parseDocument(utf8('<?xml version="1.0"?><a><b></a>'));
    expect(result).toMatchObject({ ok: false, failureReason: 'CORRUPT_FILE' });
    expect(!result.ok && result.failureMessage).toMatch(/line 1/);
  });
});

describe('DOCX', { timeout: 60_000 }, () => {
  it('reads headings, emphasis, list items, tables and images', async () => {
    const output = await parsed(await makeDocx());
    const [chunk] = output.chunks;
    const content = chunk?.content ?? '';
    expect(content).toContain(`# ${DOCX_TRUTH.title}`);
    expect(content).toContain(`## ${DOCX_TRUTH.subtitle}`);
    expect(content).toContain('This agreement is made between **Acme Corp** and Globex Ltd.');
    for (const bullet of DOCX_TRUTH.bullets) expect(content).toContain(`- ${bullet}`);
    const table = chunk?.blocks.find((block) => block.type === 'table');
    expect(tableCellAccuracy(DOCX_TRUTH.table, grid(chunk?.blocks ?? [], table))).toBe(1);
    expect(chunk?.blocks.some((block) => block.type === 'figure')).toBe(true);
    expect(output.metadata?.originalMimeType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('reads a layout table as blocks and keeps the paragraphs of a cell apart', async () => {
    const [chunk] = (await parsed(await makeLayoutDocx())).chunks;
    const blocks = chunk?.blocks ?? [];
    const texts = blocks.filter((b) => b.type === 'text').map((b) => b.content);
    // The layout table's left cell: one block per paragraph, not one glued cell.
    expect(texts).toEqual(['STATEMENT OF ACCOUNT', ...LAYOUT_DOCX_TRUTH.address]);
    const tables = blocks.filter((b) => b.type === 'table');
    expect(tables).toHaveLength(2);
    // The nested pairs are a table of their own.
    expect(grid(blocks, tables[0])).toEqual(LAYOUT_DOCX_TRUTH.pairs);
    // A data table stays a table; its two-paragraph cell reads as words apart.
    expect(grid(blocks, tables[1])).toEqual([
      ['Item', 'Amount'],
      ['Site survey two visits', '120.00'],
    ]);
  });

  it("reads the first page's header before the body, other headers and footers after it", async () => {
    const t = LETTERHEAD_DOCX_TRUTH;
    const letterhead = [t.organisation, ...t.address, t.contact.join(': ')];
    const texts = async (running: boolean) => {
      const [chunk] = (await parsed(await makeLetterheadDocx(running))).chunks;
      expect(chunk?.content.startsWith(`**${t.organisation}**`)).toBe(true);
      return (chunk?.blocks ?? []).filter((b) => b.type === 'text').map((b) => b.content);
    };
    // The letterhead heads every page.
    expect(await texts(false)).toEqual([...letterhead, ...t.body, t.footer]);
    // The letterhead heads the first page; the running header of later pages is no letterhead.
    // The parts a tab sets apart are paragraphs of their own.
    expect(await texts(true)).toEqual([...letterhead, ...t.body, ...t.running, t.footer]);
  });

  it('fails a truncated DOCX with CORRUPT_FILE', async () => {
    const bytes = await makeDocx();
    const result = await parseDocument(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(result).toMatchObject({ ok: false, failureReason: 'CORRUPT_FILE' });
  });
});

describe('XLSX', { timeout: 60_000 }, () => {
  it('gives one chunk per sheet with displayed values honouring number formats', async () => {
    const output = await parsed(await makeXlsx());
    expect(output.chunks.map((chunk) => chunk.metadata.sheet?.name)).toEqual(['Sales', 'Internal']);
    const [sales] = output.chunks;
    const table = sales?.blocks.find((block) => block.type === 'table');
    const cells = grid(sales?.blocks ?? [], table);
    // Without excelSkipHiddenContent the hidden row and column are read too.
    expect(cells[1]).toEqual([...(XLSX_TRUTH.sales[1] ?? []), 'x']);
    expect(sales?.blocks[0]?.metadata.sheet).toEqual({ index: 0, name: 'Sales' });
  });

  it('skips hidden sheets, rows and columns with excelSkipHiddenContent', async () => {
    const output = await parsed(await makeXlsx(), {
      advancedOptions: { excelSkipHiddenContent: true },
    });
    expect(output.chunks).toHaveLength(1);
    const blocks = output.chunks[0]?.blocks ?? [];
    const table = blocks.find((block) => block.type === 'table');
    expect(tableCellAccuracy(XLSX_TRUTH.sales, grid(blocks, table))).toBe(1);
    expect(grid(blocks, table)).toHaveLength(3);
  });

  it('gives raw values with excelUseRawCellValues', async () => {
    const output = await parsed(await makeXlsx(), {
      advancedOptions: { excelUseRawCellValues: true },
    });
    const blocks = output.chunks[0]?.blocks ?? [];
    const row = grid(
      blocks,
      blocks.find((block) => block.type === 'table'),
    )[1];
    expect(row?.slice(0, 4)).toEqual(['North', '1234.5', '0.256', '2024-03-05T00:00:00.000Z']);
  });

  it('adds A1 references, formulas and formatting in advanced mode', async () => {
    const output = await parsed(await makeXlsx(), {
      advancedOptions: {
        excelParsingMode: 'advanced',
        excelIncludeCellMetadata: true,
        excelIncludeCellFormatting: true,
      },
    });
    const cells = output.chunks[0]?.blocks.filter((block) => block.type === 'table_cell') ?? [];
    const byRef = new Map(
      cells.map((cell) => [
        cell.details.type === 'table_cell_details' ? cell.details.cellReference : '',
        cell,
      ]),
    );
    expect(byRef.get('E2')?.details).toMatchObject({
      formula: '=B2*2',
      rowIndex: 1,
      columnIndex: 4,
    });
    expect(byRef.get('A1')?.details).toMatchObject({ formatting: { bold: true } });
    expect(byRef.get('A2')?.details).toMatchObject({ formatting: { backgroundColor: '#FFFF00' } });
  });
});

describe('container failures', () => {
  it.each([
    ['an encrypted Office file', () => makeEncryptedOffice(), 'PASSWORD_PROTECTED_FILE'],
    ['a legacy .doc', () => makeLegacyDoc(), 'FILE_TYPE_NOT_SUPPORTED'],
    // Its directory claims 2 GB per entry that holds 4 bytes: a lying header, which the parsing
    // libraries would trust, is a corrupt container (real expansion is counted: parse-limits).
    ['a ZIP whose headers claim 2 GB', () => makeZipBomb(2_000_000_000), 'CORRUPT_FILE'],
  ])('%s fails with %s', async (_label, make, reason) => {
    const result = await parseDocument(make());
    expect(result).toMatchObject({ ok: false, failureReason: reason });
    expect(!result.ok && result.failureMessage.length).toBeGreaterThan(30);
  });

  it('tells the user how to get a .doc parsed', async () => {
    const result = await parseDocument(makeLegacyDoc(), { fileName: 'contract.doc' });
    expect(!result.ok && result.failureMessage).toMatch(/Convert it to PDF/);
  });
});
