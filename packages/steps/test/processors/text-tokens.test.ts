import { describe, expect, it } from 'vitest';
import { tokens } from '../../src/processors/text-tokens.js';

describe('tokens', () => {
  it('maps synonyms and stems plurals', () => {
    expect(tokens('Invoice No.')).toEqual(['invoice', 'number']);
    expect(tokens('Items')).toEqual(['item']);
  });

  it('reads words that name Object.prototype members as plain words', () => {
    // A manual's text ("the constructor calls toString") once crashed classification.
    const words = tokens('the constructor calls toString and hasOwnProperty');
    expect(words).toEqual(expect.arrayContaining(['constructor', 'call', 'string', 'property']));
    expect(tokens('__proto__ valueOf')).toContain('proto');
  });

  it('reads totals without tax as subtotals and a balance carried forward as the closing one', () => {
    expect(tokens('Total excl. tax')).toEqual(['subtotal']);
    expect(tokens('Amount excluding VAT')).toEqual(['subtotal']);
    expect(tokens('Balance carried forward')).toEqual(['closing', 'balance']);
    expect(tokens('Balance brought forward')).toEqual(['opening', 'balance']);
  });

  it('reads an order amount as its total and a party’s details as the party', () => {
    expect(tokens('Order Amount')).toEqual(['total']);
    expect(tokens('Supplier Details')).toEqual(['vendor']);
    expect(tokens('Date Raised')).toEqual(['issue', 'date']);
  });
});
