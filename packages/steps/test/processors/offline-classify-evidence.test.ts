/**
 * More evidence never hurts a classification: a type's wider vocabulary (a longer description,
 * rules that mention it) can only raise the score of the documents that use it, so a short till
 * slip stays a receipt however much a user writes about receipts. Inputs are built by the tests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyLines } from '../../src/processors/offline/offline-classify.ts';
import { buildTermProfiles, rank, termCounts } from '../../src/processors/offline/term-model.ts';

/** A till slip in a wording none of the built-in vocabulary was written from. */
const slip = [
  'PINE & PAPER',
  'stationers',
  'Ref  88213   09:41',
  'Ledger notebook    6.50',
  'Fountain pen    18.00',
  'Sum    24.50',
  'Mastercard ****0042    24.50',
  'Thanks for shopping with us',
];

const classes = (receiptDescription: string) => [
  { id: 'inv', type: 'invoice', description: 'A bill from a supplier asking for payment' },
  { id: 'rct', type: 'receipt', description: receiptDescription },
  { id: 'stmt', type: 'bank_statement', description: 'Transactions of an account' },
  { id: 'other', type: 'other' },
];

const LONG =
  'Proof of a purchase already paid at a shop, a restaurant, a petrol station, a pharmacy, a hotel, a taxi or an online store, with what was bought, the tax, the total and how it was paid, printed on till paper or sent by mail after checkout';

describe('classification evidence', () => {
  it('reads a short till slip as a receipt whether its type is described in a few words or many', () => {
    expect(classifyLines(slip, { classifications: classes('Till slips') }).id).toBe('rct');
    expect(classifyLines(slip, { classifications: classes(LONG) }).id).toBe('rct');
  });

  it("never lowers a document's score or confidence when its type's description grows", () => {
    const words = [
      'shop',
      'till',
      'coupon',
      'voucher',
      'loyalty',
      'barcode',
      'clerk',
      'counter',
      'kiosk',
      'checkout',
      'basket',
      'purchase',
      'paid',
      'cash',
      'bag',
    ];
    const base = 'Till slips';
    const counts = termCounts(slip);
    const scored = (description: string) => {
      const ranking = rank(buildTermProfiles(classes(description)), counts);
      return { score: ranking.scores.get('rct') ?? 0, confidence: ranking.confidence };
    };
    const before = scored(base);
    fc.assert(
      fc.property(fc.subarray(words, { minLength: 1 }), (extra) => {
        const after = scored(`${base} ${extra.join(' ')}`);
        expect(after.score).toBeGreaterThanOrEqual(before.score);
        expect(after.confidence).toBeGreaterThanOrEqual(before.confidence);
      }),
      { numRuns: 60 },
    );
  });
});
