/**
 * Template families: how each document type is laid out, per family. A family fixes the
 * skeleton (where the parties, identifiers, items and totals go, and how labels meet values)
 * and draws the rest per document (font, letterhead style, column order, rules, wordings,
 * number and date formats). Families are development or held-out.
 */
import type {
  Facts,
  InvoiceFacts,
  LetterFacts,
  OrderFacts,
  Party,
  ReceiptFacts,
  StatementFacts,
} from './content.ts';
import {
  type DateStyle,
  formatDate,
  formatMoney,
  formatNumber,
  type Locale,
  type MoneyStyle,
} from './locales.ts';
import type {
  Align,
  CorpusSet,
  DocType,
  Element,
  FontChoice,
  LayoutDoc,
  PageNumbers,
  PairMode,
  RuleStyle,
  TextStyle,
} from './model.ts';
import type { Random } from './random.ts';
import { wording } from './wording.ts';

export const FONTS: readonly FontChoice[] = [
  { family: 'Liberation Sans', ps: 'Helvetica', psBold: 'Helvetica-Bold', kind: 'sans' },
  { family: 'DejaVu Sans', ps: 'Helvetica', psBold: 'Helvetica-Bold', kind: 'sans' },
  { family: 'Noto Sans', ps: 'AvantGarde-Book', psBold: 'AvantGarde-Demi', kind: 'sans' },
  { family: 'URW Gothic', ps: 'AvantGarde-Book', psBold: 'AvantGarde-Demi', kind: 'sans' },
  { family: 'Liberation Serif', ps: 'Times-Roman', psBold: 'Times-Bold', kind: 'serif' },
  { family: 'P052', ps: 'Palatino-Roman', psBold: 'Palatino-Bold', kind: 'serif' },
  { family: 'C059', ps: 'NewCenturySchlbk-Roman', psBold: 'NewCenturySchlbk-Bold', kind: 'serif' },
  { family: 'URW Bookman', ps: 'Bookman-Light', psBold: 'Bookman-Demi', kind: 'serif' },
];
export const MONO: FontChoice = {
  family: 'DejaVu Sans Mono',
  ps: 'Courier',
  psBold: 'Courier-Bold',
  kind: 'mono',
};

/** What a template draws with. */
export interface Ctx {
  readonly r: Random;
  readonly set: CorpusSet;
  readonly w: (key: string, vars?: Record<string, string>) => string;
  readonly locale: Locale;
  readonly font: FontChoice;
  readonly size: number;
  /** Dates as the document writes them. */
  date(iso: string): string;
  /** Totals as the document writes them. */
  money(n: number): string;
  /** Amounts in tables. */
  amount(n: number): string;
  quantity(n: number): string;
}

export function context(r: Random, set: CorpusSet, locale: Locale, font?: FontChoice): Ctx {
  const dateStyle: DateStyle = r.pick(locale.dateStyles);
  const moneyStyle: MoneyStyle = r.pick(['symbol', 'symbol', 'code', 'plain']);
  const tableStyle: MoneyStyle = r.pick(['plain', 'plain', 'symbol']);
  const negative = r.chance(0.25) ? 'parens' : 'minus';
  return {
    r,
    set,
    w: wording(r, set),
    locale,
    font: font ?? r.pick(FONTS),
    size: r.pick([9, 9.5, 10, 10, 10.5, 11]),
    date: (iso) => formatDate(iso, dateStyle),
    money: (n) => formatMoney(n, locale, moneyStyle, negative),
    amount: (n) => formatMoney(n, locale, tableStyle, negative),
    quantity: (n) => (Number.isInteger(n) ? String(n) : formatNumber(n, locale)),
  };
}

export const text = (lines: readonly string[], style: TextStyle = {}): Element => ({
  kind: 'text',
  lines,
  style,
});
export const space = (lines = 1): Element => ({ kind: 'space', lines });
export const rule: Element = { kind: 'rule' };
export const columns = (widths: readonly number[], ...cols: (readonly Element[])[]): Element => ({
  kind: 'columns',
  columns: cols,
  widths,
});
export const pairs = (
  list: readonly (readonly [string, string])[],
  mode: PairMode,
  options: { align?: Align; boldLabels?: boolean } = {},
): Element => ({ kind: 'pairs', pairs: list, mode, ...options });

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w))
    .slice(0, 3)
    .map((w) => w[0])
    .join('');
}

export type LetterheadStyle = 'plain' | 'logo' | 'right' | 'centered' | 'banner';

/** A company's name and contact lines at the top of its documents. */
export function letterhead(c: Ctx, p: Party, style: LetterheadStyle): Element[] {
  const contact = [`Tel. ${p.phone}`, p.email];
  switch (style) {
    case 'plain':
      return [
        text([p.name], { size: c.size + 6, bold: true }),
        text([...p.address, ...contact], { size: c.size - 0.5 }),
      ];
    case 'logo':
      return [
        text([initials(p.name)], { size: c.size + 16, bold: true, spacing: 3, muted: true }),
        text([p.name], { size: c.size + 3, bold: true }),
        text([...p.address, p.web], { size: c.size - 0.5 }),
      ];
    case 'right':
      return [
        text([p.name], { size: c.size + 6, bold: true, align: 'right' }),
        text([...p.address, ...contact], { size: c.size - 0.5, align: 'right' }),
      ];
    case 'centered':
      return [
        text([p.name], { size: c.size + 8, bold: true, align: 'center' }),
        text([`${p.address.join(' · ')} · ${p.phone}`], { size: c.size - 1, align: 'center' }),
      ];
    case 'banner':
      return [
        text([p.name.toUpperCase()], { size: c.size + 5, bold: true, spacing: 2 }),
        text([`${p.address.join(', ')}  |  ${p.web}  |  VAT ID ${p.taxId}`], {
          size: c.size - 1.5,
        }),
        rule,
      ];
  }
}

/** A party block: the label (above the name, or before it with a colon), name and address. */
export function partyBlock(
  label: string,
  name: string,
  lines: readonly string[],
  form: 'above' | 'colon' | 'bold-above',
): Element[] {
  if (form === 'colon') return [text([`${label}: ${name}`, ...lines])];
  return [
    text([label], { bold: form === 'bold-above', muted: form === 'above' }),
    text([name, ...lines]),
  ];
}

interface ItemColumn {
  readonly header: string;
  readonly align: Align;
  readonly width: number;
  readonly cell: (i: InvoiceFacts['items'][number], n: number) => string;
}

/** An items table with the columns in the given order. */
export function itemsTable(
  c: Ctx,
  list: InvoiceFacts['items'],
  order: readonly ('no' | 'description' | 'quantity' | 'unit' | 'amount')[],
  rules: RuleStyle,
): Element {
  const all: Record<string, ItemColumn> = {
    no: { header: '#', align: 'left', width: 0.06, cell: (_, n) => String(n + 1) },
    description: {
      header: c.w('item.description'),
      align: 'left',
      width: 0.46,
      cell: (i) => i.description,
    },
    quantity: {
      header: c.w('item.quantity'),
      align: c.r.chance(0.3) ? 'center' : 'right',
      width: 0.12,
      cell: (i) => c.quantity(i.quantity),
    },
    unit: {
      header: c.w('item.unit'),
      align: 'right',
      width: 0.18,
      cell: (i) => c.amount(i.unitPrice),
    },
    amount: {
      header: c.w('item.amount'),
      align: 'right',
      width: 0.18,
      cell: (i) => c.amount(i.amount),
    },
  };
  const cols = order.map((k) => all[k] as ItemColumn);
  const total = cols.reduce((a, col) => a + col.width, 0);
  return {
    kind: 'table',
    header: cols.map((col) => col.header),
    rows: list.map((item, n) => cols.map((col) => col.cell(item, n))),
    align: cols.map((col) => col.align),
    widths: cols.map((col) => col.width / total),
    rules,
  };
}

export function itemOrder(c: Ctx): ('no' | 'description' | 'quantity' | 'unit' | 'amount')[] {
  return c.r.pick([
    ['description', 'quantity', 'unit', 'amount'],
    ['description', 'quantity', 'unit', 'amount'],
    ['quantity', 'description', 'unit', 'amount'],
    ['description', 'unit', 'quantity', 'amount'],
    ['no', 'description', 'quantity', 'unit', 'amount'],
  ] as const) as ('no' | 'description' | 'quantity' | 'unit' | 'amount')[];
}

export const pageNumbers = (c: Ctx): PageNumbers =>
  c.r.pick(['page-of', 'page-of', 'page', 'slash', 'none']);

/** A layout family of one document type. */
export interface Family<F extends Facts = Facts> {
  readonly name: string;
  readonly set: CorpusSet;
  readonly type: DocType;
  build(f: F, c: Ctx): LayoutDoc;
}

export function doc(c: Ctx, body: Element[], extra: Partial<LayoutDoc> = {}): LayoutDoc {
  return {
    font: c.font,
    size: c.size,
    paper: c.locale.id === 'en-US' || c.locale.id === 'en-CA' ? 'letter' : 'a4',
    body,
    pageNumbers: 'none',
    ...extra,
  };
}

// ---------------------------------------------------------------- invoices

export function invoiceMeta(f: InvoiceFacts, c: Ctx): [string, string][] {
  const list: [string, string][] = [
    [c.w('invoice.number'), f.number],
    [c.w('invoice.date'), c.date(f.date)],
    [c.w('invoice.due'), c.date(f.due)],
    [c.w('invoice.po'), f.po],
  ];
  if (c.r.chance(0.4)) list.splice(c.r.int(1, 4), 0, [c.w('invoice.customerId'), f.customerId]);
  return list;
}

export function invoiceTotals(f: InvoiceFacts, c: Ctx): [string, string][] {
  return [
    [c.w('subtotal'), c.money(f.subtotal)],
    [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
    [c.w('invoice.total'), c.money(f.total)],
  ];
}

export function invoiceNotes(f: InvoiceFacts, c: Ctx): Element[] {
  const out: Element[] = [space()];
  if (c.r.chance(0.6))
    out.push(
      text([
        `${c.w('invoice.terms')}: Net ${Math.round((Date.parse(f.due) - Date.parse(f.date)) / 864e5)} days`,
      ]),
    );
  if (c.r.chance(0.5))
    out.push(
      text(
        [`Please transfer the amount to IBAN DE89 3704 0044 0532 0130 00, quoting ${f.number}.`],
        { size: c.size - 1 },
      ),
    );
  if (c.r.chance(0.5)) out.push(text([c.w('thanks')], { italic: true }));
  return out;
}

const invoiceFamilies: Family<InvoiceFacts>[] = [
  {
    name: 'invoice/classic',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      const head = letterhead(c, f.vendor, c.r.pick(['plain', 'logo'] as const));
      const meta = pairs(invoiceMeta(f, c), 'tab', {
        align: c.r.pick(['left', 'right'] as const),
        boldLabels: c.r.chance(0.5),
      });
      const billTo = partyBlock(
        c.w('invoice.customer'),
        f.customer.name,
        [`Attn: ${f.contact}`, ...f.customer.address],
        c.r.pick(['above', 'bold-above'] as const),
      );
      return doc(
        c,
        [
          columns([0.55, 0.45], head, [
            text([c.w('invoice.title')], { size: c.size + 10, bold: true, align: 'right' }),
            space(),
            meta,
          ]),
          space(2),
          columns([0.5, 0.5], billTo, []),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['header', 'none', 'shaded'] as const)),
          space(),
          columns([0.5, 0.5], [], [pairs(invoiceTotals(f, c), 'tab', { align: 'right' })]),
          ...invoiceNotes(f, c),
        ],
        {
          pageNumbers: pageNumbers(c),
          ...(c.r.chance(0.5)
            ? { running: [f.vendor.name, `${c.w('invoice.number')} ${f.number}`] }
            : {}),
        },
      );
    },
  },
  {
    name: 'invoice/banner',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.vendor, c.r.pick(['centered', 'banner'] as const)),
          space(),
          text([c.w('invoice.title')], { size: c.size + 8, bold: true, align: 'center' }),
          space(),
          pairs(invoiceMeta(f, c), 'across'),
          space(),
          ...partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'colon'),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'grid'),
          space(),
          columns([0.55, 0.45], [], [pairs(invoiceTotals(f, c), 'grid')]),
          ...invoiceNotes(f, c),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'invoice/stacked',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // Four columns at most: a customer id drawn in gives way, never the PO number the truth
      // holds (cutting the list at four left it out of the page).
      const meta = invoiceMeta(f, c).filter(
        ([, value], _, all) => all.length <= 4 || value !== f.customerId,
      );
      return doc(
        c,
        [
          ...letterhead(c, f.vendor, 'right'),
          text([c.w('invoice.title')], { size: c.size + 12, bold: true }),
          space(),
          columns(
            meta.map(() => 1 / meta.length),
            ...meta.map(([l, v]) => [pairs([[l, v]], 'stacked')]),
          ),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'bold-above'),
            partyBlock(c.w('invoice.from'), f.vendor.name, f.vendor.address, 'bold-above'),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'shaded'),
          columns(
            [0.5, 0.5],
            [],
            [pairs(invoiceTotals(f, c), 'tab', { align: 'right', boldLabels: true })],
          ),
          ...invoiceNotes(f, c),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'invoice/memo',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.vendor, 'plain'),
          space(),
          text([c.w('invoice.title')], { size: c.size + 4, bold: true }),
          pairs(invoiceMeta(f, c), 'colon', { boldLabels: c.r.chance(0.5) }),
          space(),
          ...partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'colon'),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'none'),
          space(),
          pairs(invoiceTotals(f, c), 'colon', { align: 'right' }),
          ...invoiceNotes(f, c),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'invoice/ledger',
    set: 'held-out',
    type: 'invoice',
    build(f, c) {
      return doc(
        c,
        [
          columns([0.5, 0.5], letterhead(c, f.vendor, c.r.pick(['logo', 'plain'] as const)), [
            text([c.w('invoice.title')], { size: c.size + 6, bold: true, align: 'right' }),
            pairs(invoiceMeta(f, c), 'grid'),
          ]),
          space(),
          ...partyBlock(
            c.w('invoice.customer'),
            f.customer.name,
            [...f.customer.address, f.customer.email],
            'bold-above',
          ),
          space(),
          itemsTable(c, f.items, ['no', 'description', 'quantity', 'unit', 'amount'], 'grid'),
          columns(
            [0.6, 0.4],
            [text([`${c.w('invoice.terms')}: ${c.date(f.due)}`], { size: c.size - 1 })],
            [pairs(invoiceTotals(f, c), 'grid')],
          ),
          space(),
          text([`Bank: IBAN GB29 NWBK 6016 1331 9268 19 · Reference ${f.number}`], {
            size: c.size - 1.5,
          }),
        ],
        { pageNumbers: pageNumbers(c), running: [f.vendor.name] },
      );
    },
  },
  {
    name: 'invoice/modern',
    set: 'held-out',
    type: 'invoice',
    build(f, c) {
      const [number, date, due, po] = invoiceMeta(f, c).filter(
        ([l]) => l !== c.w('invoice.customerId'),
      );
      return doc(
        c,
        [
          text([c.w('invoice.title')], { size: c.size + 14, bold: true, spacing: 1 }),
          text([`${number?.[0]} ${number?.[1]}`], { muted: true }),
          space(),
          columns(
            [0.36, 0.36, 0.28],
            partyBlock(
              c.w('invoice.from'),
              f.vendor.name,
              [...f.vendor.address, f.vendor.email],
              'above',
            ),
            partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'above'),
            [
              pairs(
                [date, due, po].filter((p): p is [string, string] => p !== undefined),
                'stacked',
                { align: 'right' },
              ),
            ],
          ),
          space(),
          itemsTable(
            c,
            f.items,
            c.r.pick([
              ['description', 'quantity', 'unit', 'amount'],
              ['description', 'unit', 'quantity', 'amount'],
            ] as const) as ('description' | 'quantity' | 'unit' | 'amount')[],
            'header',
          ),
          space(),
          columns(
            [0.45, 0.55],
            [],
            [
              pairs(invoiceTotals(f, c).slice(0, 2), 'tab', { align: 'right' }),
              rule,
              text([`${c.w('invoice.total')}   ${c.money(f.total)}`], {
                size: c.size + 4,
                bold: true,
                align: 'right',
              }),
            ],
          ),
          space(2),
          text([c.w('thanks')], { align: 'center', muted: true }),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'invoice/sheet',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      // A small letterhead at the top right, the title at the left; identifiers as label-above-
      // value cells; seller, buyer and delivery addresses side by side; totals right-aligned.
      // Every identifier the truth holds is printed (a customer ID makes five).
      const meta = invoiceMeta(f, c);
      const shipTo = c.r.chance(0.5);
      return doc(
        c,
        [
          columns(
            [0.5, 0.5],
            [text([c.w('invoice.title')], { size: c.size + 9, bold: true })],
            letterhead(c, f.vendor, 'right'),
          ),
          space(),
          pairs(meta, c.r.pick(['across', 'grid'] as const)),
          space(),
          columns(
            shipTo ? [0.34, 0.33, 0.33] : [0.5, 0.5],
            partyBlock(c.w('invoice.from'), f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'above'),
            ...(shipTo
              ? [partyBlock('Ship To', f.customer.name, [`Attn: ${f.contact}`], 'above')]
              : []),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['grid', 'shaded', 'header'] as const)),
          space(),
          columns(
            [0.4, 0.6],
            [],
            [pairs(invoiceTotals(f, c), c.r.pick(['tab', 'grid'] as const), { align: 'right' })],
          ),
          ...invoiceNotes(f, c),
        ],
        {
          pageNumbers: pageNumbers(c),
          running: [`${f.vendor.name} · ${f.vendor.web}`],
        },
      );
    },
  },
];

// ---------------------------------------------------------------- receipts

export function receiptItems(f: ReceiptFacts, c: Ctx, form: 'qty-col' | 'times' | 'at'): Element {
  if (form === 'qty-col')
    return {
      kind: 'table',
      header: [c.w('item.quantity'), c.w('item.description'), c.w('item.amount')],
      rows: f.items.map((i) => [String(i.quantity), i.description, c.amount(i.amount)]),
      align: ['left', 'left', 'right'],
      widths: [0.15, 0.55, 0.3],
      rules: 'header',
    };
  return {
    kind: 'table',
    header: [c.w('item.description'), c.w('item.amount')],
    rows: f.items.map((i) => [
      form === 'times'
        ? `${i.quantity} x ${i.description}`
        : `${i.description} ${i.quantity} @ ${c.amount(i.unitPrice)}`,
      c.amount(i.amount),
    ]),
    align: ['left', 'right'],
    widths: [0.7, 0.3],
    rules: c.r.pick(['none', 'header'] as const),
  };
}

export function paymentLines(f: ReceiptFacts, c: Ctx): [string, string][] {
  if (f.payment === 'card')
    return [
      [
        c.w('receipt.payment'),
        `${c.r.pick(['VISA', 'Mastercard', 'Card', 'Debit card'])} ****${f.cardLast4}`,
      ],
    ];
  return [
    [c.w('receipt.payment'), 'Cash'],
    ['Tendered', c.money(f.tendered)],
    ['Change', c.money(Math.round((f.tendered - f.total) * 100) / 100)],
  ];
}

const receiptFamilies: Family<ReceiptFacts>[] = [
  {
    name: 'receipt/thermal-centered',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      const title = c.w('receipt.title');
      return doc(
        c,
        [
          text([f.merchant.name], { size: c.size + 4, bold: true, align: 'center' }),
          text([...f.merchant.address, f.merchant.phone], { align: 'center', size: c.size - 1 }),
          ...(title ? [space(), text([title], { bold: true, align: 'center' })] : []),
          rule,
          pairs(
            [
              [c.w('receipt.number'), f.number],
              [c.w('receipt.date'), `${c.date(f.date)} ${f.time}`],
              ['Cashier', f.cashier],
            ],
            'tab',
            { align: 'right' },
          ),
          rule,
          receiptItems(f, c, c.r.pick(['times', 'qty-col'] as const)),
          rule,
          pairs(
            [
              [c.w('subtotal'), c.money(f.subtotal)],
              [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
              [c.w('receipt.total'), c.money(f.total)],
            ],
            'tab',
            { align: 'right', boldLabels: true },
          ),
          space(),
          pairs(paymentLines(f, c), 'tab', { align: 'right' }),
          space(),
          text([c.w('thanks')], { align: 'center' }),
        ],
        { paper: 'receipt' },
      );
    },
  },
  {
    name: 'receipt/thermal-mono',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      return doc(
        c,
        [
          text([f.merchant.name.toUpperCase()], { bold: true, align: 'center' }),
          text(f.merchant.address, { align: 'center' }),
          text([`${c.date(f.date)}  ${f.time}  REG ${f.register}`]),
          pairs([[c.w('receipt.number'), f.number]], 'colon'),
          rule,
          receiptItems(f, c, 'at'),
          rule,
          pairs(
            [
              [c.w('subtotal'), c.money(f.subtotal)],
              [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
              [c.w('receipt.total'), c.money(f.total)],
            ],
            'tab',
            { align: 'right' },
          ),
          pairs(paymentLines(f, c), 'tab', { align: 'right' }),
          space(),
          text([c.w('thanks')], { align: 'center' }),
        ],
        { paper: 'receipt', font: MONO },
      );
    },
  },
  {
    name: 'receipt/left',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.merchant, 'plain'),
          space(),
          pairs(
            [
              [c.w('receipt.date'), c.date(f.date)],
              ['Time', f.time],
              [c.w('receipt.number'), f.number],
            ],
            'colon',
          ),
          space(),
          receiptItems(f, c, 'qty-col'),
          space(),
          pairs(
            [
              [c.w('subtotal'), c.money(f.subtotal)],
              [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
              [c.w('receipt.total'), c.money(f.total)],
            ],
            'colon',
          ),
          pairs(paymentLines(f, c), 'colon'),
        ],
        { paper: 'receipt' },
      );
    },
  },
  {
    name: 'receipt/slip',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A till slip laid out as a form: the shop's name as a header over a ruled key/value grid,
      // the items in a ruled table, totals in a grid aligned to the right.
      return doc(
        c,
        [
          text([f.merchant.name], { size: c.size + 2, bold: true }),
          text([f.merchant.address.join(', ')], { size: c.size - 1, muted: true }),
          space(),
          pairs(
            [
              [c.w('receipt.number'), f.number],
              [c.w('receipt.date'), c.date(f.date)],
              ['Time', f.time],
            ],
            c.r.pick(['grid', 'stacked'] as const),
          ),
          space(),
          {
            kind: 'table',
            header: [c.w('item.description'), c.w('item.quantity'), c.w('item.amount')],
            rows: f.items.map((i) => [i.description, c.quantity(i.quantity), c.amount(i.amount)]),
            align: ['left', 'right', 'right'],
            widths: [0.56, 0.16, 0.28],
            rules: c.r.pick(['grid', 'shaded'] as const),
          },
          space(),
          pairs(
            [
              [c.w('subtotal'), c.money(f.subtotal)],
              [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
              [c.w('receipt.total'), c.money(f.total)],
            ],
            'grid',
            { align: 'right' },
          ),
          pairs(paymentLines(f, c), 'tab', { align: 'right' }),
        ],
        { paper: c.r.pick(['receipt', 'a4'] as const) },
      );
    },
  },
  {
    name: 'receipt/online',
    set: 'held-out',
    type: 'receipt',
    build(f, c) {
      return doc(c, [
        columns([0.6, 0.4], letterhead(c, f.merchant, 'logo'), [
          text([c.w('receipt.title') || 'Receipt'], {
            size: c.size + 8,
            bold: true,
            align: 'right',
          }),
        ]),
        space(),
        pairs(
          [
            [c.w('receipt.number'), f.number],
            [c.w('receipt.date'), c.date(f.date)],
            [c.w('receipt.payment'), f.payment === 'card' ? `Card ending ${f.cardLast4}` : 'Cash'],
          ],
          'grid',
        ),
        space(),
        {
          kind: 'table',
          header: [
            c.w('item.description'),
            c.w('item.quantity'),
            c.w('item.unit'),
            c.w('item.amount'),
          ],
          rows: f.items.map((i) => [
            i.description,
            String(i.quantity),
            c.amount(i.unitPrice),
            c.amount(i.amount),
          ]),
          align: ['left', 'center', 'right', 'right'],
          widths: [0.5, 0.14, 0.18, 0.18],
          rules: 'shaded',
        },
        columns(
          [0.5, 0.5],
          [],
          [
            pairs(
              [
                [c.w('subtotal'), c.money(f.subtotal)],
                [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
                [c.w('receipt.total'), c.money(f.total)],
              ],
              'tab',
              { align: 'right' },
            ),
          ],
        ),
      ]);
    },
  },
  {
    name: 'receipt/compact',
    set: 'held-out',
    type: 'receipt',
    build(f, c) {
      return doc(
        c,
        [
          text([f.merchant.name], { bold: true, size: c.size + 2 }),
          text([f.merchant.address.join(', ')], { size: c.size - 1 }),
          rule,
          pairs(
            [
              [c.w('receipt.date'), `${c.date(f.date)} ${f.time}`],
              [c.w('receipt.number'), f.number],
            ],
            'across',
          ),
          receiptItems(f, c, c.r.pick(['at', 'times'] as const)),
          rule,
          pairs(
            [
              [c.w('subtotal'), c.money(f.subtotal)],
              [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
            ],
            'tab',
            { align: 'right' },
          ),
          text([`${c.w('receipt.total')}  ${c.money(f.total)}`], {
            bold: true,
            size: c.size + 3,
            align: 'right',
          }),
          pairs(paymentLines(f, c), 'colon'),
          text([c.w('thanks')], { align: 'center', italic: true }),
        ],
        { paper: 'receipt' },
      );
    },
  },
];

// ---------------------------------------------------------------- purchase orders

export function orderMeta(f: OrderFacts, c: Ctx): [string, string][] {
  return [
    [c.w('po.number'), f.number],
    [c.w('po.date'), c.date(f.date)],
    [c.w('po.delivery'), c.date(f.delivery)],
    [c.w('invoice.terms'), f.terms],
  ];
}

export function orderTotals(f: OrderFacts, c: Ctx): [string, string][] {
  return [
    ...(f.shipping > 0
      ? ([
          [c.w('subtotal'), c.money(f.subtotal)],
          [c.w('po.shipping'), c.money(f.shipping)],
        ] as [string, string][])
      : []),
    [c.w('po.total'), c.money(f.total)],
  ];
}

const orderFamilies: Family<OrderFacts>[] = [
  {
    name: 'purchase_order/standard',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      return doc(
        c,
        [
          columns([0.55, 0.45], letterhead(c, f.buyer, c.r.pick(['plain', 'logo'] as const)), [
            text([c.w('po.title')], { size: c.size + 8, bold: true, align: 'right' }),
            pairs(orderMeta(f, c).slice(0, 3), 'tab', { align: 'right' }),
          ]),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock(c.w('po.shipTo'), f.buyer.name, f.buyer.address, 'bold-above'),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['header', 'grid'] as const)),
          columns([0.5, 0.5], [], [pairs(orderTotals(f, c), 'tab', { align: 'right' })]),
          space(),
          text([`Requested by: ${f.requester}`, `${c.w('invoice.terms')}: ${f.terms}`]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'purchase_order/form',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.buyer, c.r.pick(['centered', 'banner'] as const)),
          text([c.w('po.title')], { size: c.size + 6, bold: true, align: 'center' }),
          space(),
          pairs(orderMeta(f, c), 'grid'),
          space(),
          ...partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'colon'),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'grid'),
          columns([0.55, 0.45], [], [pairs(orderTotals(f, c), 'grid')]),
          space(2),
          text([`Authorized by: ${f.requester}`]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'purchase_order/memo',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.buyer, 'plain'),
          space(),
          text([c.w('po.title')], { size: c.size + 3, bold: true }),
          pairs(orderMeta(f, c), 'colon', { boldLabels: true }),
          ...partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'colon'),
          space(),
          itemsTable(c, f.items, itemOrder(c), 'none'),
          space(),
          pairs(orderTotals(f, c), 'colon', { align: 'right' }),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
  {
    name: 'purchase_order/grid',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      // The buyer's name in a header line, the identifiers as label-above-value cells, the
      // buyer, supplier and delivery addresses in three columns.
      return doc(
        c,
        [
          text([f.buyer.name], {
            size: c.size + 5,
            bold: true,
            align: c.r.pick(['left', 'right'] as const),
          }),
          text([`${f.buyer.address.join(', ')} · ${f.buyer.phone}`], {
            size: c.size - 1,
            align: 'right',
            muted: true,
          }),
          rule,
          text([c.w('po.title')], { size: c.size + 6, bold: true }),
          pairs(orderMeta(f, c).slice(0, 3), c.r.pick(['stacked', 'across'] as const)),
          space(),
          columns(
            [0.34, 0.33, 0.33],
            partyBlock(c.w('po.buyer'), f.buyer.name, f.buyer.address, 'bold-above'),
            partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock(c.w('po.shipTo'), f.buyer.name, f.buyer.address.slice(0, 1), 'bold-above'),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['shaded', 'grid'] as const)),
          space(),
          columns(
            [0.5, 0.5],
            [text([`${c.w('invoice.terms')}: ${f.terms}`])],
            [pairs(orderTotals(f, c), 'tab', { align: 'right', boldLabels: true })],
          ),
        ],
        { pageNumbers: pageNumbers(c), running: [f.buyer.name, `${c.w('po.number')} ${f.number}`] },
      );
    },
  },
  {
    name: 'purchase_order/boxed',
    set: 'held-out',
    type: 'purchase_order',
    build(f, c) {
      const meta = orderMeta(f, c);
      return doc(
        c,
        [
          columns([0.5, 0.5], letterhead(c, f.buyer, 'logo'), [
            text([c.w('po.title')], { size: c.size + 10, bold: true, align: 'right' }),
          ]),
          space(),
          pairs(meta, 'across'),
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(
              c.w('po.vendor'),
              f.vendor.name,
              [...f.vendor.address, f.vendor.phone],
              'above',
            ),
            partyBlock(c.w('po.buyer'), f.buyer.name, [`Contact: ${f.requester}`], 'above'),
          ),
          space(),
          itemsTable(c, f.items, ['no', 'description', 'quantity', 'unit', 'amount'], 'shaded'),
          columns(
            [0.5, 0.5],
            [text([`${c.w('po.shipTo')}: ${f.buyer.address.join(', ')}`], { size: c.size - 1 })],
            [pairs(orderTotals(f, c), 'tab', { align: 'right', boldLabels: true })],
          ),
        ],
        { pageNumbers: pageNumbers(c), running: [f.buyer.name, `${c.w('po.number')} ${f.number}`] },
      );
    },
  },
  {
    name: 'purchase_order/letter',
    set: 'held-out',
    type: 'purchase_order',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.buyer, 'right'),
          space(),
          ...partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'above'),
          space(),
          text([`${c.w('po.title')} ${f.number}`], { size: c.size + 4, bold: true }),
          pairs(orderMeta(f, c).slice(1), 'tab', { align: 'left' }),
          space(),
          text(['Please supply the following goods at the prices stated:']),
          itemsTable(c, f.items, ['description', 'quantity', 'unit', 'amount'], 'header'),
          pairs(orderTotals(f, c), 'tab', { align: 'right' }),
          space(),
          text([`${f.requester}`, `Purchasing, ${f.buyer.name}`]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  },
];

// ---------------------------------------------------------------- bank statements

export function transactionsTable(
  f: StatementFacts,
  c: Ctx,
  form: 'signed' | 'split',
  rules: RuleStyle,
): Element {
  if (form === 'signed')
    return {
      kind: 'table',
      header: [c.w('tx.date'), c.w('tx.description'), c.w('tx.amount'), c.w('tx.balance')],
      rows: f.transactions.map((t) => [
        c.date(t.date),
        t.description,
        c.amount(t.amount),
        c.amount(t.balance),
      ]),
      align: ['left', 'left', 'right', 'right'],
      widths: [0.17, 0.47, 0.18, 0.18],
      rules,
    };
  return {
    kind: 'table',
    header: [
      c.w('tx.date'),
      c.w('tx.description'),
      c.w('tx.debit'),
      c.w('tx.credit'),
      c.w('tx.balance'),
    ],
    rows: f.transactions.map((t) => [
      c.date(t.date),
      t.description,
      t.amount < 0 ? c.amount(-t.amount) : '',
      t.amount > 0 ? c.amount(t.amount) : '',
      c.amount(t.balance),
    ]),
    align: ['left', 'left', 'right', 'right', 'right'],
    widths: [0.15, 0.4, 0.15, 0.15, 0.15],
    rules,
  };
}

export function period(f: StatementFacts, c: Ctx): string {
  return `${c.date(f.start)} ${c.r.pick(['-', 'to', '–'])} ${c.date(f.end)}`;
}

const statementFamilies: Family<StatementFacts>[] = [
  {
    name: 'bank_statement/classic',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      return doc(
        c,
        [
          columns([0.55, 0.45], letterhead(c, f.bank, c.r.pick(['plain', 'logo'] as const)), [
            text([c.w('statement.title')], { size: c.size + 6, bold: true, align: 'right' }),
          ]),
          space(),
          columns(
            [0.5, 0.5],
            [text([f.holder, ...f.holderAddress])],
            [
              pairs(
                [
                  [c.w('statement.account'), f.account],
                  [c.w('statement.sortCode'), f.sortCode],
                  [c.w('statement.period'), period(f, c)],
                ],
                'tab',
                { align: 'right' },
              ),
            ],
          ),
          space(),
          pairs(
            [
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            'tab',
          ),
          space(),
          transactionsTable(f, c, 'signed', c.r.pick(['header', 'none'] as const)),
        ],
        {
          pageNumbers: c.r.pick(['page-of', 'page', 'slash'] as const),
          running: [f.bank.name, `${c.w('statement.account')} ${f.account}`],
        },
      );
    },
  },
  {
    name: 'bank_statement/debit-credit',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.bank, c.r.pick(['banner', 'centered'] as const)),
          text([c.w('statement.title')], { size: c.size + 4, bold: true }),
          pairs(
            [
              [c.w('statement.holder'), f.holder],
              [c.w('statement.account'), f.account],
              [c.w('statement.period'), period(f, c)],
            ],
            'colon',
          ),
          space(),
          pairs(
            [
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            'grid',
          ),
          space(),
          transactionsTable(f, c, 'split', c.r.pick(['grid', 'shaded'] as const)),
        ],
        { pageNumbers: c.r.pick(['page-of', 'page-of', 'none'] as const) },
      );
    },
  },
  {
    name: 'bank_statement/summary',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      const credits = f.transactions.filter((t) => t.amount > 0).reduce((a, t) => a + t.amount, 0);
      const debits = f.transactions.filter((t) => t.amount < 0).reduce((a, t) => a - t.amount, 0);
      return doc(
        c,
        [
          ...letterhead(c, f.bank, 'right'),
          text([c.w('statement.title')], { size: c.size + 8, bold: true }),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('statement.holder'), f.holder, f.holderAddress, 'above'),
            [
              pairs(
                [
                  [c.w('statement.account'), f.account],
                  [c.w('statement.period'), period(f, c)],
                ],
                'stacked',
              ),
            ],
          ),
          space(),
          pairs(
            [
              [c.w('statement.opening'), c.money(f.opening)],
              ['Total credits', c.money(credits)],
              ['Total debits', c.money(debits)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            'across',
          ),
          space(),
          transactionsTable(f, c, c.r.pick(['signed', 'split'] as const), 'header'),
        ],
        {
          pageNumbers: 'page-of',
          running: [f.bank.name, `${c.w('statement.title')} · ${f.account}`],
        },
      );
    },
  },
  {
    name: 'bank_statement/sheet',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      // A statement laid out as a sheet: the bank's name centred, the account details as a
      // ruled grid beside the holder's address, the balances stacked above their values.
      return doc(
        c,
        [
          text([f.bank.name], { size: c.size + 7, bold: true, align: 'center' }),
          text([f.bank.address.join(' · ')], { size: c.size - 1, align: 'center', muted: true }),
          space(),
          text([c.w('statement.title')], { size: c.size + 3, bold: true }),
          columns(
            [0.45, 0.55],
            [text([f.holder, ...f.holderAddress])],
            [
              pairs(
                [
                  [c.w('statement.account'), f.account],
                  [c.w('statement.period'), period(f, c)],
                  [c.w('statement.sortCode'), f.sortCode],
                ],
                'grid',
              ),
            ],
          ),
          space(),
          pairs(
            [
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            c.r.pick(['stacked', 'across', 'tab'] as const),
            { align: 'right' },
          ),
          space(),
          transactionsTable(
            f,
            c,
            c.r.pick(['signed', 'split'] as const),
            c.r.pick(['grid', 'shaded'] as const),
          ),
        ],
        {
          pageNumbers: c.r.pick(['page-of', 'slash'] as const),
          running: [`${f.bank.name} · ${c.w('statement.account')} ${f.account}`],
        },
      );
    },
  },
  {
    name: 'bank_statement/brought-forward',
    set: 'held-out',
    type: 'bank_statement',
    build(f, c) {
      const table = transactionsTable(f, c, 'split', 'header') as Element & { kind: 'table' };
      return doc(
        c,
        [
          columns(
            [0.5, 0.5],
            [text([f.holder, ...f.holderAddress])],
            letterhead(c, f.bank, 'right'),
          ),
          space(),
          text([c.w('statement.title')], { size: c.size + 5, bold: true }),
          pairs(
            [
              [c.w('statement.account'), f.account],
              [c.w('statement.sortCode'), f.sortCode],
              [c.w('statement.period'), period(f, c)],
            ],
            'tab',
            { align: 'left' },
          ),
          space(),
          {
            ...table,
            rows: [
              [c.date(f.start), c.w('statement.opening'), '', '', c.amount(f.opening)],
              ...table.rows,
              [c.date(f.end), c.w('statement.closing'), '', '', c.amount(f.closing)],
            ],
          },
        ],
        { pageNumbers: c.r.pick(['page-of', 'slash'] as const) },
      );
    },
  },
  {
    name: 'bank_statement/iban',
    set: 'held-out',
    type: 'bank_statement',
    build(f, c) {
      return doc(
        c,
        [
          ...letterhead(c, f.bank, 'logo'),
          space(),
          text([c.w('statement.title')], { size: c.size + 6, bold: true }),
          pairs(
            [
              [c.w('statement.holder'), f.holder],
              [c.w('statement.account'), f.account],
              ['From', c.date(f.start)],
              ['To', c.date(f.end)],
            ],
            'grid',
          ),
          space(),
          pairs(
            [
              [c.w('statement.opening'), c.money(f.opening)],
              [c.w('statement.closing'), c.money(f.closing)],
            ],
            'colon',
            { boldLabels: true },
          ),
          space(),
          transactionsTable(f, c, 'signed', 'grid'),
        ],
        { pageNumbers: 'page-of', running: [`${f.bank.name} · ${f.account}`] },
      );
    },
  },
];

// ---------------------------------------------------------------- letters

/** The town of an address line ("10115 Berlin", "Leeds LS1 4AP", "Austin, TX 78701"). */
function cityOf(line: string): string {
  const words = line.replace(/^\d+\s+/, '').split(/[\s,]+/);
  const town: string[] = [];
  for (const w of words) {
    if (/\d/.test(w) || (town.length > 0 && /^[A-Z]{2}$/.test(w))) break;
    town.push(w);
  }
  return town.join(' ');
}

export function insideAddress(f: LetterFacts): string[] {
  const name = `${f.recipient.title} ${f.recipient.first} ${f.recipient.last}`;
  return [
    name,
    ...(f.recipientRole ? [f.recipientRole] : []),
    ...(f.recipientOrg ? [f.recipientOrg] : []),
    ...f.recipientAddress,
  ];
}

export function salutation(f: LetterFacts, c: Ctx): string {
  const { title, first, last } = f.recipient;
  return c.r.pick([
    `Dear ${title} ${first} ${last},`,
    `Dear ${title} ${last},`,
    `Dear ${first} ${last},`,
    `Dear ${first},`,
  ]);
}

export function subjectLine(f: LetterFacts, c: Ctx): Element {
  const prefix = c.w('letter.subject');
  return text([prefix ? `${prefix} ${f.subject}` : f.subject], { bold: true });
}

export function letterBody(f: LetterFacts, c: Ctx): Element[] {
  return [
    text([salutation(f, c)]),
    space(),
    ...f.paragraphs.flatMap((p) => [text([p]), space()]),
    text([c.w('letter.close')]),
    space(2),
    text([f.signer, f.signerRole, f.organization.name]),
  ];
}

const letterFamilies: Family<LetterFacts>[] = [
  {
    name: 'letter/block',
    set: 'development',
    type: 'letter',
    build(f, c) {
      return doc(c, [
        ...letterhead(c, f.organization, c.r.pick(['plain', 'logo', 'banner'] as const)),
        space(2),
        text([c.date(f.date)]),
        space(),
        text(insideAddress(f)),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c),
      ]);
    },
  },
  {
    name: 'letter/modified',
    set: 'development',
    type: 'letter',
    build(f, c) {
      return doc(c, [
        ...letterhead(c, f.organization, 'centered'),
        space(2),
        text([c.date(f.date)], { align: 'right' }),
        text(insideAddress(f)),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c),
      ]);
    },
  },
  {
    name: 'letter/referenced',
    set: 'development',
    type: 'letter',
    build(f, c) {
      return doc(c, [
        columns([0.6, 0.4], letterhead(c, f.organization, 'logo'), [
          pairs(
            [
              [c.w('letter.ref'), f.reference],
              ['Date', c.date(f.date)],
            ],
            'tab',
            { align: 'right' },
          ),
        ]),
        space(2),
        text(insideAddress(f)),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c),
      ]);
    },
  },
  {
    name: 'letter/header',
    set: 'development',
    type: 'letter',
    build(f, c) {
      // The organisation's name and address across the top in a ruled header line, the
      // recipient's address in the left column with the date and reference in the right one.
      return doc(
        c,
        [
          columns(
            [0.5, 0.5],
            [text([f.organization.name], { size: c.size + 4, bold: true })],
            [
              text([...f.organization.address, f.organization.phone], {
                size: c.size - 1,
                align: 'right',
              }),
            ],
          ),
          rule,
          space(2),
          columns(
            [0.6, 0.4],
            [text(insideAddress(f))],
            [
              pairs(
                [
                  ['Date', c.date(f.date)],
                  [c.w('letter.ref'), f.reference],
                ],
                c.r.pick(['stacked', 'colon'] as const),
              ),
            ],
          ),
          space(),
          subjectLine(f, c),
          space(),
          ...letterBody(f, c),
        ],
        { running: [f.organization.name] },
      );
    },
  },
  {
    name: 'letter/window',
    set: 'held-out',
    type: 'letter',
    build(f, c) {
      const city = cityOf(f.organization.address[1] ?? '');
      return doc(c, [
        ...letterhead(c, f.organization, 'right'),
        space(),
        text([`${f.organization.name} · ${f.organization.address.join(' · ')}`], {
          size: c.size - 2.5,
          muted: true,
        }),
        text(insideAddress(f)),
        space(),
        text([`${city}, ${c.date(f.date)}`], { align: 'right' }),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c),
      ]);
    },
  },
  {
    name: 'letter/formal',
    set: 'held-out',
    type: 'letter',
    build(f, c) {
      return doc(c, [
        ...letterhead(c, f.organization, 'banner'),
        space(),
        columns(
          [0.55, 0.45],
          [text(insideAddress(f))],
          [
            pairs(
              [
                ['Date', c.date(f.date)],
                [c.w('letter.ref'), f.reference],
              ],
              'stacked',
              { align: 'right' },
            ),
          ],
        ),
        space(),
        subjectLine(f, c),
        space(),
        ...letterBody(f, c),
      ]);
    },
  },
];

// ------------------------------------------------- development families of 11:30 (ReportLab)

/**
 * A big letterhead: the name large, a line of what the company does, its address, then phone,
 * e-mail, web and tax id each on a line of their own (eight to ten lines before anything else).
 */
export function bigLetterhead(c: Ctx, p: Party): Element[] {
  return [
    text([p.name], { size: c.size + c.r.pick([10, 12, 14]), bold: true }),
    text([c.r.pick(['Quality since 1987', 'Trade and wholesale', 'Services for business'])], {
      size: c.size - 1,
      italic: true,
      muted: true,
    }),
    text([...p.address, `Tel. ${p.phone}`, p.email, p.web, `VAT ID ${p.taxId}`], {
      size: c.size - 1,
    }),
  ];
}

/**
 * Where a document says what it is: only in a small grey word in the top right corner, in a
 * small line after the letterhead, or nowhere (its labels and vocabulary alone tell).
 */
type Naming = 'corner' | 'small' | 'none';

function naming(c: Ctx, title: string, where: Naming): { corner: Element[]; small: Element[] } {
  const word = text([title], { size: c.size - 1.5, muted: true, align: 'right' });
  return {
    corner: where === 'corner' ? [word] : [],
    small: where === 'small' ? [text([title], { size: c.size - 0.5, bold: true })] : [],
  };
}

/** A family of one type among families of every type. */
export const later = <F extends Facts>(family: Family<F>): Family => family as unknown as Family;

/**
 * Families only the Python producers draw in the development half (ids `dev-rlx-…`), made at
 * 11:30 on the second day for looks the development half lacked: big letterheads, two columns,
 * documents whose type is said only in a small corner or not at all, receipts that are no till
 * slips, statements whose summary sits beside the holder. They are not in `FAMILIES`, so every
 * document made before keeps its family.
 */
export const LATER_FAMILIES: readonly Family[] = [
  later<InvoiceFacts>({
    name: 'invoice/corner',
    set: 'development',
    type: 'invoice',
    build(f, c) {
      const say = naming(c, c.w('invoice.title'), c.r.pick(['corner', 'small', 'none'] as const));
      return doc(
        c,
        [
          columns([0.6, 0.4], bigLetterhead(c, f.vendor), [
            ...say.corner,
            space(),
            pairs(invoiceMeta(f, c), c.r.pick(['tab', 'stacked'] as const), { align: 'right' }),
          ]),
          ...say.small,
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('invoice.customer'), f.customer.name, f.customer.address, 'bold-above'),
            partyBlock('Ship To', f.customer.name, [`Attn: ${f.contact}`], 'above'),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['header', 'none', 'grid'] as const)),
          space(),
          columns([0.5, 0.5], invoiceNotes(f, c), [
            pairs(invoiceTotals(f, c), 'tab', { align: 'right', boldLabels: true }),
          ]),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  }),
  later<ReceiptFacts>({
    name: 'receipt/counter',
    set: 'development',
    type: 'receipt',
    build(f, c) {
      // A receipt from a counter or a workshop on a full page: the letterhead at the left, the
      // receipt's identifiers at the right, items and then totals and payment side by side.
      const say = naming(
        c,
        c.w('receipt.title') || 'Receipt',
        c.r.pick(['corner', 'small', 'none'] as const),
      );
      return doc(
        c,
        [
          columns([0.58, 0.42], bigLetterhead(c, f.merchant), [
            ...say.corner,
            pairs(
              [
                [c.w('receipt.number'), f.number],
                [c.w('receipt.date'), c.date(f.date)],
                ['Time', f.time],
                ['Served by', f.cashier],
              ],
              'tab',
              { align: 'right' },
            ),
          ]),
          ...say.small,
          space(),
          receiptItems(f, c, c.r.pick(['qty-col', 'times'] as const)),
          space(),
          columns(
            [0.5, 0.5],
            [pairs(paymentLines(f, c), 'colon'), text([c.w('thanks')], { italic: true })],
            [
              pairs(
                [
                  [c.w('subtotal'), c.money(f.subtotal)],
                  [c.w('tax', { rate: String(f.taxRate) }), c.money(f.tax)],
                  [c.w('receipt.total'), c.money(f.total)],
                ],
                'tab',
                { align: 'right', boldLabels: true },
              ),
            ],
          ),
        ],
        { paper: c.r.pick(['a4', 'letter'] as const) },
      );
    },
  }),
  later<OrderFacts>({
    name: 'purchase_order/corner',
    set: 'development',
    type: 'purchase_order',
    build(f, c) {
      const say = naming(c, c.w('po.title'), c.r.pick(['corner', 'small', 'none'] as const));
      return doc(
        c,
        [
          columns([0.6, 0.4], bigLetterhead(c, f.buyer), [
            ...say.corner,
            space(),
            pairs(orderMeta(f, c), 'tab', { align: 'right' }),
          ]),
          ...say.small,
          space(),
          columns(
            [0.5, 0.5],
            partyBlock(c.w('po.vendor'), f.vendor.name, f.vendor.address, 'bold-above'),
            partyBlock(c.w('po.shipTo'), f.buyer.name, f.buyer.address, 'bold-above'),
          ),
          space(),
          itemsTable(c, f.items, itemOrder(c), c.r.pick(['header', 'grid', 'shaded'] as const)),
          space(),
          columns(
            [0.55, 0.45],
            [text([`Requested by: ${f.requester}`, 'Authorized signature: ____________'])],
            [pairs(orderTotals(f, c), 'tab', { align: 'right', boldLabels: true })],
          ),
        ],
        { pageNumbers: pageNumbers(c) },
      );
    },
  }),
  later<StatementFacts>({
    name: 'bank_statement/beside',
    set: 'development',
    type: 'bank_statement',
    build(f, c) {
      // The holder's address at the left, the account and its balances in a box at the right.
      const say = naming(c, c.w('statement.title'), c.r.pick(['corner', 'small', 'none'] as const));
      return doc(
        c,
        [
          columns([0.6, 0.4], bigLetterhead(c, f.bank), say.corner),
          ...say.small,
          space(),
          columns(
            [0.5, 0.5],
            [text([f.holder, ...f.holderAddress])],
            [
              pairs(
                [
                  [c.w('statement.account'), f.account],
                  [c.w('statement.sortCode'), f.sortCode],
                  [c.w('statement.period'), period(f, c)],
                  [c.w('statement.opening'), c.money(f.opening)],
                  [c.w('statement.closing'), c.money(f.closing)],
                ],
                c.r.pick(['grid', 'tab'] as const),
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
        ],
        {
          pageNumbers: c.r.pick(['page-of', 'page'] as const),
          running: [f.bank.name, `${c.w('statement.account')} ${f.account}`],
        },
      );
    },
  }),
];

/** The later development families of a type (see LATER_FAMILIES). */
export function laterFamiliesOf(type: DocType): Family[] {
  return LATER_FAMILIES.filter((f) => f.type === type);
}

export const FAMILIES: readonly Family[] = [
  ...invoiceFamilies,
  ...receiptFamilies,
  ...orderFamilies,
  ...statementFamilies,
  ...letterFamilies,
] as readonly Family[];

export function familiesOf(type: DocType, set: CorpusSet): Family[] {
  return FAMILIES.filter((f) => f.type === type && f.set === set);
}
