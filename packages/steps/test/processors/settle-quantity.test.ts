import { describe, expect, it } from 'vitest';
import { figureOf, settledQuantity } from '../../src/processors/offline/settle-quantity.ts';

describe('settledQuantity', () => {
  it('gives the one reading of misread digits that makes quantity × unit price = amount', () => {
    expect(settledQuantity(44, 52.1, 573.1)).toBe(11);
    expect(settledQuantity(7, 12.5, 12.5)).toBe(1);
    expect(settledQuantity(3, 349.09, 2792.72)).toBe(8);
    expect(settledQuantity(56, 2.5, 165)).toBe(66);
  });

  it('leaves a quantity the row agrees with, or that no reading of its digits settles', () => {
    expect(settledQuantity(11, 52.1, 573.1)).toBeUndefined();
    // 2 is read for no other digit: 2 × 10 = 30 stays a disagreement.
    expect(settledQuantity(2, 10, 30)).toBeUndefined();
    // 44 → 11 would fit 5 × 55, but the amount says 60: nothing is guessed.
    expect(settledQuantity(44, 5, 60)).toBeUndefined();
    // A weight, a price of 0, a figure too long to be a count.
    expect(settledQuantity(0.45, 2, 2)).toBeUndefined();
    expect(settledQuantity(4, 0, 0)).toBeUndefined();
    expect(settledQuantity(44444, 1, 11111)).toBeUndefined();
  });

  it('reads a figure from a number or a currency value', () => {
    expect(figureOf(3)).toBe(3);
    expect(figureOf({ amount: 5.5, iso_4217: 'EUR' })).toBe(5.5);
    expect(figureOf('5')).toBeUndefined();
  });
});
