/**
 * The class of each part of a split packet comes from its own pages; a part too short to be sure
 * of takes its neighbour's type only when that is its own best reading too.
 */
import { describe, expect, it } from 'vitest';
import { offlineSplit } from '../../src/processors/offline/offline-split.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'inv', type: 'invoice' },
  { id: 'rct', type: 'receipt' },
  { id: 'stmt', type: 'bank_statement' },
  { id: 'other', type: 'other' },
];

function parts(pages: readonly string[]): string[] {
  const view = buildDocumentView([{ output: textToParseOutput(pages) }]);
  return offlineSplit(view, { splitClassifications: classifications }).map(
    (s) => `${s.startPage}-${s.endPage}:${s.classificationId}`,
  );
}

const receipt = [
  'Sunrise Bakery',
  '12 Market Street',
  'Receipt #: TRN-832773',
  'Coffee    3.50',
  'Croissant    2.40',
  'TOTAL    5.90',
  'Paid by: VISA ****1150',
  'Thank you for your visit!',
].join('\n');

describe('the class of a short part', () => {
  it('gives a short receipt after a receipt the type it leans to, not other', () => {
    const slip = [
      'Corner Kiosk',
      '12 Station Road',
      'No. 5521-09    14:02',
      'Water    1.20',
      'Total    1.20',
    ].join('\n');
    expect(parts([receipt, slip])).toEqual(['1-1:rct', '2-2:rct']);
    // Alone, the slip says too little to be a receipt.
    expect(parts([slip])).toEqual(['1-1:other']);
  });

  it('leaves a weak part that leans to another type than its neighbour as other', () => {
    const page = ['Northwind Traders', 'Balance    2.10', 'Page 1 of 1'].join('\n');
    expect(parts([receipt, page])).toEqual(['1-1:rct', '2-2:other']);
  });
});
