import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offlineSplit } from '../../src/processors/offline/offline-split.ts';
import { normalizeSplits } from '../../src/processors/run-processor.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import { CORPUS_CLASSIFICATIONS } from '../fixtures/corpus/generate-corpus.ts';

const classifications = CORPUS_CLASSIFICATIONS.map((c) => ({ ...c }));
const line = fc.oneof(
  fc.constantFrom(
    'INVOICE',
    'Invoice number: INV-1',
    'Invoice number: INV-2',
    'Page 1 of 2',
    'Page 2 of 2',
    'Dear Sir,',
    'RECEIPT',
    'Receipt #: 77',
    '(continued)',
    'Total: $5.00',
  ),
  fc.string({ maxLength: 30 }),
);
const page = fc.array(line, { maxLength: 12 }).map((lines) => lines.join('\n'));

function covers(splits: readonly { startPage: number; endPage: number }[], pages: number): boolean {
  let next = 1;
  for (const s of splits) {
    if (s.startPage !== next || s.endPage < s.startPage) return false;
    next = s.endPage + 1;
  }
  return next === pages + 1;
}

describe('splitting laws', () => {
  it('offline splits are contiguous and cover every page, whatever the pages say', () => {
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 8 }), (pages) => {
        const view = buildDocumentView([{ output: textToParseOutput(pages) }]);
        const splits = offlineSplit(view, { splitClassifications: classifications });
        expect(covers(splits, pages.length)).toBe(true);
        for (const s of splits)
          expect(classifications.some((c) => c.id === s.classificationId)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('normalizeSplits turns any proposal into a contiguous cover', () => {
    const proposal = fc.record({
      classificationId: fc.constantFrom('cls_invoice', 'cls_letter', 'cls_unknown'),
      type: fc.constant('x'),
      startPage: fc.integer({ min: -3, max: 12 }),
      endPage: fc.integer({ min: -3, max: 12 }),
      identifier: fc.constant('id'),
      observation: fc.constant(''),
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.array(proposal, { maxLength: 6 }),
        (n, proposed) => {
          const view = buildDocumentView([
            { output: textToParseOutput(Array.from({ length: n }, (_, i) => `page ${i + 1}`)) },
          ]);
          const splits = normalizeSplits(view, proposed, classifications);
          expect(covers(splits, n)).toBe(true);
          for (const s of splits)
            expect(classifications.some((c) => c.id === s.classificationId)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
