/**
 * Documents whose type their title does not settle, read by what they do and how their rows are
 * made: a payment asked for (an invoice), an order placed (a purchase order), a payment
 * acknowledged (a receipt), rows of goods priced out (not a letter); a type's name quoted beside
 * a figure names another document; a title spaced out letter by letter is still a title.
 */
import { describe, expect, it } from 'vitest';
import { solidWords, termCounts } from '../../src/processors/offline/term-model.ts';
import { classifyBusiness } from './business-classify.ts';

const classify = classifyBusiness;

const letterhead = [
  'Quarry Hill Studio',
  'Architects and surveyors',
  '12 Tanner Row',
  'York YO1 6JB',
  'Tel. +44 1904 220 118',
  'office@quarryhill.example',
];

describe('a title spaced out letter by letter', () => {
  it('is written solid, a single letter in a sentence is not', () => {
    expect(solidWords('I N V O I C E')).toBe('INVOICE');
    expect(solidWords('R e c e i p t  No. 12')).toBe('Receipt  No. 12');
    expect(solidWords('Plan A or B')).toBe('Plan A or B');
  });

  it('names the document', () => {
    const text = [
      ...letterhead,
      'I N V O I C E',
      'Harbour Foods Ltd    No.    Q-2291',
      '4 Dock Street    Date    03/04/2024',
      'Site survey    1,200.00',
      'Net    1,200.00',
      'VAT 20%    240.00',
      'Gross    1,440.00',
    ];
    expect(classify(text).id).toBe('invoice');
  });
});

describe('what a document does', () => {
  it('reads a fee note that asks for payment as an invoice', () => {
    const text = [
      ...letterhead,
      'Note of fees',
      'To: Harbour Foods Ltd, 4 Dock Street, Hull',
      'Our reference: Q-2291',
      'Date: 03/04/2024',
      'To professional services rendered in connection with the new cold store:',
      'Fees    3,600.00',
      'VAT at 20%    720.00',
      'Amount now payable    4,320.00',
      'Payable by 03/05/2024. Kindly make transfers to our client account, quoting Q-2291.',
    ];
    expect(classify(text).id).toBe('invoice');
  });

  it('reads a letter that places an order as a purchase order', () => {
    const text = [
      'Harbour Foods Ltd',
      '4 Dock Street, Hull HU1 1TH',
      'Northern Packaging Co.',
      '7 Mill Lane, Leeds',
      'Date: 03/04/2024',
      'Our order no.: OR-7715',
      'Dear colleagues,',
      'Kindly send us the goods below for delivery by 20/04/2024, at the prices of your list:',
      'Description    Qty    Rate    Total',
      'Cardboard box, large    40    1.85    74.00',
      'Packing tape, brown    24    2.10    50.40',
      'Pallet wrap roll    6    14.50    87.00',
      'Total    211.40',
      'Payment on our usual terms. Please confirm the delivery date by return.',
      'Kind regards,',
      'Rahul Tanaka',
      'Buying, Harbour Foods Ltd',
    ];
    expect(classify(text).id).toBe('po');
  });

  it('reads a message asking for goods without prices as a purchase order', () => {
    const text = [
      'Harbour Foods Ltd, 4 Dock Street, Hull',
      '03/04/2024',
      'Hello Sam,',
      'Please supply the following for the new cold store, at the prices agreed for this year:',
      '40 cardboard boxes, large',
      '24 rolls of packing tape, brown',
      '6 pallet wrap rolls',
      'Please deliver them to our Hull depot by Friday.',
      'Thanks,',
      'Rahul Tanaka',
    ];
    expect(classify(text).id).toBe('po');
  });

  it('reads a receipt book voucher as a receipt', () => {
    const text = [
      'Maple Street Cleaning',
      'Windows, gutters and conservatories',
      '88 King Street West',
      'Toronto, ON M5H 1J9',
      'Tel. +1 416 555 0182',
      'hello@maplestreet.example',
      'No. 0042    May 20, 2025',
      'Received with thanks from Mrs J. Okafor',
      'the sum of $22.20',
      'being payment for window cleaning, May',
      'Amount    $18.50',
      'Tax 20%    $3.70',
      'Total    $22.20',
      'Signed K. Novak',
    ];
    expect(classify(text).id).toBe('receipt');
  });

  it('counts a payment asked for, an order placed, a payment acknowledged', () => {
    const has = (term: string, line: string) => termCounts([line]).counts.has(term);
    expect(has('@payment-asked', 'Please transfer the total by 20/02/2024.')).toBe(true);
    expect(has('@payment-asked', 'Payable by 24.12.2023')).toBe(true);
    expect(has('@payment-asked', 'Payment terms: Net 30')).toBe(false);
    expect(has('@ordering', 'We would like to order the following for delivery by May.')).toBe(
      true,
    );
    expect(has('@ordering', 'Please quote our number on all invoices.')).toBe(true);
    expect(has('@ordering', 'Thank you for your order.')).toBe(false);
    expect(has('@paid', 'Received with thanks from Mr P. Lindqvist')).toBe(true);
    expect(has('@paid', 'Paid with PayPal')).toBe(true);
    expect(has('@paid', 'Paid by    Cash')).toBe(true);
    expect(has('@paid', 'Payment by bank transfer within 30 days')).toBe(false);
    expect(has('@paid', 'Payment method    Mastercard •••• 1258')).toBe(true);
    expect(has('@paid', 'Card account    4929 **** **** 1150')).toBe(false);
  });
});

describe('rows of goods priced out', () => {
  it('counts rows whose quantity and unit price multiply to their amount', () => {
    const priced = (line: string) => termCounts([line]).counts.has('@priced-row');
    expect(priced('Cable ties, 100 pack    19    448,68    8 524,92')).toBe(true);
    expect(priced('Office chair, mesh    364.42 GBP    15    5,466.30 GBP')).toBe(true);
    expect(priced('Cloud storage 1 TB / month    14    CHF 361.60    CHF 5\u2019062.40')).toBe(
      true,
    );
    // A statement's row, a letter's table of units and revenue, a total.
    expect(priced('02/03/2024    Card payment    54.10    1,234.00')).toBe(false);
    expect(priced('Widgets    Leeds    120    48,210.00')).toBe(false);
    expect(priced('Total    211.40')).toBe(false);
  });
});

describe('a type named beside a figure after the title zone', () => {
  it('reads an untitled invoice quoting its order as an invoice', () => {
    const text = [
      ...letterhead,
      'Harbour Foods Ltd    Date    06/01/2024',
      '4 Dock Street    Ref.    INV-2024-2252',
      'Hull HU1 1TH    PO    PO196078',
      'Item    Quantity    Unit Price    Amount',
      'Site survey    1    1,200.00    1,200.00',
      'Design review    3    400.00    1,200.00',
      'Subtotal    2,400.00',
      'Tax 20%    480.00',
      'Total    2,880.00',
      'Please transfer the total to the account below by 20/02/2024. Thank you!',
      'IBAN NL91 ABNA 0417 1643 00',
    ];
    expect(classify(text).id).toBe('invoice');
  });

  it('reads a letter acknowledging a payment against an invoice as a letter', () => {
    const text = [
      ...letterhead,
      '17 August 2022',
      'Ms. Jane Lopez',
      'Greenfield Textiles Ltd',
      '88 King Street West, Manchester',
      'Your account',
      'Dear Jane Lopez,',
      'Thank you: we have received your payment of 801.45 on 17-08-2022 against invoice INV-3014.',
      'Your account balance is now 0.00 and nothing further is due.',
      'Should you have any questions, do not hesitate to contact our office.',
      'Sincerely,',
      'Aiko Osei',
      'Head of Finance',
    ];
    expect(classify(text).id).toBe('letter');
  });
});

describe('a word on several of the first lines', () => {
  it('is boosted once, as one title word', () => {
    const counts = termCounts([
      'Your order',
      'Order number    R906298',
      'Ordered on    18 Nov 2025',
    ]);
    expect(counts.counts.get('order')).toBe(5);
  });

  it('reads a marketplace order page paid by card as a receipt', () => {
    const text = [
      'Pixel Electronics',
      'www.pixel.example · My account · Orders',
      'Your order',
      'Ordered on    Nov 18, 2025',
      'Order number    R906298',
      'Delivery status    Delivered',
      'Paid with    Visa •••• 7154',
      'Description    Qty    Total',
      'Phone charger    1    11.68',
      'Batteries AA    2    23.84',
      'Items    35.52',
      'VAT 20%    7.10',
      'Grand total    42.62',
      'Sold and dispatched by Pixel Electronics. Returns accepted within 30 days.',
    ];
    expect(classify(text).id).toBe('receipt');
    const named = text.map((l) =>
      l.startsWith('Paid with') ? 'Payment method    Mastercard •••• 1258' : l,
    );
    expect(classify(named).id).toBe('receipt');
  });
});

describe('a document naming itself beside its letterhead', () => {
  it('counts its own number and date labels with its name, a quoted name as a label', () => {
    const lines = [
      'Stark & Wayne Consulting Group GmbH',
      '77 Harbor Road    Order No.    PO-2704',
      'Austin, TX 78701    PO Date    2022-04-17',
      'Customer ID C-25748    Purchase Order    PO532575',
    ];
    const { labelled } = termCounts(lines);
    // "PO Date" names the order itself: of its boosted count, one stays with the name; the
    // quoted "Purchase Order" (counted once, no longer boosted) is a label.
    expect(labelled.get('purchase_order')).toEqual({ count: 2 + 1, lines: 1 });
  });

  it('reads an order whose foot speaks of invoices as a purchase order', () => {
    const text = [
      'Stark & Wayne Consulting Group GmbH',
      '77 Harbor Road    Order No.    PO-2704',
      'Austin, TX 78701    PO Date    2022-04-17',
      'Tel. +36 849 323 1201    Delivery Date    2022-05-14',
      'billing@starkwaynecons.example    Terms    Net 30',
      'Supplier    Invoice address',
      'Stark & Wayne Design Studio    Stark & Wayne Consulting Group GmbH',
      '9 Elm Avenue    accounts payable, billing@starkwaynecons.example',
      'Quantity    Item    Unit Rate    Line Amount',
      '8    Paint, matte white 10 L    158.83    1,270.64',
      '3    Consulting hours    298.78    896.34',
      'Order Amount    2,166.98',
      'Please quote PO-2704 on your invoice and delivery note.',
      'Invoices without an order number will be returned unpaid.',
      'Ordered by Peter Kowalski',
    ];
    expect(classify(text).id).toBe('po');
  });

  it('reads "Invoices to" as the party invoiced, not the name of an invoice', () => {
    const { counts } = termCounts(['x', 'x', 'x', 'x', 'x', 'x', 'Invoices to']);
    expect(counts.has('invoice')).toBe(false);
    expect(counts.has('customer')).toBe(true);
  });
});
