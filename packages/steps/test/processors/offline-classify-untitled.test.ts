/**
 * Documents that do not say what they are (no title, or only a small one the reading lost): the
 * type comes from the rest of the evidence, which must not point elsewhere. An order number
 * quoted as `PO-4855` is no "purchase order"; payment terms are on orders as on invoices; a
 * statement's rows begin with dates and carry amounts, whatever words their descriptions use.
 */
import { describe, expect, it } from 'vitest';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { termCounts } from '../../src/processors/offline/term-model.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'invoice', type: 'invoice' },
  { id: 'receipt', type: 'receipt' },
  { id: 'po', type: 'purchase_order' },
  { id: 'stmt', type: 'bank_statement' },
  { id: 'letter', type: 'letter' },
  { id: 'other', type: 'other' },
];

const classify = (text: string) =>
  offlineClassify(buildDocumentView([{ output: textToParseOutput([text]) }]), {
    classifications,
  });

describe('documents that do not name their type', () => {
  it('reads an invoice quoting its order as PO-4855 as an invoice', () => {
    const text = [
      'Hooli Cloud Ltd',
      '12 Market Street, Springfield',
      'Number    2024-117',
      'Date    3 March 2024',
      'Due date    2 April 2024',
      'Your order    PO-4855',
      'Bill To: Initech Corp.',
      'Description    Qty    Amount',
      'Hosting for order PO-4855    1    120.00',
      'Support for order PO-4855    2    80.00',
      'Total    200.00',
      'Amount due    200.00',
    ].join('\n');
    expect(classify(text).id).toBe('invoice');
    expect(termCounts(['Your order PO-4855']).counts.has('purchase_order')).toBe(false);
    expect(termCounts(['PO Number 4855']).counts.has('purchase_order')).toBe(true);
  });

  it('reads no words in e-mail and web addresses', () => {
    const counts = termCounts([
      'accounts@vandelay.example    invoices@hooli.example',
      'www.receipt-printing.example    https://statements.northbank.example/login',
    ]);
    for (const word of ['account', 'invoice', 'receipt', 'statement', 'login'])
      expect(counts.counts.has(word)).toBe(false);
    expect(termCounts(['Accounts payable']).counts.has('account')).toBe(true);
  });

  it('reads an order with payment terms and no title as a purchase order', () => {
    const text = [
      'Juniper Cloud AG',
      'Bahnhofplatz 7, Zürich',
      'Number    77-410',
      'Date    06/07/2022',
      'Deliver by    09/08/2022',
      'Payment Terms    Net 30',
      'Vendor',
      'Riverton Consulting Group',
      'Ship To',
      'Juniper Cloud AG, Bahnhofplatz 7',
      'Description    Quantity    Price    Total',
      'Desk lamp    4    25.00    100.00',
      'Total    100.00',
      'Authorized by Ingrid Rossi',
    ].join('\n');
    expect(classify(text).id).toBe('po');
  });

  it('reads a statement of card payments and cash as a statement by its dated rows', () => {
    const text = [
      'Northbank plc',
      'Maria Meyer, 88 King Street West',
      'Account    4172 5313 9072',
      'Date    Details    Amount    Balance',
      '01/03/2024    Card payment SUPERMARKET    -45.20    1,954.80',
      '02/03/2024    Cash paid in    200.00    2,154.80',
      '04/03/2024    Card payment CAFE    -4.50    2,150.30',
      '05/03/2024    Cash machine    -60.00    2,090.30',
      '09/03/2024    Card payment FUEL    -52.10    2,038.20',
      '12/03/2024    Paid to J SMITH    -120.00    1,918.20',
      '15/03/2024    Card payment BOOKS    -18.99    1,899.21',
      '20/03/2024    Salary    2,400.00    4,299.21',
    ].join('\n');
    expect(classify(text).id).toBe('stmt');
    // A receipt's date line carries no amount; an item row begins with its description.
    const receipt = termCounts(['04/05/2022 19:37 REG 10', 'Pens 10 pack    1    $14.95']);
    expect(receipt.counts.has('@dated-row')).toBe(false);
    expect(termCounts(['Mar 4, 2024    Card payment    -4.50']).counts.get('@dated-row')).toBe(1);
  });
});
