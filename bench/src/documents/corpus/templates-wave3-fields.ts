/**
 * A third wave of development families (ids `dev-w3f-…`, made on the third day): the variety of
 * the scalar fields the offline extractor read worst on documents it had not seen. Where a
 * purchase order names its vendor and buyer (blocks in columns in any order, a vendor only in a
 * window address, a buyer's contact person beside its company), how a receipt says it was paid
 * (a card's type and last digits with or without a label, contactless, cash and change), how a
 * document says its currency (a code in a header, a sentence in words, a symbol on the total
 * alone, a code after every amount, a column's header), dates in more formats and labels (a due
 * date given only as payment terms), customer and holder names under other labels or none, and
 * opening balances in other wordings (a table's first row, a date in the label).
 *
 * Every wording here is the development half's own: none is one of the held-out half's wordings
 * in `wording.ts`, so that the held-out half still measures labels the extractor has not seen.
 * These families are not in `FAMILIES`, so no document made before changes family.
 */
import type { InvoiceFacts, OrderFacts, Party, ReceiptFacts, StatementFacts } from './content.ts';
import { formatMoney, formatNumber, MONTHS, type MoneyStyle } from './locales.ts';
import type { DocType, Element } from './model.ts';
import {
  type Ctx,
  columns,
  doc,
  type Family,
  itemOrder,
  itemsTable,
  later,
  letterhead,
  pageNumbers,
  pairs,
  partyBlock,
  rule,
  space,
  text,
  transactionsTable,
} from './templates.ts';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Date formats the locales' styles do not have. */
type MoreDate = 'ordinal' | 'weekday' | 'mon-dot' | 'unpadded' | 'short-year' | 'comma-month';

function moreDate(iso: string, style: MoreDate): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const month = MONTHS[m - 1] ?? '';
  const weekday = WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()] ?? '';
  const th =
    d % 10 === 1 && d !== 11
      ? 'st'
      : d % 10 === 2 && d !== 12
        ? 'nd'
        : d % 10 === 3 && d !== 13
          ? 'rd'
          : 'th';
  switch (style) {
    case 'ordinal':
      return `${d}${th} ${month} ${y}`;
    case 'weekday':
      return `${weekday.slice(0, 3)}, ${d} ${month.slice(0, 3)} ${y}`;
    case 'mon-dot':
      return `${month.slice(0, 3)}. ${d}, ${y}`;
    case 'unpadded':
      return `${d}/${m}/${y}`;
    case 'short-year':
      return `${d} ${month.slice(0, 3)} ${String(y).slice(2)}`;
    case 'comma-month':
      return `${d} ${month}, ${y}`;
  }
}

/** The document's dates: half the time a format of its own, else its locale's. */
function dater(c: Ctx): (iso: string) => string {
  if (c.r.chance(0.5)) return c.date;
  // Day-first formats only where the locale writes days first; `unpadded` is d/m/y.
  const us = c.locale.id === 'en-US' || c.locale.id === 'en-CA';
  const style = c.r.pick<MoreDate>(
    us
      ? ['mon-dot', 'weekday', 'ordinal', 'comma-month']
      : ['ordinal', 'weekday', 'unpadded', 'short-year', 'comma-month'],
  );
  return (iso) => moreDate(iso, style);
}

/** A currency's name in words, as a sentence says it. */
const CURRENCY_WORDS: Readonly<Record<string, readonly string[]>> = {
  USD: ['US dollars', 'U.S. dollars'],
  GBP: ['pounds sterling', 'sterling'],
  EUR: ['euros', 'euro'],
  CHF: ['Swiss francs'],
  INR: ['Indian rupees', 'rupees'],
  CAD: ['Canadian dollars'],
};

/**
 * How a document says its currency: a code in its header, a sentence in words, a symbol on the
 * total alone (other amounts plain), a code after every amount, or a code in a column's header.
 */
type CurrencyCue = 'header-code' | 'words' | 'total-symbol' | 'code-after' | 'column-code';

interface Money {
  readonly cue: CurrencyCue;
  /** Amounts in tables and totals other than the grand total. */
  readonly amount: (n: number) => string;
  /** The grand total. */
  readonly total: (n: number) => string;
  /** The header of the items' amount column, given the wording's own. */
  readonly column: (header: string) => string;
  /** A line that names the currency (`words`), when the cue is one. */
  readonly sentence?: string;
}

function money(c: Ctx, cue: CurrencyCue): Money {
  const plain = (n: number) => formatNumber(n, c.locale);
  const styled = (style: MoneyStyle) => (n: number) => formatMoney(n, c.locale, style);
  const after = (n: number) => `${formatNumber(n, c.locale)} ${c.locale.currency}`;
  switch (cue) {
    case 'header-code':
      return { cue, amount: plain, total: plain, column: (h) => h };
    case 'words': {
      const words = c.r.pick(CURRENCY_WORDS[c.locale.currency] ?? [c.locale.currency]);
      const sentence = c.r.pick([
        `All amounts in ${words}.`,
        `Amounts are shown in ${words}.`,
        `Prices are quoted in ${words} and include tax where stated.`,
      ]);
      return { cue, amount: plain, total: plain, column: (h) => h, sentence };
    }
    case 'total-symbol':
      return { cue, amount: plain, total: styled('symbol'), column: (h) => h };
    case 'code-after':
      return { cue, amount: after, total: after, column: (h) => h };
    case 'column-code':
      return { cue, amount: plain, total: plain, column: (h) => `${h} (${c.locale.currency})` };
  }
}

/** Picks one of this wave's own wordings, once per document and key (as `c.w` does). */
function worder(c: Ctx): (key: string, list: readonly string[]) => string {
  const chosen = new Map<string, string>();
  return (key, list) => {
    const known = chosen.get(key);
    if (known !== undefined) return known;
    const picked = c.r.pick(list);
    chosen.set(key, picked);
    return picked;
  };
}

const termDays = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 864e5);

/** Items with the amount columns written as `m` writes amounts. */
function moneyItems(c: Ctx, m: Money, list: InvoiceFacts['items']): Element {
  const table = itemsTable(
    c,
    list,
    itemOrder(c),
    c.r.pick(['header', 'grid', 'shaded', 'none'] as const),
  );
  if (table.kind !== 'table') return table;
  // The table's unit and amount cells are the context's amounts: write them again as `m` does.
  const header = table.header.map((h, k) => (k === table.header.length - 1 ? m.column(h) : h));
  const rows = table.rows.map((row, n) =>
    row.map((cell, k) => {
      const item = list[n];
      if (!item) return cell;
      if (cell === c.amount(item.amount) && k === row.length - 1) return m.amount(item.amount);
      if (cell === c.amount(item.unitPrice)) return m.amount(item.unitPrice);
      return cell;
    }),
  );
  return { ...table, header, rows };
}

/** A document's own wordings, date format and currency cue, drawn in this order. */
function drawing(c: Ctx): {
  w: ReturnType<typeof worder>;
  date: (iso: string) => string;
  m: Money;
} {
  const w = worder(c);
  const date = dater(c);
  const m = money(
    c,
    c.r.pick(['header-code', 'words', 'total-symbol', 'code-after', 'column-code'] as const),
  );
  return { w, date, m };
}

// ---------------------------------------------------------------- invoices

/** Where an invoice names its issuer. */
type VendorPlace = 'letterhead' | 'remit-block' | 'footer' | 'right-head';

const invoiceParties: Family<InvoiceFacts> = {
  name: 'invoice/w3f-parties',
  set: 'development',
  type: 'invoice',
  build(f, c) {
    const { w, date, m } = drawing(c);
    const place = c.r.pick<VendorPlace>(['letterhead', 'remit-block', 'footer', 'right-head']);
    const days = termDays(f.date, f.due);
    const dueAsTerms = c.r.chance(0.35);
    const meta: [string, string][] = [
      [
        w('number', ['Invoice Nr.', 'Inv #', 'Invoice no:', 'Our invoice']).replace(/:$/, ''),
        f.number,
      ],
      [w('date', ['Tax date', 'Issued on', 'Document date', 'Date of invoice']), date(f.date)],
      ...(dueAsTerms
        ? []
        : ([
            [w('due', ['Payment due', 'Due for payment', 'Settle by', 'Pay before']), date(f.due)],
          ] as [string, string][])),
      [w('po', ['Your PO', 'PO reference', 'Buyer order no.', 'Purchase order number']), f.po],
      ...(m.cue === 'header-code'
        ? ([[w('currency', ['Currency', 'Invoice currency', 'Ccy']), c.locale.currency]] as [
            string,
            string,
          ][])
        : []),
    ];
    const customerLabel = w('customer', [
      'Customer',
      'Invoice address',
      'Bill-to party',
      'Recipient',
      'Customer name',
    ]);
    const customer: Element[] = c.r.chance(0.5)
      ? partyBlock(
          customerLabel,
          f.customer.name,
          [...f.customer.address, `Attn: ${f.contact}`],
          c.r.pick(['above', 'bold-above', 'colon'] as const),
        )
      : [text([`Attn: ${f.contact}`, f.customer.name, ...f.customer.address])];
    const remit = partyBlock(
      w('remit', ['Remit to', 'Payable to', 'Invoice from', 'Our details']),
      f.vendor.name,
      [...f.vendor.address, f.vendor.email],
      c.r.pick(['above', 'bold-above'] as const),
    );
    const title = text([c.w('invoice.title')], {
      size: c.size + 8,
      bold: true,
      align: place === 'right-head' ? 'left' : 'right',
    });
    const head: Element[] =
      place === 'letterhead'
        ? [
            columns(
              [0.55, 0.45],
              letterhead(c, f.vendor, c.r.pick(['plain', 'logo', 'banner'] as const)),
              [title, pairs(meta, 'tab', { align: 'right' })],
            ),
          ]
        : place === 'right-head'
          ? [
              columns(
                [0.5, 0.5],
                [title, space(), ...customer],
                [
                  text([f.vendor.name], { size: c.size + 4, bold: true, align: 'right' }),
                  text([...f.vendor.address, f.vendor.phone], { size: c.size - 1, align: 'right' }),
                ],
              ),
              space(),
              pairs(meta, c.r.pick(['across', 'grid'] as const)),
            ]
          : [title, space(), pairs(meta, c.r.pick(['colon', 'grid', 'tab'] as const))];
    const parties: Element[] =
      place === 'right-head'
        ? []
        : place === 'remit-block'
          ? [
              columns(
                [0.5, 0.5],
                c.r.chance(0.5) ? remit : customer,
                c.r.chance(0.5) ? customer : remit,
              ),
            ]
          : [columns([0.5, 0.5], customer, [])];
    const totals: [string, string][] = [
      [c.w('subtotal'), m.amount(f.subtotal)],
      [c.w('tax', { rate: String(f.taxRate) }), m.amount(f.tax)],
      [c.w('invoice.total'), m.total(f.total)],
    ];
    const notes: Element[] = [
      ...(dueAsTerms
        ? [
            text([
              c.r.pick([
                `Terms: Net ${days}`,
                `Payment terms: ${days} days net`,
                `Payment within ${days} days of the invoice date.`,
                `Please pay within ${days} days.`,
              ]),
            ]),
          ]
        : []),
      ...(m.sentence ? [text([m.sentence], { size: c.size - 0.5 })] : []),
    ];
    const footer: Element[] =
      place === 'footer'
        ? [
            rule,
            text(
              [
                c.r.pick([
                  `${f.vendor.name} · ${f.vendor.address.join(' · ')} · VAT ${f.vendor.taxId}`,
                  `Registered office: ${f.vendor.name}, ${f.vendor.address.join(', ')}`,
                ]),
              ],
              { size: c.size - 1.5, align: 'center', muted: true },
            ),
          ]
        : [];
    return doc(
      c,
      [
        ...head,
        space(),
        ...parties,
        space(),
        moneyItems(c, m, f.items),
        columns([0.5, 0.5], notes, [
          pairs(totals, 'tab', { align: 'right', boldLabels: c.r.chance(0.5) }),
        ]),
        space(),
        ...footer,
      ],
      { pageNumbers: pageNumbers(c) },
    );
  },
};

// ---------------------------------------------------------------- receipts

/** How a receipt says it was paid. */
function payment(f: ReceiptFacts, c: Ctx, m: Money): Element[] {
  if (f.payment === 'card') {
    const brand = c.r.pick(['VISA', 'MASTERCARD', 'Maestro', 'AMEX', 'Debit Mastercard']);
    return [
      c.r.pick<Element[]>([
        [
          text([
            `${brand} ****${f.cardLast4}`,
            `Auth code: ${String(100000 + f.total * 7).slice(0, 6)}`,
          ]),
        ],
        [text([`Paid by ${brand} ending ${f.cardLast4}`])],
        [text(['CONTACTLESS', `${brand}  XXXX XXXX XXXX ${f.cardLast4}`])],
        [
          pairs(
            [
              ['Card type', brand],
              ['Card no.', `************${f.cardLast4}`],
            ],
            'tab',
            { align: 'right' },
          ),
        ],
        [pairs([[brand, m.total(f.total)]], 'tab', { align: 'right' })],
        [pairs([['Tender', 'Credit card']], 'colon')],
      ]),
    ].flat();
  }
  const change = Math.round((f.tendered - f.total) * 100) / 100;
  return c.r.pick<Element[]>([
    [
      pairs(
        [
          ['CASH', m.amount(f.tendered)],
          ['CHANGE', m.amount(change)],
        ],
        'tab',
        { align: 'right' },
      ),
    ],
    [
      pairs([['Tender', 'Cash']], 'colon'),
      pairs([['Change due', m.amount(change)]], 'tab', { align: 'right' }),
    ],
    [text(['Paid in cash'])],
    [
      pairs(
        [
          ['Cash tendered', m.amount(f.tendered)],
          ['Change', m.amount(change)],
        ],
        'colon',
      ),
    ],
  ]);
}

/** Where a receipt names the shop. */
type ShopName = 'slogan-above' | 'store-number' | 'welcome' | 'spaced' | 'footer-only';

function shopHead(f: ReceiptFacts, c: Ctx, how: ShopName): Element[] {
  const p: Party = f.merchant;
  const address = text([...p.address, p.phone], { align: 'center', size: c.size - 1 });
  switch (how) {
    case 'slogan-above':
      return [
        text([c.r.pick(['Fresh every day', 'Your local favourite', 'Open 7 days a week'])], {
          align: 'center',
          italic: true,
          muted: true,
        }),
        text([p.name], { size: c.size + 3, bold: true, align: 'center' }),
        address,
      ];
    case 'store-number':
      return [
        text([p.name], { size: c.size + 3, bold: true, align: 'center' }),
        text([`Store #${String(100 + Number(f.register) * 37).padStart(4, '0')}`], {
          align: 'center',
        }),
        address,
      ];
    case 'welcome':
      return [text([`Welcome to ${p.name}`], { bold: true, align: 'center' }), address];
    case 'spaced':
      return [
        text([p.name.toUpperCase()], { size: c.size + 2, bold: true, align: 'center', spacing: 2 }),
        address,
      ];
    case 'footer-only':
      return [text([...p.address, p.phone], { align: 'center', size: c.size - 1 })];
  }
}

const receiptPayment: Family<ReceiptFacts> = {
  name: 'receipt/w3f-payment',
  set: 'development',
  type: 'receipt',
  build(f, c) {
    const date = dater(c);
    const m = money(c, c.r.pick(['total-symbol', 'code-after', 'header-code', 'words'] as const));
    const how = c.r.pick<ShopName>([
      'slogan-above',
      'store-number',
      'welcome',
      'spaced',
      'footer-only',
    ]);
    const items: Element = {
      kind: 'table',
      header: [c.w('item.description'), m.column(c.w('item.amount'))],
      rows: f.items.map((i) => [
        i.quantity > 1 ? `${i.quantity} x ${i.description}` : i.description,
        m.amount(i.amount),
      ]),
      align: ['left', 'right'],
      widths: [0.7, 0.3],
      rules: c.r.pick(['none', 'header'] as const),
    };
    return doc(
      c,
      [
        ...shopHead(f, c, how),
        rule,
        pairs(
          [
            [c.w('receipt.number'), f.number],
            [c.w('receipt.date'), `${date(f.date)} ${f.time}`],
            ...(m.cue === 'header-code'
              ? ([['Currency', c.locale.currency]] as [string, string][])
              : []),
          ],
          c.r.pick(['tab', 'colon'] as const),
          { align: 'right' },
        ),
        rule,
        items,
        rule,
        pairs(
          [
            [c.w('subtotal'), m.amount(f.subtotal)],
            [c.w('tax', { rate: String(f.taxRate) }), m.amount(f.tax)],
            [c.w('receipt.total'), m.total(f.total)],
          ],
          'tab',
          { align: 'right', boldLabels: true },
        ),
        space(),
        ...payment(f, c, m),
        space(),
        ...(m.sentence ? [text([m.sentence], { align: 'center', size: c.size - 1 })] : []),
        text(
          [how === 'footer-only' ? `Thank you for visiting ${f.merchant.name}` : c.w('thanks')],
          { align: 'center' },
        ),
      ],
      { paper: c.r.pick(['receipt', 'receipt', 'a4'] as const) },
    );
  },
};

// ---------------------------------------------------------------- purchase orders

const orderParties: Family<OrderFacts> = {
  name: 'purchase_order/w3f-parties',
  set: 'development',
  type: 'purchase_order',
  build(f, c) {
    const { w, date, m } = drawing(c);
    const numberLabel = w('number', [
      'PO No',
      'Order Ref',
      'Our order no.',
      'Purchase order number',
      'PO Ref.',
    ]);
    const inTitle = c.r.chance(0.35);
    const meta: [string, string][] = [
      ...(inTitle ? [] : ([[numberLabel, f.number]] as [string, string][])),
      [w('date', ['Date of order', 'Raised on', 'PO date', 'Order placed']), date(f.date)],
      [
        w('delivery', ['Delivery on or before', 'Wanted by', 'Required by', 'Delivery date']),
        date(f.delivery),
      ],
      ...(m.cue === 'header-code' ? ([['Currency', c.locale.currency]] as [string, string][]) : []),
    ];
    const title = text(
      [inTitle ? `${c.w('po.title')} ${c.r.pick(['', 'No. '])}${f.number}` : c.w('po.title')],
      {
        size: c.size + 6,
        bold: true,
      },
    );
    // The buyer's company in a letterhead, or only in its blocks (a contact person beside it).
    const buyerHead = c.r.chance(0.6);
    const vendorLabel = w('vendor', [
      'Supplier',
      'Vendor',
      'Supplier address',
      'Order placed with',
      'Vendor / Supplier',
    ]);
    const vendorUnlabelled = c.r.chance(0.3);
    const vendor = vendorUnlabelled
      ? [text([f.vendor.name, ...f.vendor.address])]
      : partyBlock(
          vendorLabel,
          f.vendor.name,
          f.vendor.address,
          c.r.pick(['above', 'bold-above', 'colon'] as const),
        );
    const contact = c.r.pick([
      `Buyer: ${f.requester}`,
      `Contact: ${f.requester}`,
      `Ordered by: ${f.requester}`,
      `Attn: ${f.requester}`,
    ]);
    const shipTo = partyBlock(
      w('ship', ['Ship to', 'Deliver to', 'Delivery to']),
      f.buyer.name,
      f.buyer.address,
      'bold-above',
    );
    const billTo = partyBlock(
      w('bill', ['Bill to', 'Invoices to', 'Invoice address']),
      f.buyer.name,
      [...f.buyer.address.slice(0, 1), contact],
      'bold-above',
    );
    const blocks = c.r.sample([vendor, shipTo, billTo], c.r.pick([2, 3]));
    if (!blocks.includes(vendor)) blocks[0] = vendor;
    const totals: [string, string][] = [
      ...(f.shipping > 0
        ? ([
            [c.w('subtotal'), m.amount(f.subtotal)],
            [c.w('po.shipping'), m.amount(f.shipping)],
          ] as [string, string][])
        : []),
      [c.w('po.total'), m.total(f.total)],
    ];
    const head: Element[] = buyerHead
      ? [
          columns(
            [0.55, 0.45],
            letterhead(c, f.buyer, c.r.pick(['plain', 'logo', 'right', 'centered'] as const)),
            [title, pairs(meta, 'tab', { align: 'right' })],
          ),
        ]
      : [
          title,
          pairs(meta, c.r.pick(['colon', 'grid', 'across'] as const)),
          ...(vendorUnlabelled ? [] : [text([contact])]),
        ];
    return doc(
      c,
      [
        ...head,
        space(),
        columns(
          blocks.map(() => 1 / blocks.length),
          ...blocks,
        ),
        space(),
        moneyItems(c, m, f.items),
        columns(
          [0.5, 0.5],
          [
            text([`${c.w('invoice.terms')}: ${f.terms}`]),
            ...(m.sentence ? [text([m.sentence], { size: c.size - 0.5 })] : []),
          ],
          [pairs(totals, 'tab', { align: 'right', boldLabels: true })],
        ),
        space(),
        text([
          `${c.r.pick(['Authorised by', 'Approved', 'Signed for the buyer'])}: ${f.requester}`,
        ]),
      ],
      { pageNumbers: pageNumbers(c) },
    );
  },
};

// ---------------------------------------------------------------- bank statements

/** Where a statement names its bank. */
type BankPlace = 'letterhead' | 'footer' | 'labelled' | 'running';

const statementHolder: Family<StatementFacts> = {
  name: 'bank_statement/w3f-holder',
  set: 'development',
  type: 'bank_statement',
  build(f, c) {
    const w = worder(c);
    const date = dater(c);
    const plain = (n: number) => formatMoney(n, c.locale, c.r.chance(0.5) ? 'plain' : 'symbol');
    const place = c.r.pick<BankPlace>(['letterhead', 'footer', 'labelled', 'running']);
    const honorific = c.r.pick(['', '', 'Mr ', 'Ms ', 'Dr ']);
    const holderShown = c.r.chance(0.3)
      ? `${honorific}${f.holder}`.toUpperCase()
      : `${honorific}${f.holder}`;
    const window = text([holderShown, ...f.holderAddress]);
    const holderLabelled = c.r.chance(0.5);
    const openingInTable = c.r.chance(0.35);
    const startWord = date(f.start);
    const opening = w('opening', [
      'Balance brought forward',
      `Balance on ${startWord}`,
      'Balance b/f',
      `Opening balance on ${startWord}`,
      'Start-of-period balance',
    ]);
    const closing = w('closing', [
      'Closing balance',
      `Balance on ${date(f.end)}`,
      'Balance c/f',
      'End-of-period balance',
    ]);
    const summary: [string, string][] = [
      ...(holderLabelled
        ? ([
            [
              w('holder', ['Account owner', 'Statement for', 'Customer name', 'Account name']),
              f.holder,
            ],
          ] as [string, string][])
        : []),
      ...(place === 'labelled' ? ([['Bank', f.bank.name]] as [string, string][]) : []),
      [w('account', ['Account number', 'Acct no.', 'Account No']), f.account],
      [c.w('statement.sortCode'), f.sortCode],
      [
        w('period', ['Statement period', 'Period covered', 'Dates']),
        `${date(f.start)} to ${date(f.end)}`,
      ],
      ...(openingInTable ? [] : ([[opening, plain(f.opening)]] as [string, string][])),
      [closing, plain(f.closing)],
    ];
    const table = transactionsTable(
      f,
      c,
      c.r.pick(['signed', 'split'] as const),
      c.r.pick(['header', 'grid', 'shaded'] as const),
    );
    const withOpening: Element =
      openingInTable && table.kind === 'table'
        ? {
            ...table,
            rows: [
              table.header.map((_, k) =>
                k === 0
                  ? date(f.start)
                  : k === 1
                    ? opening
                    : k === table.header.length - 1
                      ? c.amount(f.opening)
                      : '',
              ),
              ...table.rows,
            ],
          }
        : table;
    const head: Element[] =
      place === 'letterhead'
        ? letterhead(c, f.bank, c.r.pick(['plain', 'logo', 'right', 'banner'] as const))
        : place === 'running'
          ? // A running header prints from the second page on (or not at all): the first page
            // names the bank in a small line of its own.
            [text([`${f.bank.name} · ${f.bank.web}`], { size: c.size - 1.5, muted: true })]
          : [
              text([c.r.pick(['Your statement', 'Statement of your account', 'Current account'])], {
                size: c.size + 6,
                bold: true,
              }),
            ];
    const footer: Element[] =
      place === 'footer'
        ? [
            rule,
            text(
              [
                c.r.pick([
                  `${f.bank.name} is authorised and regulated by the financial supervisor. ${f.bank.address.join(', ')}.`,
                  `${f.bank.name} · ${f.bank.address.join(' · ')} · ${f.bank.web}`,
                ]),
              ],
              { size: c.size - 1.5, muted: true },
            ),
          ]
        : [];
    return doc(
      c,
      [
        ...head,
        space(),
        columns(
          [0.5, 0.5],
          [window],
          [pairs(summary, c.r.pick(['tab', 'grid', 'colon'] as const), { align: 'right' })],
        ),
        space(),
        withOpening,
        space(),
        ...footer,
      ],
      {
        pageNumbers: c.r.pick(['page-of', 'page'] as const),
        ...(place === 'running' ? { running: [`${f.bank.name} · ${f.bank.web}`] } : {}),
      },
    );
  },
};

/** The wave's families (development only), one or more per type. */
export const WAVE3_FIELD_FAMILIES: readonly Family[] = [
  later(invoiceParties),
  later(receiptPayment),
  later(orderParties),
  later(statementHolder),
];

/** The wave's families of a type. */
export function wave3FieldFamiliesOf(type: DocType): Family[] {
  return WAVE3_FIELD_FAMILIES.filter((f) => f.type === type);
}
