import { describe, expect, it } from 'vitest';
import {
  dateNear,
  dayAndMonth,
  matchEnum,
  parseBoolean,
  parseCurrency,
  parseDate,
  parseNumber,
} from '../../src/processors/value-coercion.ts';

describe('value coercion', () => {
  it.each([
    ['2024-03-15', '2024-03-15'],
    ['03/15/2024', '2024-03-15'],
    ['15/03/2024', '2024-03-15'],
    ['15.03.2024', '2024-03-15'],
    ['March 5, 2024', '2024-03-05'],
    ['June 7,2024', '2024-06-07'],
    ['5 March 2024', '2024-03-05'],
    ['Sept 30th, 2023', '2023-09-30'],
    ['05-Jan-24', '2024-01-05'],
    ['Date: 1/2/2024 14:22', '2024-01-02'],
    // A period whose start has no year: its end, never a day read as a year (2031).
    ['1 Mar - 31 Mar 2024', '2024-03-31'],
  ])('reads the date %s', (text, expected) => {
    expect(parseDate(text)).toBe(expected);
  });

  it('reads numeric dates day first when the document does', () => {
    expect(parseDate('03/04/2024', true)).toBe('2024-04-03');
    expect(parseDate('03/04/2024')).toBe('2024-03-04');
  });

  it('takes card schemes and kinds for a card payment', () => {
    expect(matchEnum('Mastercard ****1150', ['cash', 'card'])).toBe('card');
    expect(matchEnum('VISA 6916', ['cash', 'card'])).toBe('card');
    expect(matchEnum('Apple Pay', ['cash', 'card'])).toBe('card');
  });

  it('takes change handed back for a cash payment, but not change of nothing', () => {
    expect(matchEnum('Change    3.50', ['cash', 'card'])).toBe('cash');
    expect(matchEnum('CHANGE DUE: EUR 0.50', ['cash', 'card'])).toBe('cash');
    expect(matchEnum('Change    0.00', ['cash', 'card'])).toBeUndefined();
    expect(matchEnum('No exchange without receipt', ['cash', 'card'])).toBeUndefined();
  });

  it('names currencies by their dollar prefixes', () => {
    expect(parseCurrency('CA$ 12.00', null)?.iso_4217).toBe('CAD');
    expect(parseCurrency('Rs. 120.00', null)?.iso_4217).toBe('INR');
  });

  it('rejects impossible dates', () => {
    expect(parseDate('2024-02-30')).toBeUndefined();
    expect(parseDate('no date here')).toBeUndefined();
  });

  it.each([
    ['$1,234.56', 1234.56],
    ['1.234,56 EUR', 1234.56],
    ['1 234,56 €', 1234.56],
    ['(12.00)', -12],
    ['-45.20', -45.2],
    ['12,5', 12.5],
    ['1,000', 1000],
    ['Qty 7', 7],
    ['2’387.42', 2387.42],
    ["CHF 1'234.50", 1234.5],
    ['122.29 17', 122.29],
  ])('reads the number %s', (text, expected) => {
    expect(parseNumber(text)).toBe(expected);
  });

  it('reads currency with its code, or the document default', () => {
    expect(parseCurrency('£45.00', null)).toEqual({ amount: 45, iso_4217: 'GBP' });
    expect(parseCurrency('CHF 12.50', null)).toEqual({ amount: 12.5, iso_4217: 'CHF' });
    expect(parseCurrency('12.50', 'EUR')).toEqual({ amount: 12.5, iso_4217: 'EUR' });
    expect(parseCurrency('n/a', 'EUR')).toBeUndefined();
  });

  it('reads booleans and enum members', () => {
    expect(parseBoolean('Yes')).toBe(true);
    expect(parseBoolean('unchecked')).toBe(false);
    expect(parseBoolean('maybe')).toBeUndefined();
    expect(matchEnum('VISA card', ['cash', 'card'])).toBe('card');
    expect(matchEnum('Net-30', ['net_30', 'net_60'])).toBe('net_30');
    expect(matchEnum('cheque', ['cash', 'card'])).toBeUndefined();
  });
});

describe('dates written without their year', () => {
  it.each([
    ['14 Mar', '2024-03-10', undefined, '2024-03-14'],
    ['Mar 14', '2024-03-10', undefined, '2024-03-14'],
    ['14-Mar', '2024-03-10', undefined, '2024-03-14'],
    ['Sept 3', '2024-09-30', undefined, '2024-09-03'],
    ['03/14', '2024-03-10', undefined, '2024-03-14'],
    ['14/03', '2024-03-10', true, '2024-03-14'],
    ['04/03', '2024-03-10', true, '2024-03-04'],
    ['04/03', '2024-03-10', undefined, '2024-04-03'],
    ['14.03.', '2024-03-10', undefined, '2024-03-14'],
    // The year that puts the date nearest: a December row of a statement ending in January.
    ['28 Dec', '2025-01-15', undefined, '2024-12-28'],
    ['Jan 2', '2024-12-20', undefined, '2025-01-02'],
  ])('reads %s near %s (day first %s) as %s', (text, near, dayFirst, expected) => {
    expect(dateNear(text, near, dayFirst)).toBe(expected);
  });

  it.each(['12.05', '14 March 2024', 'Marx 3', '31/31', '3 items', 'Card payment 12 Aug'])(
    'reads no day and month in %s',
    (text) => {
      expect(dayAndMonth(text)).toBeUndefined();
    },
  );
});
