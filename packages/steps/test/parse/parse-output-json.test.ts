import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/parse/parse-document.ts';
import { makeDocx, makeXlsx } from '../fixtures/parse/make-office.ts';
import { makeFormPdf, makeReportPdf } from '../fixtures/parse/make-pdf.ts';

// Step outputs are stored as JSON: no undefined, NaN, class instances or cycles may hide inside.
describe('ParseRunOutput is plain JSON', { timeout: 60_000 }, () => {
  it.each([
    ['PDF', async () => (await makeReportPdf({ pages: 2, rotatedPages: [2] })).bytes, {}],
    ['PDF form', makeFormPdf, {}],
    ['DOCX', makeDocx, {}],
    [
      'XLSX',
      makeXlsx,
      {
        advancedOptions: {
          excelParsingMode: 'advanced',
          excelIncludeCellMetadata: true,
          excelIncludeCellFormatting: true,
        },
      },
    ],
  ] as const)('%s', async (_label, make, config) => {
    const result = await parseDocument(await make(), { config });
    if (!result.ok) throw new Error(result.failureMessage);
    expect(JSON.parse(JSON.stringify(result.output))).toStrictEqual(result.output);
    expect(JSON.stringify(result.output)).not.toMatch(/NaN|Infinity/);
  });
});
