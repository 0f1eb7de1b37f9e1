import { describe, expect, it } from 'vitest';
import { buildChunks } from '../../src/parse/build-chunks.ts';
import type { DraftBlock, DraftDocument } from '../../src/parse/draft-document.ts';
import type { TableCellDetails } from '../../src/parse/parse-output.ts';
import { resolveParseConfig } from '../../src/parse/resolve-parse-config.ts';

function config() {
  const resolved = resolveParseConfig({});
  if (!resolved.ok) throw new Error(resolved.issues.join('; '));
  return resolved.config;
}

const details: TableCellDetails[] = [
  { type: 'table_cell_details', rowIndex: 0, columnIndex: 0, cellReference: 'A1' },
  { type: 'table_cell_details', rowIndex: 0, columnIndex: 1, formatting: { bold: true } },
  { type: 'table_cell_details', rowIndex: 1, columnIndex: 0 },
];
const contents = ['Name', 'Total', 'Ann'];

function sheet(table: Partial<DraftBlock>): DraftDocument {
  return {
    units: [
      {
        pageNumber: 1,
        sheet: { index: 0, name: 'Data' },
        blocks: [
          { type: 'text', content: 'Data', markdown: '## Data', details: { type: 'text_details' } },
          {
            type: 'table',
            content: '| Name | Total |',
            markdown: '| Name | Total |',
            details: { type: 'table_details', rowCount: 2, columnCount: 2 },
            ...table,
          },
        ],
      },
    ],
    pages: null,
    pageCount: 1,
  };
}

describe('buildChunks: columnar table cells', () => {
  it('gives the same blocks, field for field, as one child draft per cell', () => {
    const asChildren = buildChunks(
      sheet({
        children: contents.map((content, i) => ({
          type: 'table_cell',
          content,
          markdown: '',
          details: details[i] ?? { type: 'table_cell_details', rowIndex: 0, columnIndex: 0 },
        })),
      }),
      config(),
    );
    const asColumns = buildChunks(sheet({ cells: { contents, details } }), config());
    expect(asColumns[0]?.blocks.map((block) => block.id)).toEqual([
      'blk_1',
      'blk_2',
      'blk_3',
      'blk_4',
      'blk_5',
    ]);
    expect(asColumns[0]?.blocks[4]).toMatchObject({ parentBlockId: 'blk_2', content: 'Ann' });
    // JSON text: the same fields in the same order.
    expect(JSON.stringify(asColumns)).toBe(JSON.stringify(asChildren));
  });

  it('numbers columnar cells after the child drafts of the same block', () => {
    const [chunk] = buildChunks(
      sheet({
        children: [
          { type: 'text', content: 'note', markdown: '', details: { type: 'text_details' } },
        ],
        cells: { contents, details },
      }),
      config(),
    );
    expect(chunk?.blocks.map((block) => `${block.id}:${block.type}:${block.content}`)).toEqual([
      'blk_1:text:Data',
      'blk_2:table:| Name | Total |',
      'blk_3:text:note',
      'blk_4:table_cell:Name',
      'blk_5:table_cell:Total',
      'blk_6:table_cell:Ann',
    ]);
  });
});
