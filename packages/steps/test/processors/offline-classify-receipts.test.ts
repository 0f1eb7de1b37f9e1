/**
 * Receipts that are no till slip and do not say "receipt": a restaurant's bill, a fuel station's
 * card slip. What tells them is what card terminals, restaurants and pumps print (a web shop's
 * order paid by card: offline-classify-acts.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { termCounts } from '../../src/processors/offline/term-model.ts';
import { classifyBusiness } from './business-classify.ts';

const classify = (lines: readonly string[]) => classifyBusiness(lines).id;

describe('receipts that do not say their name', () => {
  it("reads a restaurant's bill and a fuel station's card slip as receipts", () => {
    expect(
      classify([
        'Trattoria Roma',
        '12 Market Street',
        'Table 7    Server: Luca',
        'Guests 2',
        '2 Margherita    24.00',
        '1 Tiramisu    6.50',
        '2 Espresso    5.00',
        'Subtotal    35.50',
        'Service charge 10%    3.55',
        'Total    39.05',
        'Mastercard    39.05',
        'Auth code 04417',
        'Grazie!',
      ]),
    ).toBe('receipt');
    expect(
      classify([
        'NORTHGATE FUEL',
        'Pump 4',
        'Unleaded 95    42.10 L    @ 1.659',
        'Amount    69.84',
        'VAT 20%    11.64',
        'Debit card',
        'Contactless',
        'Approved',
        '14/03/2024',
      ]),
    ).toBe('receipt');
  });

  it('reads a dish that begins like a month as no dated row', () => {
    expect(
      termCounts(['2 Margherita    24.00', '1 Mayo dip    1.50']).counts.has('@dated-row'),
    ).toBe(false);
    expect(termCounts(['2 Mar 2024    Card payment    24.00']).counts.get('@dated-row')).toBe(1);
  });
});
