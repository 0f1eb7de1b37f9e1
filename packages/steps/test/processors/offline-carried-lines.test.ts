/**
 * A statement's detail line that a page break carried under the next page's repeated header
 * (a part's first row holding only description text) ends the description of the previous
 * page's last row.
 */
import { describe, expect, it } from 'vitest';
import { joinCarriedLines } from '../../src/processors/offline/extract-tables.ts';
import type { DocumentCell } from '../../src/processors/view/document-view.ts';

const cell = (text: string): DocumentCell => ({ text }) as DocumentCell;
const row = (...texts: string[]) => texts.map(cell);
const descriptions = (parts: DocumentCell[][][]) =>
  parts.map((rows) => rows.map((r) => r[1]?.text));

describe('a detail line carried over a page', () => {
  it('joins the line under the repeated header to the last row of the page before', () => {
    const parts = [
      [
        row('20 January 2023', 'Card payment GROCER', '23,10', '', '17.822,32'),
        row('22 January 2023', 'Salary ACME CORP', '', '1.828,47', '19.650,79'),
      ],
      [
        row('', 'MANDATE NO 0042', '', '', ''),
        row('24 January 2023', 'Card payment CAFE', '4,20', '', '19.646,59'),
      ],
    ];
    expect(descriptions(joinCarriedLines(parts, 1))).toEqual([
      ['Card payment GROCER', 'Salary ACME CORP MANDATE NO 0042'],
      ['Card payment CAFE'],
    ]);
    // The parts given are left as they were.
    expect(parts[1]?.length).toBe(2);
  });

  it('leaves a first row with figures, a date or a lone figure as it is', () => {
    const parts = [
      [row('01.01.2023', 'Salary', '', '10,00', '10,00')],
      [row('', 'Fee', '2,00', '', '8,00')],
      [row('', '12.01.2023', '', '', '')],
      [row('', '1.250,00', '', '', '')],
    ];
    expect(descriptions(joinCarriedLines(parts, 1))).toEqual([
      ['Salary'],
      ['Fee'],
      ['12.01.2023'],
      ['1.250,00'],
    ]);
    expect(descriptions(joinCarriedLines(parts, undefined))).toEqual(descriptions(parts));
  });
});
