/**
 * The extraction schemas and classifications the evaluation asks with. The development half is
 * asked with one wording of each schema; the held-out half with another (other property names
 * and descriptions, as a different user would write them), so that a result on the held-out half
 * says nothing was tuned to a property name either. Each property maps to a canonical truth key.
 */
import type { CorpusSet, DocType } from '../corpus/model.ts';

type Kind = 'string' | 'date' | 'number' | 'enum';

interface Prop {
  /** The canonical truth key. */
  readonly key: string;
  readonly name: string;
  readonly kind: Kind;
  readonly description?: string;
  readonly values?: readonly string[];
}

interface SchemaSpec {
  readonly fields: readonly Prop[];
  /** The array property and its item properties (none for letters). */
  readonly items?: {
    readonly name: string;
    readonly description?: string;
    readonly props: readonly Prop[];
  };
}

const s = (key: string, name: string, description?: string): Prop => ({
  key,
  name,
  kind: 'string',
  ...(description ? { description } : {}),
});
const d = (key: string, name: string, description?: string): Prop => ({
  ...s(key, name, description),
  kind: 'date',
});
const n = (key: string, name: string, description?: string): Prop => ({
  ...s(key, name, description),
  kind: 'number',
});

const SPECS: Readonly<Record<CorpusSet, Readonly<Record<DocType, SchemaSpec>>>> = {
  development: {
    invoice: {
      fields: [
        s('invoice_number', 'invoice_number', 'The invoice number'),
        d('invoice_date', 'invoice_date', 'The date the invoice was issued'),
        d('due_date', 'due_date', 'The date payment is due'),
        s('po_number', 'po_number', 'The purchase order number the invoice refers to'),
        s('vendor_name', 'vendor_name', 'The company that issued the invoice'),
        s('customer_name', 'customer_name', 'The company billed'),
        n('subtotal', 'subtotal'),
        n('tax', 'tax'),
        n('total', 'total', 'The total amount due'),
        s('currency', 'currency', 'ISO 4217 currency code of the amounts'),
      ],
      items: {
        name: 'line_items',
        props: [
          s('description', 'description'),
          n('quantity', 'quantity'),
          n('unit_price', 'unit_price'),
          n('amount', 'amount'),
        ],
      },
    },
    receipt: {
      fields: [
        s('merchant_name', 'merchant_name', 'The store that issued the receipt'),
        s('receipt_number', 'receipt_number'),
        d('date', 'date', 'The date of the purchase'),
        { key: 'payment_method', name: 'payment_method', kind: 'enum', values: ['cash', 'card'] },
        n('subtotal', 'subtotal'),
        n('tax', 'tax'),
        n('total', 'total', 'The amount paid'),
      ],
      items: {
        name: 'items',
        props: [s('description', 'description'), n('quantity', 'quantity'), n('amount', 'amount')],
      },
    },
    purchase_order: {
      fields: [
        s('po_number', 'po_number', 'The purchase order number'),
        d('order_date', 'order_date'),
        d('delivery_date', 'delivery_date', 'The requested delivery date'),
        s('buyer_name', 'buyer', 'The company placing the order'),
        s('vendor_name', 'vendor_name', 'The supplier the order is sent to'),
        n('total', 'total'),
      ],
      items: {
        name: 'line_items',
        props: [
          s('description', 'description'),
          n('quantity', 'quantity'),
          n('unit_price', 'unit_price'),
          n('amount', 'amount'),
        ],
      },
    },
    bank_statement: {
      fields: [
        s('bank_name', 'bank_name', 'The bank that issued the statement'),
        s('account_holder', 'account_holder'),
        s('account_number', 'account_number'),
        d('period_start', 'period_start', 'First day of the statement period'),
        d('period_end', 'period_end', 'Last day of the statement period'),
        n('opening_balance', 'opening_balance'),
        n('closing_balance', 'closing_balance'),
      ],
      items: {
        name: 'transactions',
        props: [
          d('date', 'date'),
          s('description', 'description'),
          n('amount', 'amount', 'Negative for money out'),
          n('balance', 'balance'),
        ],
      },
    },
    letter: {
      fields: [
        d('date', 'date', 'The date of the letter'),
        s('sender_name', 'sender_name', 'The person who signed the letter'),
        s('sender_organization', 'sender_organization', 'The organisation the letter comes from'),
        s('recipient_name', 'recipient', 'The person the letter is addressed to'),
        s('subject', 'subject', 'The subject line'),
      ],
    },
  },
  'held-out': {
    invoice: {
      fields: [
        s('invoice_number', 'invoiceId', 'Identifier of the invoice'),
        d('invoice_date', 'issueDate'),
        d('due_date', 'paymentDueDate'),
        s('po_number', 'purchaseOrderReference', "The buyer's order reference"),
        s('vendor_name', 'supplier', 'Name of the business that sent the bill'),
        s('customer_name', 'billTo', 'Who the invoice is addressed to (company name)'),
        n('subtotal', 'netAmount', 'Amount before tax'),
        n('tax', 'taxAmount'),
        n('total', 'amountDue', 'Gross amount to pay'),
        s('currency', 'currencyCode'),
      ],
      items: {
        name: 'items',
        description: 'The billed lines',
        props: [
          s('description', 'item'),
          n('quantity', 'qty'),
          n('unit_price', 'price', 'Price per unit'),
          n('amount', 'lineTotal'),
        ],
      },
    },
    receipt: {
      fields: [
        s('merchant_name', 'store', 'Name of the shop'),
        s('receipt_number', 'transactionId'),
        d('date', 'purchaseDate'),
        { key: 'payment_method', name: 'paymentType', kind: 'enum', values: ['cash', 'card'] },
        n('subtotal', 'netTotal'),
        n('tax', 'salesTax'),
        n('total', 'totalPaid'),
      ],
      items: {
        name: 'purchasedItems',
        props: [
          s('description', 'name'),
          n('quantity', 'count'),
          n('amount', 'price', 'Amount charged for the line'),
        ],
      },
    },
    purchase_order: {
      fields: [
        s('po_number', 'orderNumber'),
        d('order_date', 'dateOrdered'),
        d('delivery_date', 'deliverBy'),
        s('buyer_name', 'purchaser', 'Company that issued the order'),
        s('vendor_name', 'supplierName', 'Company the goods are ordered from'),
        n('total', 'orderTotal'),
      ],
      items: {
        name: 'orderLines',
        props: [
          s('description', 'product'),
          n('quantity', 'qty'),
          n('unit_price', 'unitCost'),
          n('amount', 'lineAmount'),
        ],
      },
    },
    bank_statement: {
      fields: [
        s('bank_name', 'institution', 'Name of the bank'),
        s('account_holder', 'customerName', 'Owner of the account'),
        s('account_number', 'accountId', 'Account number or IBAN'),
        d('period_start', 'fromDate'),
        d('period_end', 'toDate'),
        n('opening_balance', 'startingBalance'),
        n('closing_balance', 'endingBalance'),
      ],
      items: {
        name: 'entries',
        props: [
          d('date', 'bookingDate'),
          s('description', 'text'),
          n('amount', 'value', 'Signed amount, negative for debits'),
          n('balance', 'runningBalance'),
        ],
      },
    },
    letter: {
      fields: [
        d('date', 'letterDate'),
        s('sender_name', 'signedBy', 'Name of the signatory'),
        s('sender_organization', 'fromCompany'),
        s('recipient_name', 'addressee', 'Name of the person written to'),
        s('subject', 'topic', 'What the letter is about'),
      ],
    },
  },
};

function propSchema(p: Prop): Record<string, unknown> {
  const base = p.description ? { description: p.description } : {};
  switch (p.kind) {
    case 'string':
      return { type: ['string', 'null'], ...base };
    case 'date':
      return { type: ['string', 'null'], format: 'date', ...base };
    case 'number':
      return { type: ['number', 'null'], ...base };
    case 'enum':
      return { type: ['string', 'null'], enum: [...(p.values ?? []), null], ...base };
  }
}

/** The JSON Schema a user of this half would send for `type`. */
export function schemaFor(set: CorpusSet, type: DocType): Record<string, unknown> {
  const spec = SPECS[set][type];
  const properties: Record<string, unknown> = {};
  for (const p of spec.fields) properties[p.name] = propSchema(p);
  if (spec.items) {
    const item: Record<string, unknown> = {};
    for (const p of spec.items.props) item[p.name] = propSchema(p);
    properties[spec.items.name] = {
      type: 'array',
      ...(spec.items.description ? { description: spec.items.description } : {}),
      items: { type: 'object', properties: item },
    };
  }
  return { type: 'object', properties };
}

/** An extracted value re-keyed to the canonical truth keys. */
export function canonical(
  set: CorpusSet,
  type: DocType,
  value: Readonly<Record<string, unknown>>,
): { fields: Record<string, unknown>; items: Record<string, unknown>[] } {
  const spec = SPECS[set][type];
  const fields: Record<string, unknown> = {};
  for (const p of spec.fields) fields[p.key] = value[p.name] ?? null;
  const raw = spec.items ? value[spec.items.name] : undefined;
  const items = Array.isArray(raw)
    ? raw.map((row) => {
        const out: Record<string, unknown> = {};
        for (const p of spec.items?.props ?? [])
          out[p.key] = (row as Record<string, unknown>)?.[p.name] ?? null;
        return out;
      })
    : [];
  return { fields, items };
}

/** The kind of each canonical key of a type (how it is compared). */
export function kindsOf(type: DocType): Record<string, Kind> {
  const spec = SPECS.development[type];
  const out: Record<string, Kind> = {};
  for (const p of spec.fields) out[p.key] = p.kind;
  for (const p of spec.items?.props ?? []) out[`item.${p.key}`] = p.kind;
  return out;
}

/** The classifications each half is asked with. */
export function classificationsFor(
  set: CorpusSet,
): { id: string; type: string; description: string }[] {
  if (set === 'development')
    return [
      { id: 'invoice', type: 'invoice', description: 'A bill from a supplier asking for payment' },
      { id: 'receipt', type: 'receipt', description: 'Proof of a purchase already paid' },
      {
        id: 'purchase_order',
        type: 'purchase_order',
        description: 'An order for goods sent to a supplier',
      },
      {
        id: 'bank_statement',
        type: 'bank_statement',
        description: 'A list of account transactions for a period',
      },
      { id: 'letter', type: 'letter', description: 'Business correspondence' },
      { id: 'other', type: 'other', description: 'Anything else' },
    ];
  return [
    { id: 'cls_inv', type: 'Invoice', description: 'Supplier invoices' },
    { id: 'cls_rcpt', type: 'Sales receipt', description: 'Till and online receipts' },
    { id: 'cls_po', type: 'Purchase order', description: 'Orders we place with suppliers' },
    { id: 'cls_stmt', type: 'Bank statement', description: 'Statements of our bank accounts' },
    {
      id: 'cls_letter',
      type: 'Business letter',
      description: 'Letters from customers, suppliers and agencies',
    },
    { id: 'cls_other', type: 'other', description: 'Everything else' },
  ];
}

/** The corpus type a classification id stands for. */
export function typeOfClassification(id: string): DocType | 'other' {
  const map: Record<string, DocType | 'other'> = {
    invoice: 'invoice',
    receipt: 'receipt',
    purchase_order: 'purchase_order',
    bank_statement: 'bank_statement',
    letter: 'letter',
    cls_inv: 'invoice',
    cls_rcpt: 'receipt',
    cls_po: 'purchase_order',
    cls_stmt: 'bank_statement',
    cls_letter: 'letter',
  };
  return map[id] ?? 'other';
}
