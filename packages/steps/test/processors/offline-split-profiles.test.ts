/**
 * The splitter's term profiles depend only on its configuration: they are built once for a
 * document, not again for each page, part or file.
 */
import { describe, expect, it, vi } from 'vitest';
import { offlineSplit } from '../../src/processors/offline/offline-split.ts';
import * as termModel from '../../src/processors/offline/term-model.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

vi.mock('../../src/processors/offline/term-model.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof termModel>();
  return { ...actual, buildTermProfiles: vi.fn(actual.buildTermProfiles) };
});

const classifications = [
  { id: 'inv', type: 'invoice' },
  { id: 'rct', type: 'receipt' },
  { id: 'other', type: 'other' },
];

const invoice = (n: number) =>
  [`INVOICE`, `Invoice No: INV-${n}`, 'Due date: 3 May 2024', 'Total due    120.00'].join('\n');

describe('term profiles of a split', () => {
  it('are built once for a document of several files and parts', () => {
    const view = buildDocumentView([
      { output: textToParseOutput([invoice(1), invoice(2), invoice(3)]), fileId: 'a' },
      { output: textToParseOutput([invoice(4), invoice(5)]), fileId: 'b' },
    ]);
    const build = vi.mocked(termModel.buildTermProfiles);
    build.mockClear();
    const splits = offlineSplit(view, { splitClassifications: classifications });
    expect(splits.map((s) => `${s.fileId}:${s.startPage}-${s.endPage}:${s.type}`)).toEqual([
      'a:1-1:invoice',
      'a:2-2:invoice',
      'a:3-3:invoice',
      'b:1-1:invoice',
      'b:2-2:invoice',
    ]);
    expect(build).toHaveBeenCalledTimes(1);
  });
});
