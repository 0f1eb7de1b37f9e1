/**
 * Families of the wave `w3c` (development half only, ids `dev-w3c-…`): documents whose type is
 * hard to tell for reasons the earlier waves do not have. A marketplace's order page printed after
 * the order was paid (a receipt that speaks only of an order), a receipt book's voucher under a
 * heavy letterhead ("Received with thanks the sum of …"), an invoice under a heavy letterhead
 * with bank details in its foot and its title spaced out letter by letter, a professional's fee
 * note that never says invoice or bill, an untitled invoice of one line, an order placed by
 * letter ("Dear …, please supply …"), an order form that never writes "PO" or "purchase order",
 * a statement of two to four rows under a summary that never says "statement", a savings
 * account's yearly interest summary, a letter acknowledging a payment (amounts, an invoice's
 * number, "we have received your payment"), a letter announcing a price change with figures.
 * Made at 16:30 on the eighth session; not in `FAMILIES`, `LATER_FAMILIES` or the wave
 * `w3k`, so every document made before keeps its family and its random stream.
 */

import type {
  InvoiceFacts,
  LetterFacts,
  OrderFacts,
  ReceiptFacts,
  StatementFacts,
} from './content.ts';
import { addDays, cents } from './locales.ts';
import type { Element } from './model.ts';
import type { Random } from './random.ts';
import {
  bigLetterhead,
  type Ctx,
  columns,
  doc,
  insideAddress,
  itemsTable,
  letterBody,
  letterhead,
  pairs,
  partyBlock,
  rule,
  salutation,
  space,
  text,
} from './templates.ts';
import { oneItem, type WaveFamily, wave } from './templates-wave3-class.ts';

/** A statement's rows under `header` (date, description, amount, balance). */
function rowsTable(
  f: StatementFacts,
  c: Ctx,
  header: readonly string[],
  rules: 'none' | 'header',
): Element {
  return {
    kind: 'table',
    header,
    rows: f.transactions.map((t) => [
      c.date(t.date),
      t.description,
      c.amount(t.amount),
      c.amount(t.balance),
    ]),
    align: ['left', 'left', 'right', 'right'],
    widths: [0.18, 0.46, 0.18, 0.18],
    rules,
  };
}

/** A word drawn letter by letter with wide spacing, as a designer's title is ("I N V O I C E"). */
const spaced = (word: string): string => word.toUpperCase().split('').join(' ');

/** An order's number without "PO" in it (an order that never calls itself a purchase order). */
function plainOrderNumber(f: OrderFacts, r: Random): OrderFacts {
  const digits = f.number.replace(/\D/g, '').slice(-6).padStart(6, '0');
  return { ...f, number: r.pick([`OR${digits}`, `${digits}`, `ORD-${digits.slice(-5)}`]) };
}

/** A statement of only two to four transactions, its closing balance the last row's. */
function fewRows(f: StatementFacts, r: Random): StatementFacts {
  const transactions = f.transactions.slice(0, r.int(2, 4));
  const last = transactions[transactions.length - 1];
  return { ...f, transactions, closing: last ? last.balance : f.opening };
}

/** A year's interest on savings: a deposit or two and the interest credited at the end. */
function savingsYear(f: StatementFacts, r: Random): StatementFacts {
  const start = `${f.start.slice(0, 4)}-01-01`;
  const end = `${f.start.slice(0, 4)}-12-31`;
  let balance = f.opening;
  const rows: { date: string; description: string; amount: number }[] = [
    { date: addDays(start, r.int(20, 150)), description: 'Transfer in', amount: r.int(100, 2000) },
    {
      date: addDays(start, r.int(160, 300)),
      description: 'Standing order',
      amount: r.int(50, 900),
    },
    {
      date: end,
      description: 'Interest credited',
      amount: cents((f.opening * r.int(8, 40)) / 1000),
    },
  ];
  const transactions = rows.map((t) => {
    balance = cents(balance + t.amount);
    return { ...t, amount: cents(t.amount), balance };
  });
  return { ...f, start, end, transactions, closing: balance };
}

export const WAVE3_AMBIGUOUS_FAMILIES: readonly WaveFamily[] = [
  // ------------------------------------------------------------------- receipts
  wave<ReceiptFacts>(
    {
      name: 'receipt/marketplace-order-page',
      set: 'development',
      type: 'receipt',
      build(f, c) {
        // A marketplace's order page printed after paying: order, dispatch, a card, no "receipt".
        return doc(c, [
          text([f.merchant.name], { size: c.size + 5, bold: true }),
          text([`${f.merchant.web}  ·  My account  ·  Orders`], { size: c.size - 1, muted: true }),
          rule,
          text([c.r.pick(['Order details', 'Your order', 'Order summary'])], {
            size: c.size + 3,
            bold: true,
          }),
          pairs(
            [
              [c.r.pick(['Order placed', 'Ordered on']), c.date(f.date)],
              [c.r.pick(['Order number', 'Order no.']), f.number],
              [c.r.pick(['Status', 'Delivery status']), c.r.pick(['Dispatched', 'Delivered'])],
              [
                c.r.pick(['Payment method', 'Paid with']),
                f.payment === 'card'
                  ? `${c.r.pick(['Visa', 'Mastercard'])} •••• ${f.cardLast4}`
                  : 'Gift card balance',
              ],
            ],
            c.r.pick(['colon', 'tab'] as const),
          ),
          space(),
          itemsTable(c, f.items, ['description', 'quantity', 'amount'], 'header'),
          space(),
          pairs(
            [
              [c.r.pick(['Items', 'Item(s) subtotal']), c.money(f.subtotal)],
              [`VAT ${f.taxRate}%`, c.money(f.tax)],
              [c.r.pick(['Grand total', 'Order total']), c.money(f.total)],
            ],
            'tab',
            { align: 'right', boldLabels: true },
          ),
          space(),
          text([`Sold and dispatched by ${f.merchant.name}. Returns accepted within 30 days.`], {
            size: c.size - 1,
          }),
        ]);
      },
    },
    // A marketplace order is paid by card or gift card, never in cash at a till.
    (f) => ({ ...f, payment: 'card', tendered: f.total }),
  ),
  wave<ReceiptFacts>(
    {
      name: 'receipt/voucher-book',
      set: 'development',
      type: 'receipt',
      build(f, c) {
        // A receipt book's voucher of a trade business under its heavy letterhead, handwritten
        // as it were: "Received with thanks from … the sum of …".
        const item = f.items[0];
        return doc(c, [
          ...bigLetterhead(c, f.merchant),
          rule,
          columns(
            [0.5, 0.5],
            [text([`No. ${f.number}`], { bold: true })],
            [text([c.date(f.date)], { align: 'right' })],
          ),
          space(),
          text([
            `${c.r.pick(['Received with thanks from', 'Received from'])} ${c.r.pick(['Mrs J. Okafor', 'Mr P. Lindqvist', 'Ms A. Ferreira'])}`,
            `the sum of ${c.money(f.total)}`,
            `${c.r.pick(['being payment for', 'in payment of'])} ${item?.description ?? ''}`,
          ]),
          space(),
          pairs(
            [
              [c.r.pick(['Net', 'Amount']), c.money(f.subtotal)],
              [`VAT ${f.taxRate}%`, c.money(f.tax)],
              [c.r.pick(['Total', 'Sum received']), c.money(f.total)],
              [
                c.r.pick(['By', 'Paid by']),
                f.payment === 'cash' ? 'Cash' : `Card ****${f.cardLast4}`,
              ],
            ],
            'tab',
            { boldLabels: true },
          ),
          space(2),
          text([`Signed ${c.r.pick(['T. Marsh', 'R. Adeyemi', 'K. Novak'])}`], { italic: true }),
        ]);
      },
    },
    (f, r) => oneItem(f, r.pick(['boiler service', 'window cleaning, May', 'garden clearance']), r),
  ),
  // ------------------------------------------------------------------- invoices
  wave<InvoiceFacts>({
    name: 'invoice/heavy-letterhead',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A designer's letterhead over a few lines, the title spaced letter by letter, the bank's
      // details in the foot (bank, account, sort code: a statement's words).
      return doc(c, [
        ...bigLetterhead(c, f.vendor),
        text([c.r.pick(['Est. 1994', 'Family run since 1972', 'Registered in England 0481226'])], {
          size: c.size - 2,
          muted: true,
        }),
        rule,
        text([spaced(c.r.pick(['Invoice', 'Bill']))], { size: c.size + 8, bold: true, spacing: 6 }),
        space(),
        columns(
          [0.55, 0.45],
          [text([f.customer.name, ...f.customer.address])],
          [
            pairs(
              [
                ['No.', f.number],
                ['Date', c.date(f.date)],
                ['Your order', f.po],
                ['Please pay by', c.date(f.due)],
              ],
              'tab',
              { align: 'right' },
            ),
          ],
        ),
        space(),
        itemsTable(c, f.items, ['description', 'quantity', 'unit', 'amount'], 'none'),
        space(),
        pairs(
          [
            ['Net', c.money(f.subtotal)],
            [`VAT ${f.taxRate}%`, c.money(f.tax)],
            ['Gross', c.money(f.total)],
          ],
          'tab',
          { align: 'right', boldLabels: true },
        ),
        space(2),
        rule,
        text(
          [
            `Bank: ${c.r.pick(['Northern Trust Bank', 'Harbour Savings Bank', 'First Mutual Bank'])}  ·  Account name: ${f.vendor.name}`,
            `Account no. ${f.customerId.replace(/\D/g, '')}118  ·  Sort code 20-41-77  ·  ${f.vendor.email}`,
          ],
          { size: c.size - 2, muted: true, align: 'center' },
        ),
      ]);
    },
  }),
  wave<InvoiceFacts>({
    name: 'invoice/fee-note',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A professional's fee note (an architect, a solicitor): never says invoice or bill.
      return doc(c, [
        ...letterhead(c, f.vendor, c.r.pick(['right', 'centered'] as const)),
        space(),
        text([c.r.pick(['Fee note', 'Note of fees', 'Account for professional services'])], {
          size: c.size + 3,
          bold: true,
        }),
        space(),
        ...partyBlock('To', f.customer.name, f.customer.address, 'colon'),
        space(),
        pairs(
          [
            ['Our reference', f.number],
            ['Date', c.date(f.date)],
            ['Your reference', f.po],
          ],
          'colon',
        ),
        space(),
        text([
          `To professional services rendered in connection with ${c.r.pick(['the extension at 14 Mill Lane', 'the lease renewal', 'the planning application'])}:`,
        ]),
        itemsTable(c, f.items, ['description', 'quantity', 'unit', 'amount'], 'header'),
        space(),
        pairs(
          [
            ['Fees', c.money(f.subtotal)],
            [`VAT at ${f.taxRate}%`, c.money(f.tax)],
            [c.r.pick(['Amount now payable', 'Total payable']), c.money(f.total)],
          ],
          'tab',
          { align: 'right', boldLabels: true },
        ),
        space(),
        text([
          `Payable by ${c.date(f.due)}. Kindly make transfers to our client account, quoting ${f.number}.`,
        ]),
      ]);
    },
  }),
  wave<InvoiceFacts>({
    name: 'invoice/untitled-one-line',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A freelancer's invoice without a title: a letterhead, the client, the work, the sum.
      return doc(c, [
        ...letterhead(c, f.vendor, c.r.pick(['plain', 'logo'] as const)),
        space(2),
        columns(
          [0.55, 0.45],
          [text([f.customer.name, ...f.customer.address])],
          [
            pairs(
              [
                ['Date', c.date(f.date)],
                ['Ref.', f.number],
                ['PO', f.po],
              ],
              'tab',
              { align: 'right' },
            ),
          ],
        ),
        space(2),
        itemsTable(c, f.items, ['description', 'quantity', 'unit', 'amount'], 'none'),
        space(),
        pairs(
          [
            ['Subtotal', c.money(f.subtotal)],
            [`Tax ${f.taxRate}%`, c.money(f.tax)],
            ['Total', c.money(f.total)],
          ],
          'tab',
          { align: 'right' },
        ),
        space(),
        text([
          `Please transfer the total to the account below by ${c.date(f.due)}. Thank you!`,
          `IBAN NL91 ABNA 0417 1643 00  ·  ${f.vendor.email}`,
        ]),
      ]);
    },
  }),
  // ------------------------------------------------------------------- orders
  wave<OrderFacts>(
    {
      name: 'purchase_order/order-by-letter',
      set: 'development',
      type: 'purchase_order',
      build(f, c) {
        // An order placed by letter: a salutation, "please supply", a table, a close.
        return doc(c, [
          ...letterhead(c, f.buyer, c.r.pick(['plain', 'banner'] as const)),
          space(),
          text([f.vendor.name, ...f.vendor.address]),
          space(),
          pairs(
            [
              ['Date', c.date(f.date)],
              ['Our order no.', f.number],
            ],
            'colon',
          ),
          space(),
          text([c.r.pick(['Dear Sales Team,', 'Dear Sir or Madam,', 'Dear colleagues,'])]),
          space(),
          text([
            `${c.r.pick(['Please supply the following', 'We would like to order the following', 'Kindly send us the goods below'])} for delivery by ${c.date(f.delivery)}, at the prices of your current list:`,
          ]),
          space(),
          itemsTable(c, f.items, ['description', 'quantity', 'unit', 'amount'], 'header'),
          pairs([['Total', c.money(f.total)]], 'tab', { align: 'right', boldLabels: true }),
          space(),
          text([
            `Payment on our usual terms (${f.terms}). Please confirm the delivery date by return.`,
          ]),
          space(),
          text([c.r.pick(['Kind regards,', 'Yours faithfully,'])]),
          space(),
          text([f.requester, `Buying, ${f.buyer.name}`]),
        ]);
      },
    },
    (f, r) => ({ ...plainOrderNumber(f, r), shipping: 0, total: f.subtotal }),
  ),
  wave<OrderFacts>(
    {
      name: 'purchase_order/supply-request',
      set: 'development',
      type: 'purchase_order',
      build(f, c) {
        // A buyer's form that never writes "PO" or "purchase order": supplier, deliver to,
        // required by, approved by.
        return doc(c, [
          columns([0.6, 0.4], letterhead(c, f.buyer, 'plain'), [
            text([c.r.pick(['Supply request', 'Goods requisition', 'Procurement'])], {
              size: c.size + 4,
              bold: true,
              align: 'right',
            }),
          ]),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock('Supplier', f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock('Deliver to', f.buyer.name, f.buyer.address, 'bold-above'),
          ),
          space(),
          pairs(
            [
              ['Number', f.number],
              ['Issued', c.date(f.date)],
              ['Required by', c.date(f.delivery)],
              ['Terms', f.terms],
            ],
            c.r.pick(['grid', 'across'] as const),
          ),
          space(),
          itemsTable(c, f.items, ['no', 'description', 'quantity', 'unit', 'amount'], 'grid'),
          space(),
          pairs(
            [
              ...(f.shipping > 0
                ? ([
                    ['Goods', c.money(f.subtotal)],
                    ['Carriage', c.money(f.shipping)],
                  ] as [string, string][])
                : []),
              ['Total value', c.money(f.total)],
            ],
            'tab',
            { align: 'right', boldLabels: true },
          ),
          space(),
          text([`Approved by ${f.requester}`, 'Quote our number on your delivery note.']),
        ]);
      },
    },
    plainOrderNumber,
  ),
  // ------------------------------------------------------------------- statements
  wave<StatementFacts>(
    {
      name: 'bank_statement/few-rows-summary',
      set: 'development',
      type: 'bank_statement',
      build(f, c) {
        // A month with two to four movements under a summary that never says "statement".
        return doc(c, [
          ...bigLetterhead(c, f.bank),
          rule,
          columns(
            [0.55, 0.45],
            [text([f.holder, ...f.holderAddress])],
            [
              pairs(
                [
                  [c.r.pick(['Your account', 'Account']), f.account],
                  ['From', c.date(f.start)],
                  ['To', c.date(f.end)],
                ],
                'tab',
                { align: 'right' },
              ),
            ],
          ),
          space(),
          text([c.r.pick(['Your account summary', 'Account activity', 'Money in and out'])], {
            size: c.size + 3,
            bold: true,
          }),
          pairs(
            [
              ['Previous balance', c.money(f.opening)],
              ['New balance', c.money(f.closing)],
            ],
            'tab',
          ),
          space(),
          rowsTable(f, c, ['Date', 'Details', 'Amount', 'Balance'], 'header'),
        ]);
      },
    },
    fewRows,
  ),
  wave<StatementFacts>(
    {
      name: 'bank_statement/savings-interest',
      set: 'development',
      type: 'bank_statement',
      build(f, c) {
        // A savings account's year: a deposit or two and the interest, as a short summary.
        return doc(c, [
          ...letterhead(c, f.bank, c.r.pick(['logo', 'centered'] as const)),
          space(),
          text([c.r.pick(['Savings account — annual summary', 'Your savings year'])], {
            size: c.size + 3,
            bold: true,
          }),
          space(),
          pairs(
            [
              ['Account holder', f.holder],
              ['Account number', f.account],
              ['Period', `${c.date(f.start)} to ${c.date(f.end)}`],
              ['Balance at start', c.money(f.opening)],
              ['Balance at end', c.money(f.closing)],
            ],
            'colon',
          ),
          space(),
          rowsTable(
            f,
            c,
            ['Date', 'Description', 'Paid in', 'Balance'],
            c.r.pick(['none', 'header'] as const),
          ),
          space(),
          text(
            [
              `Interest is paid gross at ${c.r.pick(['1.10', '2.35', '3.05'])}% AER. Keep this summary for your tax return.`,
            ],
            { size: c.size - 1 },
          ),
        ]);
      },
    },
    savingsYear,
  ),
  // ------------------------------------------------------------------- letters
  wave<LetterFacts>({
    name: 'letter/payment-acknowledgement',
    set: 'development',
    type: 'letter',
    build(f, c) {
      // A letter thanking for a payment: an invoice's number, amounts, "we have received your
      // payment", a balance: a receipt's and an invoice's words in a letter.
      const paid = 120 + ((f.reference.length * 97.35) % 900);
      return doc(c, [
        ...letterhead(c, f.organization, c.r.pick(['plain', 'right'] as const)),
        space(),
        text([c.date(f.date)]),
        space(),
        text(insideAddress(f)),
        space(),
        text([f.subject], { bold: true }),
        space(),
        text([salutation(f, c)]),
        space(),
        text([
          `Thank you: we have received your payment of ${c.money(paid)} on ${c.date(f.date)} against invoice INV-${f.reference.replace(/\D/g, '').slice(0, 5)}.`,
          `Your account balance is now ${c.money(0)} and nothing further is due.`,
        ]),
        space(),
        ...letterBody(f, c).slice(3),
      ]);
    },
  }),
  wave<LetterFacts>({
    name: 'letter/price-notice',
    set: 'development',
    type: 'letter',
    build(f, c) {
      // A supplier's notice of new prices from a date, quoting old and new unit prices.
      const items = ['Standard delivery', 'Express delivery', 'Pallet storage, per week'];
      return doc(c, [
        ...letterhead(c, f.organization, 'banner'),
        space(),
        columns(
          [0.6, 0.4],
          [text(insideAddress(f))],
          [
            pairs(
              [
                ['Date', c.date(f.date)],
                ['Customer no.', f.reference],
              ],
              'tab',
            ),
          ],
        ),
        space(),
        text([f.subject], { bold: true }),
        space(),
        ...letterBody(f, c).slice(0, 3),
        text([`From ${c.date(addDays(f.date, 30))} the following prices apply:`]),
        {
          kind: 'table',
          header: ['Service', 'Now', 'From then'],
          rows: items.map((s, n) => [s, c.amount(12.5 + n * 7), c.amount(13.25 + n * 7.4)]),
          align: ['left', 'right', 'right'],
          widths: [0.5, 0.25, 0.25],
          rules: 'header',
        },
        space(),
        ...letterBody(f, c).slice(3),
      ]);
    },
  }),
];
