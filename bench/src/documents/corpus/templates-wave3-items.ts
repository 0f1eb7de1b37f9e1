/**
 * The third wave of development families (14:00 on the second day, ids `dev-w3i-…`), aimed at
 * the variety of item tables the development half lacked: till receipts in many shapes (a count
 * or a weight at a unit price on the line under the name, names that wrap, discounts, per-line
 * tax codes, counts right-aligned, no header row, monospaced), bank statements (one amount
 * column with `CR`/`DR`, separate paid-out and paid-in columns, dates without their year,
 * descriptions on two lines, a balance carried forward and brought forward inside the table) and
 * purchase orders (line numbers, part numbers, units of measure, ordered and delivered
 * quantities, tax columns, descriptions that wrap). Each family makes its own facts (weights,
 * discounts, second lines), so the ground truth says what the page prints: a discount is no item
 * (the item keeps the price its line prints), a carried-forward line is no transaction, a
 * description on two lines is both lines joined by a space, an order's quantity is the quantity
 * ordered. Development half only; not in `FAMILIES`, so no document made before moves.
 */
import {
  type Item,
  type OrderFacts,
  orderFacts,
  type ReceiptFacts,
  receiptFacts,
  type StatementFacts,
  statementFacts,
} from './content.ts';
import { cents, formatNumber } from './locales.ts';
import type { Align, DocType, Element, LayoutDoc, RuleStyle, TextStyle } from './model.ts';
import { PRODUCTS, SHOP_ITEMS } from './pools.ts';
import type { Random } from './random.ts';
import { type Ctx, type Family, MONO } from './templates.ts';

/** A wave-3 family: its layout and the facts it lays out. */
export interface ItemFamily extends Family {
  facts(r: Random): ReceiptFacts | StatementFacts | OrderFacts;
}

const text = (lines: readonly string[], style: TextStyle = {}): Element => ({
  kind: 'text',
  lines,
  style,
});
const space = (lines = 1): Element => ({ kind: 'space', lines });
const rule: Element = { kind: 'rule' };

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
  widths: readonly number[],
  rules: RuleStyle,
): Element {
  const total = widths.reduce((a, w) => a + w, 0);
  return { kind: 'table', header, rows, align, widths: widths.map((w) => w / total), rules };
}

function doc(c: Ctx, body: Element[], extra: Partial<LayoutDoc> = {}): LayoutDoc {
  return {
    font: c.font,
    size: c.size,
    paper: c.locale.id === 'en-US' || c.locale.id === 'en-CA' ? 'letter' : 'a4',
    body,
    pageNumbers: 'none',
    ...extra,
  };
}

// ---------------------------------------------------------------- receipts

/** Goods sold by weight (price per kilogram). */
const WEIGHED = [
  'Bananas',
  'Tomatoes on the vine',
  'Carrots loose',
  'Gala apples',
  'Mature cheddar',
  'Minced beef',
  'Red grapes seedless',
  'Potatoes white',
  'Salmon fillet',
  'Pick n mix sweets',
];

/** Names long enough to wrap on a till slip. */
const LONG_NAMES = [
  'Organic Greek style natural yoghurt 500g',
  'Free range large eggs box of twelve',
  'Wholemeal sourdough sliced loaf 800g',
  'Extra virgin olive oil cold pressed 750ml',
  'Sparkling mineral water lemon and lime 6 pack',
  'Dishwasher tablets lemon fresh 40 pack',
  'Semi skimmed British milk 2 litre bottle',
  'Dark roast ground coffee fairtrade 227g',
];

interface TillItem extends Item {
  /** Sold by weight: `quantity` kilograms at `unitPrice` per kilogram. */
  readonly weighed: boolean;
  /** A discount printed on its own line under the item (no item of its own), 0 when none. */
  readonly discount: number;
  /** The tax class printed after the amount (`A`, `B`, …). */
  readonly code: string;
}

export interface TillFacts extends ReceiptFacts {
  readonly items: readonly TillItem[];
  readonly discounts: number;
}

function tillFacts(r: Random, options: { weights: boolean; discounts: boolean }): TillFacts {
  const base = receiptFacts(r);
  const count = r.int(3, 11);
  const list: TillItem[] = Array.from({ length: count }, () => {
    const weighed = options.weights && r.chance(0.35);
    if (weighed) {
      const quantity = r.int(120, 2400) / 1000;
      const unitPrice = cents(r.int(69, 1899) / 100);
      return {
        description: r.pick(WEIGHED),
        quantity,
        unitPrice,
        amount: cents(quantity * unitPrice),
        weighed,
        discount: 0,
        code: 'A',
      };
    }
    const quantity = r.chance(0.6) ? 1 : r.int(2, 6);
    const unitPrice = cents(r.int(49, 1599) / 100);
    const amount = cents(quantity * unitPrice);
    return {
      description: r.chance(0.35) ? r.pick(LONG_NAMES) : r.pick(SHOP_ITEMS),
      quantity,
      unitPrice,
      amount,
      weighed,
      discount: options.discounts && r.chance(0.25) ? cents(Math.max(0.1, amount * 0.2)) : 0,
      code: r.pick(['A', 'A', 'B', 'C']),
    };
  });
  const discounts = cents(list.reduce((a, i) => a + i.discount, 0));
  const subtotal = cents(list.reduce((a, i) => a + i.amount, 0) - discounts);
  const tax = cents((subtotal * base.taxRate) / 100);
  const total = cents(subtotal + tax);
  return {
    ...base,
    items: list,
    discounts,
    subtotal,
    tax,
    total,
    tendered: base.payment === 'cash' ? Math.ceil(total / 10) * 10 : total,
  };
}

const perKg = (c: Ctx, i: TillItem) =>
  `${formatNumber(i.quantity, c.locale, 3)} kg @ ${c.amount(i.unitPrice)}/kg`;

/** The lines a till prints for an item: the name, then a count or weight line when any. */
function tillRows(
  c: Ctx,
  i: TillItem,
  codes: boolean,
  discountWord: string,
  form: 'at' | 'x',
): string[][] {
  const code = codes ? [i.code] : [];
  const under = i.weighed
    ? perKg(c, i)
    : i.quantity > 1
      ? form === 'at'
        ? `${i.quantity} @ ${c.amount(i.unitPrice)}`
        : `${i.quantity} x ${c.amount(i.unitPrice)}`
      : '';
  const rows = under
    ? [
        [i.description, '', ...(codes ? [''] : [])],
        [`  ${under}`, c.amount(i.amount), ...code],
      ]
    : [[i.description, c.amount(i.amount), ...code]];
  if (i.discount > 0)
    rows.push([`  ${discountWord}`, c.amount(-i.discount), ...(codes ? [''] : [])]);
  return rows;
}

function tillHead(f: ReceiptFacts, c: Ctx, align: Align): Element[] {
  return [
    text([f.merchant.name], { size: c.size + 3, bold: true, align }),
    text([...f.merchant.address, `Tel ${f.merchant.phone}`], { size: c.size - 1, align }),
    space(),
    text([`${c.date(f.date)}  ${f.time}`, `${c.w('receipt.number')} ${f.number}`], { align }),
  ];
}

function tillFoot(f: TillFacts, c: Ctx, discountTotal: string): Element[] {
  const money: [string, string][] = [
    ...(f.discounts > 0 ? ([[discountTotal, c.money(-f.discounts)]] as [string, string][]) : []),
    [c.w('subtotal'), c.money(f.subtotal)],
    [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
    [c.w('receipt.total'), c.money(f.total)],
  ];
  const paid: [string, string][] =
    f.payment === 'card'
      ? [[c.w('receipt.payment'), `VISA ****${f.cardLast4}`]]
      : [
          [c.w('receipt.payment'), 'Cash'],
          ['Change', c.money(cents(f.tendered - f.total))],
        ];
  return [
    rule,
    { kind: 'pairs', pairs: money, mode: 'tab', align: 'right', boldLabels: true },
    space(),
    { kind: 'pairs', pairs: paid, mode: 'tab', align: 'right' },
    space(),
    text([c.w('thanks')], { align: 'center' }),
  ];
}

const receiptFamilies: ItemFamily[] = [
  {
    // Names on their own line, the count or weight at a unit price under it with the amount, a
    // tax class after the amount, discounts on their own lines; no header row.
    name: 'receipt/w3i-till-lines',
    set: 'development',
    type: 'receipt',
    facts: (r) => tillFacts(r, { weights: true, discounts: true }),
    build(f, c) {
      const t = f as TillFacts;
      const codes = c.r.chance(0.6);
      const word = c.r.pick(['Discount', 'Promo saving', 'Member price', 'Multibuy saving']);
      const form = c.r.pick(['at', 'x'] as const);
      const rows = t.items.flatMap((i) => tillRows(c, i, codes, word, form));
      return doc(
        c,
        [
          ...tillHead(t, c, 'center'),
          rule,
          table(
            codes ? ['', '', ''] : ['', ''],
            rows,
            codes ? ['left', 'right', 'left'] : ['left', 'right'],
            codes ? [0.68, 0.24, 0.08] : [0.7, 0.3],
            'none',
          ),
          ...tillFoot(t, c, 'Total savings'),
        ],
        { paper: 'receipt', font: c.r.chance(0.5) ? MONO : c.font },
      );
    },
  },
  {
    // A count column right-aligned after the name, the amount and a tax code; a header row only
    // sometimes; long names wrap inside their cell.
    name: 'receipt/w3i-count-column',
    set: 'development',
    type: 'receipt',
    facts: (r) => tillFacts(r, { weights: false, discounts: true }),
    build(f, c) {
      const t = f as TillFacts;
      const header = c.r.chance(0.5);
      const rows = t.items.flatMap((i) => {
        const row = [i.description, String(i.quantity), c.amount(i.amount), i.code];
        return i.discount > 0 ? [row, ['  Discount', '', c.amount(-i.discount), '']] : [row];
      });
      return doc(
        c,
        [
          ...tillHead(t, c, 'left'),
          rule,
          table(
            header
              ? [c.w('item.description'), c.w('item.quantity'), c.w('item.amount'), '']
              : ['', '', '', ''],
            rows,
            ['left', 'right', 'right', 'center'],
            [0.56, 0.12, 0.24, 0.08],
            header ? 'header' : 'none',
          ),
          ...tillFoot(t, c, 'You saved'),
        ],
        { paper: 'receipt' },
      );
    },
  },
  {
    // A full-page till print in a monospaced font: count, name, unit price and amount; weights
    // in the count column with their unit, the price per kilogram in the price column.
    name: 'receipt/w3i-mono-grid',
    set: 'development',
    type: 'receipt',
    facts: (r) => tillFacts(r, { weights: true, discounts: false }),
    build(f, c) {
      const t = f as TillFacts;
      const rows = t.items.map((i) => [
        i.weighed ? `${formatNumber(i.quantity, c.locale, 3)} kg` : String(i.quantity),
        i.description,
        i.weighed ? `${c.amount(i.unitPrice)}/kg` : c.amount(i.unitPrice),
        c.amount(i.amount),
      ]);
      return doc(
        c,
        [
          ...tillHead(t, c, 'left'),
          rule,
          table(
            [c.w('item.quantity').toUpperCase(), 'ITEM', 'PRICE', c.w('item.amount').toUpperCase()],
            rows,
            ['right', 'left', 'right', 'right'],
            [0.14, 0.5, 0.18, 0.18],
            c.r.pick(['header', 'none'] as const),
          ),
          ...tillFoot(t, c, 'Savings'),
        ],
        { font: MONO, size: c.r.pick([9, 10]) },
      );
    },
  },
];

// ---------------------------------------------------------------- bank statements

/** Second lines of a transaction's description (a reference, a card, a place). */
const DETAILS = [
  'REF 4839201',
  'CARD 4417 LONDON',
  'VIA MOBILE - PYMT',
  'MANDATE NO 0042',
  'ON 12 AUG BCC',
  'FX RATE 1.1732',
  'INV 20931 THANK YOU',
  'BERLIN DE',
];

export interface TwoLineStatement extends StatementFacts {
  /** Per transaction, its description's lines (one or two). */
  readonly lines: readonly (readonly string[])[];
}

function twoLineFacts(r: Random, count: readonly number[]): TwoLineStatement {
  const base = statementFacts(r, { items: r.pick(count) });
  const lines = base.transactions.map((t) =>
    r.chance(0.4) ? [t.description, r.pick(DETAILS)] : [t.description],
  );
  return {
    ...base,
    lines,
    transactions: base.transactions.map((t, n) => ({
      ...t,
      description: (lines[n] as string[]).join(' '),
    })),
  };
}

/** A date as `14 Mar` or `Mar 14` or `14/03`: the year only in the statement's period. */
function shortDate(iso: string, style: 'd-mon' | 'mon-d' | 'dd/mm' | 'mm/dd'): string {
  const months = [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ];
  const [, m, d] = iso.split('-').map(Number) as [number, number, number];
  const mon = months[m - 1] as string;
  const pad = (n: number) => String(n).padStart(2, '0');
  switch (style) {
    case 'd-mon':
      return `${pad(d)} ${mon}`;
    case 'mon-d':
      return `${mon} ${d}`;
    case 'dd/mm':
      return `${pad(d)}/${pad(m)}`;
    case 'mm/dd':
      return `${pad(m)}/${pad(d)}`;
  }
}

function statementHead(f: StatementFacts, c: Ctx): Element[] {
  return [
    text([f.bank.name], { size: c.size + 6, bold: true }),
    text([...f.bank.address], { size: c.size - 1 }),
    space(),
    text([c.w('statement.title')], { size: c.size + 3, bold: true }),
    {
      kind: 'columns',
      widths: [0.5, 0.5],
      columns: [
        [text([f.holder, ...f.holderAddress])],
        [
          {
            kind: 'pairs',
            mode: 'tab',
            align: 'right',
            pairs: [
              [c.w('statement.account'), f.account],
              [c.w('statement.period'), `${c.date(f.start)} - ${c.date(f.end)}`],
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
          },
        ],
      ],
    },
    space(),
  ];
}

/** Rows of one transaction: its date, first line and figures, then its second line alone. */
function txRows(first: readonly string[], lines: readonly string[], at: number): string[][] {
  const rest = lines.slice(1).map((l) => first.map((_, k) => (k === at ? l : '')));
  return [[...first], ...rest];
}

const abs = (n: number) => Math.abs(n);

const statementFamilies: ItemFamily[] = [
  {
    // One amount column with `CR`/`DR` after the figure, the balance likewise; dates without the
    // year; a description's second line on a row of its own.
    name: 'bank_statement/w3i-cr-dr',
    set: 'development',
    type: 'bank_statement',
    facts: (r) => twoLineFacts(r, [8, 12, 16, 22]),
    build(f, c) {
      const s = f as TwoLineStatement;
      const style = c.r.pick(['d-mon', 'mon-d', 'dd/mm'] as const);
      const side = (n: number) => `${formatNumber(abs(n), c.locale)} ${n < 0 ? 'DR' : 'CR'}`;
      const rows = s.transactions.flatMap((t, n) =>
        txRows(
          [shortDate(t.date, style), s.lines[n]?.[0] ?? '', side(t.amount), side(t.balance)],
          s.lines[n] ?? [],
          1,
        ),
      );
      return doc(c, [
        ...statementHead(s, c),
        table(
          [c.w('tx.date'), c.w('tx.description'), c.w('tx.amount'), c.w('tx.balance')],
          rows,
          ['left', 'left', 'right', 'right'],
          [0.13, 0.47, 0.2, 0.2],
          c.r.pick(['header', 'none', 'shaded'] as const),
        ),
      ]);
    },
  },
  {
    // Paid out and paid in apart, a running balance, long enough to run over pages, with a
    // balance carried forward and brought forward inside the table every so many rows.
    name: 'bank_statement/w3i-carried-forward',
    set: 'development',
    type: 'bank_statement',
    facts: (r) => twoLineFacts(r, [30, 38, 46]),
    build(f, c) {
      const s = f as TwoLineStatement;
      const every = c.r.int(14, 22);
      const carried = c.r.pick(['Balance carried forward', 'Carried forward', 'C/F']);
      const brought = c.r.pick(['Balance brought forward', 'Brought forward', 'B/F']);
      const rows: string[][] = [['', brought, '', '', c.amount(s.opening)]];
      s.transactions.forEach((t, n) => {
        if (n > 0 && n % every === 0) {
          const before = s.transactions[n - 1]?.balance ?? s.opening;
          rows.push(['', carried, '', '', c.amount(before)]);
          rows.push(['', brought, '', '', c.amount(before)]);
        }
        rows.push(
          ...txRows(
            [
              c.date(t.date),
              s.lines[n]?.[0] ?? '',
              t.amount < 0 ? c.amount(-t.amount) : '',
              t.amount > 0 ? c.amount(t.amount) : '',
              c.amount(t.balance),
            ],
            s.lines[n] ?? [],
            1,
          ),
        );
      });
      return doc(
        c,
        [
          ...statementHead(s, c),
          table(
            [
              c.w('tx.date'),
              c.w('tx.description'),
              c.w('tx.debit'),
              c.w('tx.credit'),
              c.w('tx.balance'),
            ],
            rows,
            ['left', 'left', 'right', 'right', 'right'],
            [0.15, 0.4, 0.15, 0.15, 0.15],
            c.r.pick(['header', 'grid', 'none'] as const),
          ),
        ],
        { pageNumbers: 'page-of' },
      );
    },
  },
  {
    // A signed amount (`+` before money in), dates without the year, a running balance.
    name: 'bank_statement/w3i-signed-short-dates',
    set: 'development',
    type: 'bank_statement',
    facts: (r) => twoLineFacts(r, [9, 14, 20]),
    build(f, c) {
      const s = f as TwoLineStatement;
      const style = c.r.pick(['d-mon', 'mon-d', 'mm/dd'] as const);
      const rows = s.transactions.flatMap((t, n) =>
        txRows(
          [
            shortDate(t.date, style),
            s.lines[n]?.[0] ?? '',
            t.amount > 0 ? `+${c.amount(t.amount)}` : c.amount(t.amount),
            c.amount(t.balance),
          ],
          s.lines[n] ?? [],
          1,
        ),
      );
      return doc(c, [
        ...statementHead(s, c),
        table(
          [c.w('tx.date'), c.w('tx.description'), c.w('tx.amount'), c.w('tx.balance')],
          rows,
          ['left', 'left', 'right', 'right'],
          [0.12, 0.5, 0.19, 0.19],
          c.r.pick(['header', 'shaded'] as const),
        ),
      ]);
    },
  },
];

// ---------------------------------------------------------------- purchase orders

const UNITS = ['EA', 'PC', 'BOX', 'SET', 'PK'];
const MEASURED = ['M', 'KG', 'L'];
const SPECS = [
  ', 600 x 400 mm, black',
  ', stainless steel, pack of 50',
  ' (replacement part, grade B)',
  ', size L, hi-vis yellow',
  ', 230 V, EU plug',
];

interface OrderLine extends Item {
  readonly sku: string;
  readonly unit: string;
  readonly delivered: number;
}

export interface ItemOrder extends OrderFacts {
  readonly items: readonly OrderLine[];
  readonly taxRate: number;
  readonly tax: number;
}

function orderLines(r: Random): ItemOrder {
  const base = orderFacts(r);
  const count = r.pick([3, 5, 7, 10, 14]);
  const list: OrderLine[] = Array.from({ length: count }, () => {
    const measured = r.chance(0.25);
    const quantity = measured ? r.int(5, 250) / 10 : r.int(1, 40);
    const unitPrice = cents(r.int(120, 48000) / 100);
    return {
      description: r.pick(PRODUCTS) + (r.chance(0.35) ? r.pick(SPECS) : ''),
      quantity,
      unitPrice,
      amount: cents(quantity * unitPrice),
      sku: `${r.pick(['SKU', 'PN', 'ART', ''])}${r.pick(['-', ''])}${r.int(10000, 99999)}${r.chance(0.3) ? `-${r.pick(['A', 'B', 'XL'])}` : ''}`,
      unit: measured ? r.pick(MEASURED) : r.pick(UNITS),
      delivered: measured || r.chance(0.6) ? quantity : r.int(0, Math.floor(quantity)),
    };
  });
  const subtotal = cents(list.reduce((a, i) => a + i.amount, 0));
  const taxRate = r.pick([0, 7, 10, 19, 20]);
  const tax = cents((subtotal * taxRate) / 100);
  return {
    ...base,
    items: list,
    shipping: 0,
    subtotal,
    taxRate,
    tax,
    total: cents(subtotal + tax),
  };
}

function orderHead(f: OrderFacts, c: Ctx): Element[] {
  return [
    {
      kind: 'columns',
      widths: [0.55, 0.45],
      columns: [
        [
          text([f.buyer.name], { size: c.size + 5, bold: true }),
          text([...f.buyer.address], { size: c.size - 1 }),
        ],
        [
          text([c.w('po.title')], { size: c.size + 4, bold: true, align: 'right' }),
          {
            kind: 'pairs',
            mode: 'tab',
            align: 'right',
            pairs: [
              [c.w('po.number'), f.number],
              [c.w('po.date'), c.date(f.date)],
              [c.w('po.delivery'), c.date(f.delivery)],
            ],
          },
        ],
      ],
    },
    space(),
    text([c.w('po.vendor')], { bold: true }),
    text([f.vendor.name, ...f.vendor.address]),
    space(),
  ];
}

function orderFoot(f: ItemOrder, c: Ctx): Element[] {
  return [
    {
      kind: 'pairs',
      mode: 'tab',
      align: 'right',
      pairs: [
        [c.w('subtotal'), c.money(f.subtotal)],
        [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
        [c.w('po.total'), c.money(f.total)],
      ],
    },
    space(),
    text([`${c.w('po.buyer')}: ${f.requester}`, `Terms: ${f.terms}`]),
  ];
}

const orderFamilies: ItemFamily[] = [
  {
    // Line number, part number, description, unit of measure, quantity, unit price, amount.
    name: 'purchase_order/w3i-part-numbers',
    set: 'development',
    type: 'purchase_order',
    facts: orderLines,
    build(f, c) {
      const o = f as ItemOrder;
      const step = c.r.pick([1, 10]);
      const rows = o.items.map((i, n) => [
        String((n + 1) * step),
        i.sku,
        i.description,
        i.unit,
        c.quantity(i.quantity),
        c.amount(i.unitPrice),
        c.amount(i.amount),
      ]);
      return doc(c, [
        ...orderHead(o, c),
        table(
          [
            c.r.pick(['Line', 'Ln', 'Pos.']),
            c.r.pick(['Part No.', 'SKU', 'Item Code', 'Article No.']),
            c.w('item.description'),
            c.r.pick(['UoM', 'Unit', 'U/M']),
            c.w('item.quantity'),
            c.w('item.unit'),
            c.w('item.amount'),
          ],
          rows,
          ['left', 'left', 'left', 'center', 'right', 'right', 'right'],
          [0.06, 0.14, 0.38, 0.07, 0.09, 0.13, 0.13],
          c.r.pick(['header', 'grid', 'shaded'] as const),
        ),
        ...orderFoot(o, c),
      ]);
    },
  },
  {
    // Quantity ordered and quantity delivered side by side (the order's quantity is the first).
    name: 'purchase_order/w3i-ordered-delivered',
    set: 'development',
    type: 'purchase_order',
    facts: orderLines,
    build(f, c) {
      const o = f as ItemOrder;
      const rows = o.items.map((i) => [
        i.sku,
        i.description,
        c.quantity(i.quantity),
        c.quantity(i.delivered),
        c.amount(i.unitPrice),
        c.amount(i.amount),
      ]);
      return doc(c, [
        ...orderHead(o, c),
        table(
          [
            c.r.pick(['Item', 'SKU', 'Code']),
            c.w('item.description'),
            c.r.pick(['Qty Ordered', 'Ordered', 'Qty Ord.']),
            c.r.pick(['Qty Delivered', 'Delivered', 'Qty Recv.']),
            c.w('item.unit'),
            c.w('item.amount'),
          ],
          rows,
          ['left', 'left', 'right', 'right', 'right', 'right'],
          [0.13, 0.39, 0.11, 0.11, 0.13, 0.13],
          c.r.pick(['header', 'grid'] as const),
        ),
        ...orderFoot(o, c),
      ]);
    },
  },
  {
    // A tax rate per line and the net amount; the description wraps in a narrow column.
    name: 'purchase_order/w3i-tax-column',
    set: 'development',
    type: 'purchase_order',
    facts: orderLines,
    build(f, c) {
      const o = f as ItemOrder;
      const rows = o.items.map((i, n) => [
        String(n + 1),
        i.description,
        c.quantity(i.quantity),
        i.unit,
        c.amount(i.unitPrice),
        `${o.taxRate}%`,
        c.amount(i.amount),
      ]);
      return doc(c, [
        ...orderHead(o, c),
        table(
          [
            '#',
            c.w('item.description'),
            c.w('item.quantity'),
            c.r.pick(['Unit', 'UoM']),
            c.w('item.unit'),
            c.r.pick(['VAT', 'Tax %', 'Tax rate']),
            c.r.pick(['Net', 'Net Amount', 'Amount']),
          ],
          rows,
          ['left', 'left', 'right', 'left', 'right', 'right', 'right'],
          [0.05, 0.33, 0.1, 0.08, 0.15, 0.1, 0.16],
          c.r.pick(['header', 'shaded', 'none'] as const),
        ),
        ...orderFoot(o, c),
      ]);
    },
  },
];

/** Every wave-3 item family (development half only). */
export const W3I_FAMILIES: readonly ItemFamily[] = [
  ...receiptFamilies,
  ...statementFamilies,
  ...orderFamilies,
];

/** The wave-3 item families of a type. */
export function w3iFamiliesOf(type: DocType): ItemFamily[] {
  return W3I_FAMILIES.filter((f) => f.type === type);
}
