/**
 * Documents whose title does not settle their type: a web shop's confirmation of an order paid
 * by card is proof of a payment (a receipt) though it says "order" throughout; a periodic bill
 * lists its charges in rows that begin with dates, as a statement does, and is still a bill.
 */
import { describe, expect, it } from 'vitest';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { termCounts } from '../../src/processors/offline/term-model.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
import type { DocumentView } from '../../src/processors/view/document-view.ts';

const classifications = [
  { id: 'invoice', type: 'invoice', description: 'A bill from a supplier asking for payment' },
  { id: 'receipt', type: 'receipt', description: 'Proof of a purchase already paid' },
  { id: 'po', type: 'purchase_order', description: 'An order for goods sent to a supplier' },
  { id: 'stmt', type: 'bank_statement', description: 'A list of account transactions' },
  { id: 'letter', type: 'letter' },
  { id: 'other', type: 'other' },
];

const classify = (text: string) =>
  offlineClassify(buildDocumentView([{ output: textToParseOutput([text]) }]), {
    classifications,
  });

describe('a payment said to be made', () => {
  it('reads a web shop confirmation of an order paid by card as a receipt', () => {
    const text = [
      'Lumen Outdoor Supplies',
      'Harbour Lane 3, Bristol BS1 4QA',
      'Order confirmed',
      'Thanks for shopping online. Your payment has been received and we are packing your order.',
      'Order #    88-1207',
      'Placed on    14 May 2024 10:42',
      'Payment    Mastercard ending in 4411',
      'Description    Qty    Price    Total',
      'Trail socks    2    9.00    18.00',
      'Head torch    1    24.50    24.50',
      'Subtotal    42.50',
      'Shipping    Free',
      'VAT 20%    8.50',
      'Order total    51.00',
      'Questions about your order? Reply to this message.',
    ].join('\n');
    expect(classify(text).id).toBe('receipt');
  });

  it('counts a payment said to be made, not payment terms or a due payment', () => {
    for (const line of [
      'Your payment was successful.',
      'We have received your payment, thank you.',
      'PAYMENT APPROVED',
      'Charged to Visa ending in 1234',
      'Paid in full on 3 May 2024.',
    ])
      expect(termCounts([line]).counts.has('@paid'), line).toBe(true);
    for (const line of [
      'Payment terms: Net 30',
      'Payment due 3 May 2024',
      'Please pay by transfer',
    ])
      expect(termCounts([line]).counts.has('@paid'), line).toBe(false);
  });
});

describe('a payment received among transactions', () => {
  it('reads a card statement listing payments received as a statement', () => {
    const text = [
      'Harbor Card Services',
      'Card account    4929 **** **** 1150',
      'Statement period    1 Mar 2024 - 31 Mar 2024',
      'Last statement balance    412.80',
      'Statement balance    268.35',
      'Date    Details    Amount',
      '02/03/2024    PAYMENT RECEIVED - THANK YOU    -412.80',
      '05/03/2024    GROCERY MART    54.10',
      '09/03/2024    FUEL STATION    61.25',
      '14/03/2024    PAYMENT RECEIVED - THANK YOU    -100.00',
      '18/03/2024    ONLINE STORE    153.00',
      '27/03/2024    RESTAURANT    100.00',
    ].join('\n');
    expect(classify(text).id).toBe('stmt');
  });
});

describe('rows that begin with dates', () => {
  it('counts the dated rows of a long table no more than those of a short one', () => {
    const rows = Array.from(
      { length: 24 },
      (_, i) => `${String(i + 1).padStart(2, '0')}/03/2024    Call to mobile    1    ${i + 1}.20`,
    );
    expect(termCounts(rows).counts.get('@dated-row')).toBe(8);
  });

  it('reads a periodic bill of dated charges as an invoice', () => {
    const charges = Array.from(
      { length: 28 },
      (_, i) =>
        `${String(i + 1).padStart(2, '0')}.03.2024    Data roaming day pass    1    ${(3 + i / 10).toFixed(2)}`,
    );
    const text = [
      'Kestrel Mobile',
      'Your bill',
      'Customer number    C-80412',
      'Bill date    01.04.2024',
      'Alder Consulting Ltd',
      '4 Mill Road, Leeds',
      'Charges from 01.03.2024 to 31.03.2024',
      'Total to pay    118.40',
      'We will collect the amount by direct debit after 15.04.2024.',
      'Date    Description    Qty    Amount',
      ...charges,
      'Total    118.40',
    ].join('\n');
    expect(classify(text).id).toBe('invoice');
  });
});

describe('names of types in the first lines', () => {
  it('reads an invoice quoting its purchase order beside its letterhead as an invoice', () => {
    // Two columns read line by line: the letterhead at the left, the invoice's labels at the right.
    const text = [
      'Bill',
      'Brightwater Textiles    Bill number    INV-2022-6147',
      'Ltd.    Bill date    23-08-2022',
      'Services for business',
      'Customer ID C-25748 Purchase Order    PO532575',
      'Unit 4, Riverside Park',
      'Zephyr Logistics AG',
      '88 King Street West',
      'Amount due    738.19',
      'Payment due    07-09-2022',
      'Description    Qty    Price    Amount',
      'Site survey    1    738.19    738.19',
      'Total    738.19',
    ].join('\n');
    expect(classify(text).id).toBe('invoice');
  });

  it("leaves a sheet's name out: a receipt typed into a sheet named after invoices", () => {
    const lines = [
      'Invoice data',
      'FRESH BASKET GROCERS',
      '77 Harbor Road',
      '21.04.2025  12:09  REG 2',
      'Receipt No.: R464447',
      'Orange juice 1 @ 6.78    6.78',
      'Total    6.78',
      'Payment Type    Cash',
      'Change    3.22',
    ];
    const view = buildDocumentView([{ output: textToParseOutput([lines.join('\n')]) }]);
    const sheet: DocumentView = {
      ...view,
      pages: view.pages.map((p) => ({ ...p, sheetIndex: 0 })),
    };
    expect(offlineClassify(sheet, { classifications }).id).toBe('receipt');
  });
});
