/**
 * The third wave's classification families (development half only, ids `dev-w3k-…`): documents
 * whose type their title does not settle. Receipts that never say "receipt" (a web shop's
 * confirmation of a paid order, a card terminal's slip, a fuel station's ticket, a car park's
 * ticket, a restaurant's bill), invoices that look like receipts or statements (a paid invoice,
 * a pro-forma invoice, a periodic bill with an account number and a billing period), orders that
 * look like invoices (payment terms, tax, an invoicing address), statements of accounts that are
 * no current account (a credit card, a loan), letters that carry a table of figures. Made at
 * 13:50 on the second day; not in `FAMILIES` or `LATER_FAMILIES`, so every document made before
 * keeps its family and its random stream.
 */

import type {
  Facts,
  InvoiceFacts,
  LetterFacts,
  OrderFacts,
  ReceiptFacts,
  StatementFacts,
} from './content.ts';
import { cents } from './locales.ts';
import type { DocType } from './model.ts';
import type { Random } from './random.ts';
import {
  bigLetterhead,
  type Ctx,
  columns,
  doc,
  type Family,
  insideAddress,
  invoiceTotals,
  itemOrder,
  itemsTable,
  later,
  letterBody,
  letterhead,
  MONO,
  orderTotals,
  pageNumbers,
  pairs,
  partyBlock,
  paymentLines,
  period,
  receiptItems,
  rule,
  space,
  subjectLine,
  text,
  transactionsTable,
} from './templates.ts';

/** A receipt's totals as its foot prints them. */
function receiptTotals(f: ReceiptFacts, c: Ctx): [string, string][] {
  return [
    [c.w('subtotal'), c.money(f.subtotal)],
    [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
    [c.w('receipt.total'), c.money(f.total)],
  ];
}

/** A card's name and its last digits as a terminal prints them. */
function cardName(f: ReceiptFacts, c: Ctx): string {
  return `${c.r.pick(['VISA', 'MASTERCARD', 'MAESTRO', 'AMEX'])} ************${f.cardLast4}`;
}

/** Facts whose one item is `description` at the receipt's own total (a parking fee). */
export function oneItem(f: ReceiptFacts, description: string, r: Random): ReceiptFacts {
  const amount = cents(r.int(150, 4800) / 100);
  const tax = cents((amount * f.taxRate) / 100);
  const total = cents(amount + tax);
  return {
    ...f,
    items: [{ description, quantity: 1, unitPrice: amount, amount }],
    subtotal: amount,
    tax,
    total,
    tendered: f.payment === 'cash' ? Math.ceil(total / 5) * 5 : total,
  };
}

/** A family of the wave, with facts of its own shape when the family needs them. */
export interface WaveFamily extends Family {
  /** Facts this family prints, derived from the type's usual facts (a parking fee). */
  readonly facts?: (f: Facts, r: Random) => Facts;
}

/** A family of a wave, with the facts it prints when they differ from the type's usual ones. */
export const wave = <F extends Facts>(
  family: Family<F>,
  facts?: (f: F, r: Random) => F,
): WaveFamily => ({
  ...later(family),
  ...(facts ? { facts: facts as unknown as (f: Facts, r: Random) => Facts } : {}),
});

export const WAVE3_CLASS_FAMILIES: readonly WaveFamily[] = [
  // ------------------------------------------------------------------- receipts
  wave<ReceiptFacts>({
    name: 'receipt/webshop-confirmation',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A web shop's e-mail or page confirming an order already paid: never says "receipt".
      return doc(c, [
        ...letterhead(c, f.merchant, c.r.pick(['plain', 'logo', 'banner'] as const)),
        space(),
        text(
          [
            c.r.pick([
              'Thank you for your order!',
              'Your order is confirmed',
              'Order confirmation',
            ]),
          ],
          {
            size: c.size + 4,
            bold: true,
          },
        ),
        text([
          c.r.pick([
            'We have received your payment and your parcel is being packed.',
            'Your payment was successful. We will let you know when your items ship.',
          ]),
        ]),
        space(),
        pairs(
          [
            [c.r.pick(['Order number', 'Order #', 'Order ID']), f.number],
            [c.r.pick(['Order date', 'Placed on', 'Date']), `${c.date(f.date)} ${f.time}`],
            [
              c.r.pick(['Payment', 'Paid by', 'Payment method']),
              f.payment === 'card'
                ? `${c.r.pick(['Visa', 'Mastercard'])} ending in ${f.cardLast4}`
                : 'Cash on collection',
            ],
          ],
          c.r.pick(['colon', 'tab'] as const),
        ),
        space(),
        itemsTable(
          c,
          f.items,
          c.r.pick([
            ['description', 'quantity', 'unit', 'amount'],
            ['description', 'quantity', 'amount'],
          ] as const) as never,
          'header',
        ),
        space(),
        pairs(
          [
            [c.w('subtotal'), c.money(f.subtotal)],
            ['Shipping', c.r.pick(['Free', 'FREE', '0.00'])],
            [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
            [c.r.pick(['Order total', 'Total', 'Total charged']), c.money(f.total)],
          ],
          'tab',
          { align: 'right', boldLabels: true },
        ),
        space(),
        text([`Questions about your order? Write to ${f.merchant.email}.`], { size: c.size - 1 }),
      ]);
    },
  }),
  wave<ReceiptFacts>({
    name: 'receipt/card-slip',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A card terminal's merchant or customer copy after the till's lines.
      const card = f.payment === 'card';
      return doc(
        c,
        [
          text([f.merchant.name.toUpperCase()], { bold: true, align: 'center' }),
          text([f.merchant.address.join(', ')], { align: 'center', size: c.size - 1 }),
          text([`MID ${f.register}0${f.cardLast4}88  TID 0${f.register}17`], { align: 'center' }),
          rule,
          receiptItems(f, c, c.r.pick(['times', 'at'] as const)),
          rule,
          pairs(receiptTotals(f, c), 'tab', { align: 'right' }),
          rule,
          text([card ? c.r.pick(['SALE', 'PURCHASE']) : 'CASH SALE'], {
            bold: true,
            align: 'center',
          }),
          ...(card
            ? [
                text([cardName(f, c), c.r.pick(['CONTACTLESS', 'CHIP & PIN', 'PIN VERIFIED'])]),
                pairs(
                  [
                    ['AMOUNT', c.money(f.total)],
                    ['AUTH CODE', `${f.cardLast4}${f.register}A`],
                    ['REF', f.number],
                  ],
                  'tab',
                  { align: 'right' },
                ),
                text(['APPROVED'], { bold: true, align: 'center' }),
              ]
            : [pairs([...paymentLines(f, c), ['REF', f.number]], 'tab', { align: 'right' })]),
          text([`${c.date(f.date)}  ${f.time}`], { align: 'center' }),
          text(
            [
              card
                ? c.r.pick(['CARDHOLDER COPY', 'PLEASE RETAIN FOR YOUR RECORDS'])
                : 'PLEASE RETAIN FOR YOUR RECORDS',
            ],
            {
              align: 'center',
            },
          ),
        ],
        { paper: 'receipt', font: c.r.chance(0.5) ? MONO : c.font },
      );
    },
  }),
  wave<ReceiptFacts>({
    name: 'receipt/fuel-station',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A fuel station's ticket: the pump and the shop's items on one slip.
      return doc(
        c,
        [
          text([f.merchant.name], { bold: true, size: c.size + 2, align: 'center' }),
          text([...f.merchant.address, `VAT ID ${f.merchant.taxId}`], {
            align: 'center',
            size: c.size - 1,
          }),
          space(),
          pairs(
            [
              ['Pump', String((Number(f.register) % 8) + 1)],
              [c.r.pick(['Ticket', 'Trans', 'No.']), f.number],
              [c.r.pick(['Date', 'Date/time']), `${c.date(f.date)} ${f.time}`],
            ],
            'tab',
          ),
          rule,
          receiptItems(f, c, c.r.pick(['qty-col', 'times'] as const)),
          rule,
          pairs(receiptTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          pairs(paymentLines(f, c), 'tab', { align: 'right' }),
          space(),
          text([c.r.pick(['Drive safely!', 'See you at the next fill-up'])], { align: 'center' }),
        ],
        { paper: 'receipt' },
      );
    },
  }),
  wave<ReceiptFacts>(
    {
      name: 'receipt/car-park',
      set: 'development',
      type: 'receipt',
      build(f, c) {
        // A car park's pay station ticket: entry, exit, duration and the fee, paid.
        const [h, m] = f.time.split(':').map(Number) as [number, number];
        const entry = `${String(Math.max(0, h - 2)).padStart(2, '0')}:${String((m + 17) % 60).padStart(2, '0')}`;
        return doc(
          c,
          [
            text([f.merchant.name], { bold: true, align: 'center' }),
            text([f.merchant.address[0] ?? ''], { align: 'center' }),
            rule,
            pairs(
              [
                [c.r.pick(['Ticket no.', 'Ticket', 'Transaction']), f.number],
                ['Entry', `${c.date(f.date)} ${entry}`],
                ['Exit', `${c.date(f.date)} ${f.time}`],
                ['Machine', `APS ${f.register}`],
              ],
              'tab',
            ),
            rule,
            receiptItems(f, c, 'times'),
            pairs(receiptTotals(f, c), 'tab', { align: 'right' }),
            pairs(paymentLines(f, c), 'tab', { align: 'right' }),
            space(),
            text([c.r.pick(['Have a safe journey', 'Valid for 15 minutes to exit'])], {
              align: 'center',
            }),
          ],
          { paper: 'receipt', font: MONO },
        );
      },
    },
    (f, r) =>
      oneItem(f, r.pick(['Parking 2h 30min', 'Short stay parking', 'Day tariff parking']), r),
  ),
  wave<ReceiptFacts>({
    name: 'receipt/restaurant-bill',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A restaurant's bill, paid at the table: table, guests, server, the dishes, the payment.
      return doc(
        c,
        [
          text([f.merchant.name], { size: c.size + 5, bold: true, align: 'center', italic: true }),
          text([f.merchant.address.join(' · '), f.merchant.phone], {
            align: 'center',
            size: c.size - 1,
          }),
          space(),
          pairs(
            [
              ['Table', String(Number(f.register) + 3)],
              ['Guests', String((f.items.length % 4) + 1)],
              ['Server', f.cashier],
              [c.r.pick(['Check', 'Bill', 'Order']), f.number],
              [c.w('receipt.date'), `${c.date(f.date)} ${f.time}`],
            ],
            c.r.pick(['tab', 'colon'] as const),
          ),
          rule,
          receiptItems(f, c, c.r.pick(['qty-col', 'times'] as const)),
          rule,
          pairs(receiptTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          pairs(paymentLines(f, c), 'tab', { align: 'right' }),
          text(['Gratuity not included. Thank you for dining with us!'], {
            align: 'center',
            italic: true,
          }),
        ],
        { paper: c.r.pick(['receipt', 'a4'] as const) },
      );
    },
  }),
  // ------------------------------------------------------------------- invoices
  wave<InvoiceFacts>({
    name: 'invoice/paid',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // An invoice settled by card at the time of sale: "PAID", the card, a balance of nil.
      return doc(c, [
        columns([0.6, 0.4], letterhead(c, f.vendor, 'plain'), [
          text([c.w('invoice.title')], { size: c.size + 6, bold: true, align: 'right' }),
          text(['PAID'], { size: c.size + 4, bold: true, muted: true, align: 'right', spacing: 2 }),
        ]),
        space(),
        columns(
          [0.5, 0.5],
          partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'bold-above'),
          [
            pairs(
              [
                [c.w('invoice.number'), f.number],
                [c.w('invoice.date'), c.date(f.date)],
                [c.w('invoice.due'), c.date(f.due)],
                [c.w('invoice.po'), f.po],
              ],
              'tab',
              { align: 'right' },
            ),
          ],
        ),
        space(),
        itemsTable(c, f.items, itemOrder(c), c.r.pick(['header', 'grid'] as const)),
        space(),
        pairs(
          [
            ...invoiceTotals(f, c),
            [c.r.pick(['Paid by card', 'Payment received']), c.money(f.total)],
            [c.r.pick(['Balance', 'Outstanding']), c.money(0)],
          ],
          'tab',
          { align: 'right', boldLabels: true },
        ),
        space(),
        text([`Paid in full on ${c.date(f.date)}. No further payment is required.`]),
      ]);
    },
  }),
  wave<InvoiceFacts>({
    name: 'invoice/proforma',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A pro-forma invoice: payment asked before the goods ship.
      return doc(
        c,
        [
          ...letterhead(c, f.vendor, c.r.pick(['right', 'centered'] as const)),
          space(),
          text([c.r.pick(['PRO FORMA INVOICE', 'Pro-forma Invoice', 'Proforma'])], {
            size: c.size + 5,
            bold: true,
          }),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'above'),
            [
              pairs(
                [
                  ['Pro forma no.', f.number],
                  [c.w('invoice.date'), c.date(f.date)],
                  [c.w('invoice.po'), f.po],
                  [c.r.pick(['Payment due', 'Pay before']), c.date(f.due)],
                ],
                'colon',
              ),
            ],
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'shaded'),
          space(),
          pairs(invoiceTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          space(),
          text([
            'Goods are dispatched once payment has been received.',
            `Bank transfer to IBAN GB29 NWBK 6016 1331 9268 19, reference ${f.number}.`,
          ]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  }),
  wave<InvoiceFacts>({
    name: 'invoice/periodic-bill',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A utility's or telecom's bill: an account number and a billing period, dated charges.
      const rows = f.items.map((i) => [
        c.date(f.date),
        i.description,
        c.quantity(i.quantity),
        c.amount(i.unitPrice),
        c.amount(i.amount),
      ]);
      return doc(
        c,
        [
          columns([0.55, 0.45], bigLetterhead(c, f.vendor), [
            text([c.r.pick(['Your bill', 'Bill', 'Invoice'])], {
              size: c.size + 6,
              bold: true,
              align: 'right',
            }),
            pairs(
              [
                [c.r.pick(['Bill number', c.w('invoice.number')]), f.number],
                [c.r.pick(['Bill date', c.w('invoice.date')]), c.date(f.date)],
                [c.w('invoice.customerId'), f.customerId],
                [c.w('invoice.po'), f.po],
              ],
              'tab',
              { align: 'right' },
            ),
          ]),
          space(),
          text([f.customer.name, ...f.customer.address]),
          space(),
          pairs(
            [
              ['Billing period', `${c.date(f.date)} - ${c.date(f.due)}`],
              [c.r.pick(['Amount due', 'Total to pay']), c.money(f.total)],
              [c.r.pick(['Payment due', 'Due date']), c.date(f.due)],
            ],
            c.r.pick(['grid', 'tab'] as const),
          ),
          space(),
          {
            kind: 'table',
            header: [
              'Date',
              c.w('item.description'),
              c.w('item.quantity'),
              c.w('item.unit'),
              c.w('item.amount'),
            ],
            rows,
            align: ['left', 'left', 'right', 'right', 'right'],
            widths: [0.16, 0.4, 0.1, 0.16, 0.18],
            rules: 'header',
          },
          space(),
          pairs(invoiceTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          space(),
          text(
            [`We will collect ${c.money(f.total)} by direct debit on or after ${c.date(f.due)}.`],
            { size: c.size - 1 },
          ),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  }),
  // ------------------------------------------------------------------- orders
  wave<OrderFacts>({
    name: 'purchase_order/invoice-like',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      // An order that reads like an invoice: terms, tax, where to send the invoice.
      return doc(
        c,
        [
          columns([0.6, 0.4], letterhead(c, f.buyer, 'plain'), [
            text([c.r.pick(['ORDER', 'Order', c.w('po.title')])], {
              size: c.size + 6,
              bold: true,
              align: 'right',
            }),
            pairs(
              [
                [c.w('po.number'), f.number],
                [c.w('po.date'), c.date(f.date)],
                [c.w('po.delivery'), c.date(f.delivery)],
                [c.w('invoice.terms'), f.terms],
              ],
              'tab',
              { align: 'right' },
            ),
          ]),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock(
              'Invoice address',
              f.buyer.name,
              [`accounts payable, ${f.buyer.email}`],
              'bold-above',
            ),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['grid', 'header'] as const)),
          space(),
          pairs(orderTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          space(),
          text([
            `Please quote ${f.number} on your invoice and delivery note.`,
            'Invoices without an order number will be returned unpaid.',
            `Ordered by ${f.requester}`,
          ]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  }),
  wave<OrderFacts>({
    name: 'purchase_order/order-form',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      // A filled order form: a grid of fields, the lines, an authorisation.
      return doc(c, [
        text([f.buyer.name], { size: c.size + 4, bold: true }),
        text([f.buyer.address.join(', ')], { size: c.size - 1 }),
        space(),
        text([c.r.pick(['Order form', 'Supplies order', 'Requisition and order'])], {
          size: c.size + 2,
          bold: true,
        }),
        pairs(
          [
            [c.w('po.number'), f.number],
            [c.w('po.date'), c.date(f.date)],
            [c.w('po.vendor'), f.vendor.name],
            [c.w('po.delivery'), c.date(f.delivery)],
            [c.w('po.shipTo'), f.buyer.address.join(', ')],
            [c.w('invoice.terms'), f.terms],
          ],
          'grid',
        ),
        space(),
        itemsTable(c, f.items, ['no', 'description', 'quantity', 'unit', 'amount'], 'grid'),
        space(),
        pairs(orderTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
        space(),
        text([`Requested by: ${f.requester}`, 'Approved by: ____________________']),
      ]);
    },
  }),
  // ------------------------------------------------------------------- statements
  wave<StatementFacts>({
    name: 'bank_statement/card-account',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      // A credit card account's monthly statement: a minimum payment and its due date.
      const due = f.end;
      return doc(
        c,
        [
          columns([0.6, 0.4], letterhead(c, f.bank, 'plain'), [
            text(
              [c.r.pick(['Credit card statement', 'Card account summary', 'Your card statement'])],
              { bold: true, align: 'right' },
            ),
          ]),
          space(),
          columns(
            [0.5, 0.5],
            [text([f.holder, ...f.holderAddress])],
            [
              pairs(
                [
                  [c.r.pick(['Card account', c.w('statement.account')]), f.account],
                  [c.w('statement.period'), period(f, c)],
                  [c.w('statement.opening'), c.money(f.opening)],
                  [c.w('statement.closing'), c.money(f.closing)],
                  ['Minimum payment', c.money(Math.abs(cents(f.closing * 0.03)))],
                  ['Payment date', c.date(due)],
                ],
                'tab',
                { align: 'right' },
              ),
            ],
          ),
          space(),
          transactionsTable(
            f,
            c,
            c.r.pick(['signed', 'split'] as const),
            c.r.pick(['header', 'shaded'] as const),
          ),
          space(),
          text(['Interest is charged on purchases not paid in full by the payment date.'], {
            size: c.size - 1,
          }),
        ],
        { pageNumbers: c.r.pick(['page-of', 'page'] as const) },
      );
    },
  }),
  wave<StatementFacts>({
    name: 'bank_statement/loan-account',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      // A savings or loan account held with a building society or a lender, not a bank's
      // current account: no sort code, an account summary, the movements.
      return doc(
        c,
        [
          ...letterhead(c, f.bank, c.r.pick(['banner', 'centered'] as const)),
          space(),
          text(
            [
              c.r.pick([
                'Savings account summary',
                'Loan account statement',
                'Annual account summary',
              ]),
            ],
            { size: c.size + 3, bold: true },
          ),
          pairs(
            [
              [c.w('statement.holder'), f.holder],
              [c.w('statement.account'), f.account],
              [c.w('statement.period'), period(f, c)],
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            c.r.pick(['grid', 'across', 'colon'] as const),
          ),
          space(),
          transactionsTable(
            f,
            c,
            c.r.pick(['signed', 'split'] as const),
            c.r.pick(['header', 'grid'] as const),
          ),
        ],
        { pageNumbers: pageNumbers(c), running: [f.bank.name] },
      );
    },
  }),
  // ------------------------------------------------------------------- letters
  wave<LetterFacts>({
    name: 'letter/with-table',
    set: 'development',
    type: 'letter',
    build(f, c) {
      // A letter about a price change with a table of old and new prices.
      const rows = ['Standard service', 'Priority service', 'Annual support', 'Callout fee'].map(
        (s, n) => [
          s,
          c.amount(40 + n * 35 + (f.reference.length % 7)),
          c.amount(44 + n * 38 + (f.reference.length % 7)),
        ],
      );
      return doc(c, [
        ...letterhead(c, f.organization, c.r.pick(['plain', 'right', 'logo'] as const)),
        space(),
        text(insideAddress(f)),
        space(),
        text([c.date(f.date)]),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c).slice(0, 3),
        {
          kind: 'table',
          header: ['Service', 'Current price', 'New price'],
          rows,
          align: ['left', 'right', 'right'],
          widths: [0.5, 0.25, 0.25],
          rules: c.r.pick(['header', 'grid'] as const),
        },
        space(),
        ...letterBody(f, c).slice(3),
      ]);
    },
  }),
  wave<LetterFacts>({
    name: 'letter/reminder',
    set: 'development',
    type: 'letter',
    build(f, c) {
      // A payment reminder: a letter listing open invoices, their dates and amounts.
      const rows = [0, 1, 2]
        .slice(0, 1 + (f.paragraphs.length % 3))
        .map((n) => [
          `${f.reference.slice(0, 2)}-${1000 + n * 37 + f.reference.length}`,
          c.date(f.date),
          c.amount(120 + n * 211.5),
        ]);
      return doc(c, [
        ...letterhead(c, f.organization, 'plain'),
        space(),
        columns(
          [0.6, 0.4],
          [text(insideAddress(f))],
          [
            pairs(
              [
                [c.w('letter.ref'), f.reference],
                ['Date', c.date(f.date)],
              ],
              'tab',
            ),
          ],
        ),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c).slice(0, 3),
        text(['According to our records the following remain open:']),
        {
          kind: 'table',
          header: ['Reference', 'Dated', 'Open amount'],
          rows,
          align: ['left', 'left', 'right'],
          widths: [0.4, 0.3, 0.3],
          rules: 'header',
        },
        space(),
        ...letterBody(f, c).slice(3),
      ]);
    },
  }),
];

/** The wave's families of a type. */
export function wave3ClassFamiliesOf(type: DocType): WaveFamily[] {
  return WAVE3_CLASS_FAMILIES.filter((f) => f.type === type);
}
