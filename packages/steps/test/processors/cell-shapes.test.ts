/** One shape of an amount with cents serves labels, identifiers and item lines alike. */
import { describe, expect, it } from 'vitest';
import { isAmount, TRAILING_AMOUNT } from '../../src/processors/view/cell-shapes.ts';

describe('amounts with cents', () => {
  it('reads amounts as documents write them', () => {
    for (const text of [
      '3.50',
      '1234.50',
      '1,234.50',
      "CHF 3'494.00",
      '12,00 €',
      '7 241,55',
      'CA$ 1,250.40',
      'USD -12.50',
      '$-4.00',
      '-£1,654.04',
      '(7.10)',
      '5 472,18 EUR',
    ])
      expect(isAmount(text), text).toBe(true);
  });

  it('reads no code, date, count or words as one', () => {
    for (const text of ['INV-1234', '12/03/2024', '17', '3.5', 'Total 3.50', '12.345', 'A-20.00x'])
      expect(isAmount(text), text).toBe(false);
  });

  it('finds the amount that ends a label', () => {
    expect(TRAILING_AMOUNT.exec('Opening Balance USD 3,472.51')?.[1]).toBe('USD 3,472.51');
    expect(TRAILING_AMOUNT.exec('Total due £1,654.04')?.[1]).toBe('£1,654.04');
    expect(TRAILING_AMOUNT.exec('Net 30 1,200.00')?.[1]).toBe('1,200.00');
    expect(TRAILING_AMOUNT.exec('Invoice 2024-17')).toBeNull();
  });
});
