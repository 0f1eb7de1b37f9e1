/**
 * Offline extraction asked by schemas in another user's wording: camelCase names, other words
 * for the same thing ("netAmount" for the subtotal, "issueDate" for the invoice date, "fromDate"
 * and "toDate" for a period's ends, "topic" for the subject), and the counts receipts write into
 * their item text. Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = { type: ['string', 'null'] };
const num = { type: ['number', 'null'] };
const date = { type: ['string', 'null'], format: 'date' };

function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('schema wording', () => {
  it('reads a net amount as the subtotal and an issue date as the invoice date', () => {
    const value = extract(
      [
        'Invoice',
        'Invoice Date: 2024-03-14',
        'Due Date: 2024-04-13',
        'Subtotal: 100.00',
        'Tax: 20.00',
        'Total: 120.00',
      ].join('\n'),
      { issueDate: date, paymentDueDate: date, netAmount: num, taxAmount: num, totalPaid: num },
    );
    expect(value).toEqual({
      issueDate: '2024-03-14',
      paymentDueDate: '2024-04-13',
      netAmount: 100,
      taxAmount: 20,
      totalPaid: 120,
    });
  });

  it("reads fromDate and toDate as a period's ends and a topic as the subject", () => {
    const value = extract(
      [
        'Account Statement',
        'Statement Period: 01/03/2024 - 31/03/2024',
        'Subject: Renewal of the lease',
      ].join('\n'),
      { fromDate: date, toDate: date, topic: str },
    );
    expect(value).toEqual({
      fromDate: '2024-03-01',
      toDate: '2024-03-31',
      topic: 'Renewal of the lease',
    });
  });

  it("gives a period's start the year of its end when it is written without one", () => {
    for (const period of ['1 Mar - 31 Mar 2024', 'Mar 1 - Mar 31, 2024'])
      expect(
        extract(`Account Statement\nStatement Period: ${period}`, { fromDate: date, toDate: date }),
      ).toEqual({ fromDate: '2024-03-01', toDate: '2024-03-31' });
  });

  it('reads the customer of a statement as its account holder', () => {
    const value = extract(
      ['Account Statement', 'Customer: Jonas Rossi', 'Account Number: DE99 6257 2261'].join('\n'),
      { account_holder: str, account_number: str },
    );
    expect(value).toEqual({ account_holder: 'Jonas Rossi', account_number: 'DE99 6257 2261' });
  });

  it("reads a PO's date as its order date and 'Required by' as its delivery date", () => {
    const value = extract(
      [
        'Purchase Order',
        'PO Number: 4596306600',
        'PO Date: July 4, 2024',
        'Required By: July 16, 2024',
        'Requested by: Fatima Ortega',
      ].join('\n'),
      { order_date: date, delivery_date: date },
    );
    expect(value).toEqual({ order_date: '2024-07-04', delivery_date: '2024-07-16' });
  });
});

describe('identifier words', () => {
  it('reads "P.O. #" and "PO Number" as a PO reference, not a customer ID the description names', () => {
    const poReference = {
      type: ['string', 'null'],
      description: "The customer's purchase order reference quoted on the invoice",
    };
    for (const label of ['P.O. #', 'PO Number'])
      expect(
        extract(
          [
            'Invoice',
            'Invoice Number: 2023/1508',
            'Customer ID: C-97397',
            `${label}: PO887222`,
          ].join('\n'),
          { invoiceId: str, purchaseOrderReference: poReference },
        ),
      ).toEqual({ invoiceId: '2023/1508', purchaseOrderReference: 'PO887222' });
  });
});

describe('item counts', () => {
  it('reads counts written into the item text of a receipt', () => {
    const items = {
      type: 'array',
      items: { type: 'object', properties: { description: str, quantity: num, amount: num } },
    };
    const slip = (header: string, rows: readonly string[]) =>
      extract(['Corner Deli', 'Receipt', header, ...rows, 'Total        9.99'].join('\n'), {
        items,
      }).items;
    expect(
      slip('Item / Service        Total', [
        '4 x Coffee            7.88',
        '1 x Bagel             1.70',
      ]),
    ).toEqual([
      { description: 'Coffee', quantity: 4, amount: 7.88 },
      { description: 'Bagel', quantity: 1, amount: 1.7 },
    ]);
    expect(
      slip('Item                  Amount', [
        'Bagel 2 @ 15,44 €     30,88 €',
        'Pens 10 pack 1 @      13,54 €',
      ]),
    ).toEqual([
      { description: 'Bagel', quantity: 2, amount: 30.88 },
      { description: 'Pens 10 pack', quantity: 1, amount: 13.54 },
    ]);
    expect(slip('Qty Item              Amount', ['4 Water bottle        62.48'])).toEqual([
      { description: 'Water bottle', quantity: 4, amount: 62.48 },
    ]);
  });
});
