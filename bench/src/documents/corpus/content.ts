/**
 * The facts of each generated document, independent of its layout: parties, identifiers,
 * dates, items and totals, with the ground truth in canonical field names. Templates decide how
 * the facts are worded and laid out; packets reuse facts (the same vendor, bank or account).
 */
import { addDays, cents, LOCALES, type Locale } from './locales.ts';
import type { DocType, Element, LayoutDoc, Truth } from './model.ts';
import {
  address,
  BANKS,
  companyName,
  LETTER_SENTENCES,
  LETTER_SUBJECTS,
  PRODUCTS,
  personName,
  SHOP_ITEMS,
  SHOPS,
  TITLES,
  TRANSACTIONS_IN,
  TRANSACTIONS_OUT,
} from './pools.ts';
import type { Random } from './random.ts';

export interface Party {
  readonly name: string;
  readonly address: readonly string[];
  readonly phone: string;
  readonly email: string;
  readonly web: string;
  readonly taxId: string;
}

export interface Item {
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly amount: number;
}

interface Common {
  readonly locale: Locale;
}

export interface InvoiceFacts extends Common {
  readonly type: 'invoice';
  readonly vendor: Party;
  readonly customer: Party;
  readonly contact: string;
  readonly number: string;
  readonly date: string;
  readonly due: string;
  readonly po: string;
  readonly items: readonly Item[];
  readonly taxRate: number;
  readonly subtotal: number;
  readonly tax: number;
  readonly total: number;
  readonly customerId: string;
}

export interface ReceiptFacts extends Common {
  readonly type: 'receipt';
  readonly merchant: Party;
  readonly number: string;
  readonly date: string;
  readonly time: string;
  readonly cashier: string;
  readonly register: string;
  readonly items: readonly Item[];
  readonly taxRate: number;
  readonly subtotal: number;
  readonly tax: number;
  readonly total: number;
  readonly payment: 'cash' | 'card';
  readonly cardLast4: string;
  readonly tendered: number;
}

export interface OrderFacts extends Common {
  readonly type: 'purchase_order';
  readonly buyer: Party;
  readonly vendor: Party;
  readonly number: string;
  readonly date: string;
  readonly delivery: string;
  readonly items: readonly Item[];
  readonly shipping: number;
  readonly subtotal: number;
  readonly total: number;
  readonly requester: string;
  readonly terms: string;
}

export interface Transaction {
  readonly date: string;
  readonly description: string;
  readonly amount: number;
  readonly balance: number;
}

export interface StatementFacts extends Common {
  readonly type: 'bank_statement';
  readonly bank: Party;
  readonly holder: string;
  readonly holderAddress: readonly string[];
  readonly account: string;
  readonly sortCode: string;
  readonly start: string;
  readonly end: string;
  readonly opening: number;
  readonly closing: number;
  readonly transactions: readonly Transaction[];
}

export interface LetterFacts extends Common {
  readonly type: 'letter';
  readonly organization: Party;
  readonly date: string;
  readonly recipient: { readonly title: string; readonly first: string; readonly last: string };
  readonly recipientRole: string;
  readonly recipientOrg: string;
  readonly recipientAddress: readonly string[];
  readonly subject: string;
  readonly paragraphs: readonly string[];
  readonly signer: string;
  readonly signerRole: string;
  readonly reference: string;
}

export type Facts = InvoiceFacts | ReceiptFacts | OrderFacts | StatementFacts | LetterFacts;

/** What a packet asks of a document's facts so that neighbours look alike. */
export interface FactHints {
  readonly locale?: Locale;
  readonly vendor?: Party;
  readonly bank?: Party;
  readonly holder?: { name: string; address: readonly string[] };
  readonly account?: string;
  /** The statement or document starts on this date (consecutive periods). */
  readonly start?: string;
  readonly opening?: number;
  readonly merchant?: Party;
  readonly items?: number;
}

const digits = (r: Random, n: number) =>
  Array.from({ length: n }, (_, i) => String(r.int(i === 0 ? 1 : 0, 9))).join('');

export function party(r: Random, name: string): Party {
  const slug = name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]+/g, '')
    .slice(0, 14);
  return {
    name,
    address: address(r),
    phone: `+${r.int(1, 49)} ${digits(r, 3)} ${digits(r, 3)} ${digits(r, 4)}`,
    email: `${r.pick(['billing', 'accounts', 'info', 'hello'])}@${slug}.example`,
    web: `www.${slug}.example`,
    taxId: r.pick([
      `DE${digits(r, 9)}`,
      `GB ${digits(r, 3)} ${digits(r, 4)} ${digits(r, 2)}`,
      `${digits(r, 2)}-${digits(r, 7)}`,
    ]),
  };
}

function isoDate(r: Random): string {
  const y = r.int(2022, 2025);
  const m = r.int(1, 12);
  const d = r.int(1, 28);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function items(r: Random, count: number, pool: readonly string[], maxPrice: number): Item[] {
  return Array.from({ length: count }, () => {
    const quantity = r.chance(0.3) ? 1 : r.int(1, 24);
    const unitPrice = cents(r.int(150, maxPrice * 100) / 100);
    return {
      description: r.pick(pool),
      quantity,
      unitPrice,
      amount: cents(quantity * unitPrice),
    };
  });
}

function invoiceNumber(r: Random, date: string): string {
  const y = date.slice(0, 4);
  return r.pick([
    `INV-${y}-${digits(r, 4)}`,
    digits(r, 6),
    `${r.pick(['A', 'B', 'S'])}${y.slice(2)}-${digits(r, 4)}`,
    `${y}/${digits(r, 4)}`,
    `F${digits(r, 7)}`,
    `INV${digits(r, 5)}`,
  ]);
}

function poNumber(r: Random): string {
  return r.pick([
    `PO-${digits(r, 4)}`,
    `45${digits(r, 8)}`,
    `PO${digits(r, 6)}`,
    `P-${digits(r, 5)}`,
    `PO-${digits(r, 2)}-${digits(r, 3)}`,
  ]);
}

function accountNumber(r: Random): string {
  return r.pick([
    digits(r, 8),
    `${digits(r, 3)}-${digits(r, 6)}-${digits(r, 2)}`,
    `DE${digits(r, 2)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}`,
    `GB${digits(r, 2)} NWBK ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 4)} ${digits(r, 2)}`,
    digits(r, 12),
    `${digits(r, 4)}-${digits(r, 4)}-${digits(r, 4)}`,
  ]);
}

export function invoiceFacts(r: Random, hints: FactHints = {}): InvoiceFacts {
  const locale = hints.locale ?? r.pick(Object.values(LOCALES));
  const date = isoDate(r);
  const list = items(r, hints.items ?? r.pick([1, 2, 3, 4, 5, 6, 8, 12, 18, 28]), PRODUCTS, 400);
  const subtotal = cents(list.reduce((a, i) => a + i.amount, 0));
  const taxRate = r.pick([0, 5, 7, 8, 10, 19, 20]);
  const tax = cents((subtotal * taxRate) / 100);
  const contact = personName(r).full;
  return {
    type: 'invoice',
    locale,
    vendor: hints.vendor ?? party(r, companyName(r)),
    customer: party(r, companyName(r)),
    contact,
    number: invoiceNumber(r, date),
    date,
    due: addDays(date, r.pick([14, 15, 30, 45, 60])),
    po: poNumber(r),
    items: list,
    taxRate,
    subtotal,
    tax,
    total: cents(subtotal + tax),
    customerId: `C-${digits(r, 5)}`,
  };
}

export function receiptFacts(r: Random, hints: FactHints = {}): ReceiptFacts {
  const locale = hints.locale ?? r.pick(Object.values(LOCALES));
  const list = items(r, hints.items ?? r.int(1, 9), SHOP_ITEMS, 18).map((i) => ({
    ...i,
    quantity: r.chance(0.7) ? 1 : r.int(2, 4),
  }));
  const fixed = list.map((i) => ({ ...i, amount: cents(i.quantity * i.unitPrice) }));
  const subtotal = cents(fixed.reduce((a, i) => a + i.amount, 0));
  const taxRate = r.pick([5, 7, 8.25, 10, 19, 20]);
  const tax = cents((subtotal * taxRate) / 100);
  const total = cents(subtotal + tax);
  const payment = r.chance(0.5) ? 'cash' : 'card';
  const store = hints.merchant ?? party(r, r.pick(SHOPS));
  return {
    type: 'receipt',
    locale,
    merchant: store,
    number: r.pick([
      `${digits(r, 4)}-${digits(r, 3)}`,
      `R${digits(r, 6)}`,
      `${digits(r, 4)}-${digits(r, 4)}-${digits(r, 2)}`,
      `TRN-${digits(r, 6)}`,
      digits(r, 8),
    ]),
    date: isoDate(r),
    time: `${String(r.int(7, 21)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`,
    cashier: personName(r).first,
    register: String(r.int(1, 12)),
    items: fixed,
    taxRate,
    subtotal,
    tax,
    total,
    payment,
    cardLast4: digits(r, 4),
    tendered: payment === 'cash' ? Math.ceil(total / 10) * 10 : total,
  };
}

export function orderFacts(r: Random, hints: FactHints = {}): OrderFacts {
  const locale = hints.locale ?? r.pick(Object.values(LOCALES));
  const date = isoDate(r);
  const list = items(r, hints.items ?? r.pick([1, 2, 3, 4, 6, 9, 14, 24]), PRODUCTS, 600);
  const subtotal = cents(list.reduce((a, i) => a + i.amount, 0));
  const shipping = r.chance(0.4) ? cents(r.int(1000, 9000) / 100) : 0;
  return {
    type: 'purchase_order',
    locale,
    buyer: hints.vendor ?? party(r, companyName(r)),
    vendor: party(r, companyName(r)),
    number: poNumber(r),
    date,
    delivery: addDays(date, r.int(7, 40)),
    items: list,
    shipping,
    subtotal,
    total: cents(subtotal + shipping),
    requester: personName(r).full,
    terms: r.pick(['Net 30', 'Net 45', '2% 10, Net 30', 'Payment on delivery']),
  };
}

export function statementFacts(r: Random, hints: FactHints = {}): StatementFacts {
  const locale = hints.locale ?? r.pick(Object.values(LOCALES));
  const start = hints.start ?? `${r.int(2022, 2025)}-${String(r.int(1, 12)).padStart(2, '0')}-01`;
  const end = addDays(addDays(start, 32).slice(0, 8).concat('01'), -1);
  const holder = hints.holder ?? { name: personName(r).full, address: address(r) };
  let balance = hints.opening ?? cents(r.int(20_000, 900_000) / 100);
  const opening = balance;
  const count = hints.items ?? r.pick([6, 9, 12, 16, 24, 35, 48]);
  const days = Array.from({ length: count }, () => r.int(0, 27)).sort((a, b) => a - b);
  const transactions = days.map((day) => {
    const incoming = r.chance(0.3);
    const amount = cents((incoming ? 1 : -1) * (r.int(300, incoming ? 350_000 : 60_000) / 100));
    balance = cents(balance + amount);
    return {
      date: addDays(start, day),
      description: r.pick(incoming ? TRANSACTIONS_IN : TRANSACTIONS_OUT),
      amount,
      balance,
    };
  });
  return {
    type: 'bank_statement',
    locale,
    bank: hints.bank ?? party(r, r.pick(BANKS)),
    holder: holder.name,
    holderAddress: holder.address,
    account: hints.account ?? accountNumber(r),
    sortCode: `${digits(r, 2)}-${digits(r, 2)}-${digits(r, 2)}`,
    start,
    end,
    opening,
    closing: balance,
    transactions,
  };
}

export function letterFacts(r: Random, hints: FactHints = {}): LetterFacts {
  const locale = hints.locale ?? r.pick(Object.values(LOCALES));
  const person = personName(r);
  const count = r.int(2, 5);
  const paragraphs = Array.from({ length: count }, () =>
    r.sample(LETTER_SENTENCES, r.int(1, 3)).join(' '),
  );
  return {
    type: 'letter',
    locale,
    organization: hints.vendor ?? party(r, companyName(r)),
    date: isoDate(r),
    recipient: { title: r.pick(TITLES), first: person.first, last: person.last },
    recipientRole: r.pick(['Head of Procurement', 'Operations Manager', 'Director', 'Tenant', '']),
    recipientOrg: r.chance(0.6) ? companyName(r) : '',
    recipientAddress: address(r),
    subject: r.pick(LETTER_SUBJECTS),
    paragraphs,
    signer: personName(r).full,
    signerRole: r.pick([
      'Account Manager',
      'Managing Director',
      'Customer Service',
      'Head of Finance',
    ]),
    reference: `${r.pick(['AB', 'KL', 'MS', 'TR'])}/${digits(r, 4)}`,
  };
}

export function factsFor(type: DocType, r: Random, hints: FactHints = {}): Facts {
  switch (type) {
    case 'invoice':
      return invoiceFacts(r, hints);
    case 'receipt':
      return receiptFacts(r, hints);
    case 'purchase_order':
      return orderFacts(r, hints);
    case 'bank_statement':
      return statementFacts(r, hints);
    case 'letter':
      return letterFacts(r, hints);
  }
}

/** The ground truth of a document's facts. */
export function truthOf(facts: Facts): Truth {
  switch (facts.type) {
    case 'invoice':
      return {
        fields: {
          invoice_number: facts.number,
          invoice_date: facts.date,
          due_date: facts.due,
          po_number: facts.po,
          vendor_name: facts.vendor.name,
          customer_name: facts.customer.name,
          subtotal: facts.subtotal,
          tax: facts.tax,
          total: facts.total,
          currency: facts.locale.currency,
        },
        items: facts.items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          unit_price: i.unitPrice,
          amount: i.amount,
        })),
      };
    case 'receipt':
      return {
        fields: {
          merchant_name: facts.merchant.name,
          receipt_number: facts.number,
          date: facts.date,
          payment_method: facts.payment,
          subtotal: facts.subtotal,
          tax: facts.tax,
          total: facts.total,
        },
        items: facts.items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          amount: i.amount,
        })),
      };
    case 'purchase_order':
      return {
        fields: {
          po_number: facts.number,
          order_date: facts.date,
          delivery_date: facts.delivery,
          buyer_name: facts.buyer.name,
          vendor_name: facts.vendor.name,
          total: facts.total,
        },
        items: facts.items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          unit_price: i.unitPrice,
          amount: i.amount,
        })),
      };
    case 'bank_statement':
      return {
        fields: {
          bank_name: facts.bank.name,
          account_holder: facts.holder,
          account_number: facts.account,
          period_start: facts.start,
          period_end: facts.end,
          opening_balance: facts.opening,
          closing_balance: facts.closing,
        },
        items: facts.transactions.map((t) => ({
          date: t.date,
          description: t.description,
          amount: t.amount,
          balance: t.balance,
        })),
      };
    case 'letter':
      return {
        fields: {
          date: facts.date,
          sender_name: facts.signer,
          sender_organization: facts.organization.name,
          recipient_name: `${facts.recipient.first} ${facts.recipient.last}`,
          subject: facts.subject,
        },
        items: [],
      };
  }
}

/** Every text a layout prints (its running head, then its body in order). */
export function layoutTexts(layout: LayoutDoc): string[] {
  const of = (e: Element): string[] => {
    switch (e.kind) {
      case 'text':
        return [...e.lines];
      case 'columns':
        return e.columns.flatMap((c) => c.flatMap(of));
      case 'pairs':
        return e.pairs.flat();
      case 'table':
        return [...e.header, ...e.rows.flat()];
      default:
        return [];
    }
  };
  return [...(layout.running ?? []), ...layout.body.flatMap(of)];
}

/** Words that name a currency in a sentence ("All amounts in euros"). */
const CURRENCY_WORDS = /\b(?:euros?|sterling|pounds?|dollars?|francs?|rupees?|yen)\b/i;

/** Fields a document prints word for word: identifiers and names (dates and amounts it formats). */
const VERBATIM = /(?:_number|_name|^sender_organization|^subject)$/;

/** Text as an identifier or a name is compared: case and spacing aside. */
const squeezed = (text: string) => text.toLowerCase().replace(/\s+/g, '');

/**
 * The ground truth of a document as printed: a fact its layout never prints has no truth (a null
 * field is not scored). An identifier or a name absent from every text (case and spacing aside:
 * a letterhead in spaced capitals still prints its name) was left out by the template; an
 * invoice whose amounts are set without a sign and that names its currency nowhere (no code,
 * sign or word) has none a reader could find.
 */
export function printedTruth(facts: Facts, layout: LayoutDoc): Truth {
  const truth = truthOf(facts);
  const texts = layoutTexts(layout);
  const printed = squeezed(texts.join(''));
  const fields: Record<string, Truth['fields'][string]> = { ...truth.fields };
  for (const [key, value] of Object.entries(fields))
    if (typeof value === 'string' && VERBATIM.test(key) && !printed.includes(squeezed(value)))
      fields[key] = null;
  if (typeof fields.currency === 'string') {
    const { currency, symbol } = facts.locale;
    const code = new RegExp(`\\b${currency}\\b`);
    const named = texts.some((t) => code.test(t) || t.includes(symbol) || CURRENCY_WORDS.test(t));
    if (!named) fields.currency = null;
  }
  return { ...truth, fields };
}
