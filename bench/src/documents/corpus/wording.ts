/**
 * How documents word their labels and titles. Each key has development wordings and held-out
 * wordings: a held-out document never uses a development wording for a key that has held-out
 * ones, so the held-out half measures labels the extractor was not tuned on.
 */
import type { CorpusSet } from './model.ts';
import type { Random } from './random.ts';

interface Choices {
  readonly dev: readonly string[];
  readonly held: readonly string[];
}

const W: Readonly<Record<string, Choices>> = {
  'invoice.title': {
    dev: ['INVOICE', 'Invoice', 'TAX INVOICE'],
    held: ['Invoice', 'BILL', 'Sales Invoice'],
  },
  'invoice.number': {
    dev: ['Invoice No.', 'Invoice #', 'Invoice Number', 'Document No.'],
    held: ['Bill number', 'Invoice ref.', 'Inv. No.', 'Invoice ID'],
  },
  'invoice.date': {
    dev: ['Invoice Date', 'Date', 'Date of issue', 'Date invoiced'],
    held: ['Issue date', 'Billing date', 'Dated'],
  },
  'invoice.due': {
    dev: ['Due Date', 'Payment Due', 'Due', 'Due by'],
    held: ['Pay by', 'Due on', 'Payment due date'],
  },
  'invoice.po': {
    dev: ['PO Number', 'P.O. #', 'Purchase Order', 'Purchase Order No.'],
    held: ['Your order', 'Order ref.', 'Customer PO'],
  },
  'invoice.customer': {
    dev: ['Bill To', 'Billed To', 'Customer', 'Billing Address'],
    held: ['Invoice to', 'Sold to', 'Client'],
  },
  'invoice.from': { dev: ['From', 'Vendor'], held: ['Supplier', 'Issued by'] },
  'invoice.customerId': {
    dev: ['Customer ID', 'Account No.'],
    held: ['Client code', 'Customer ref.'],
  },
  'invoice.terms': { dev: ['Terms', 'Payment Terms'], held: ['Conditions', 'Payment conditions'] },
  subtotal: {
    dev: ['Subtotal', 'Sub-total', 'Total excl. tax'],
    held: ['Net amount', 'Total before tax', 'Net total'],
  },
  tax: {
    dev: ['Tax', 'Sales Tax ({rate}%)', 'VAT {rate}%'],
    held: ['GST', 'VAT', 'Tax amount', 'VAT ({rate}%)'],
  },
  'invoice.total': {
    dev: ['Total', 'Total Due', 'Amount Due', 'Balance Due', 'Total Amount Due', 'Please Pay'],
    held: ['Grand total', 'Total payable', 'Amount payable', 'Invoice total'],
  },
  'item.description': {
    dev: ['Description', 'Item', 'Item / Service'],
    held: ['Details', 'Product', 'Article'],
  },
  'item.quantity': { dev: ['Qty', 'Quantity'], held: ['Units', 'Qty.', 'Pcs'] },
  'item.unit': {
    dev: ['Unit Price', 'Rate', 'Price', 'Unit Rate'],
    held: ['Unit cost', 'Each', 'Price/unit'],
  },
  'item.amount': {
    dev: ['Amount', 'Total', 'Line Total', 'Line Amount'],
    held: ['Net', 'Ext. Price', 'Sum', 'Value'],
  },
  'receipt.number': {
    dev: ['Receipt #', 'Receipt No.', 'Trans #', 'Txn No.'],
    held: ['Transaction no.', 'Ticket', 'Bill No.'],
  },
  'receipt.date': { dev: ['Date'], held: ['Date/Time', 'Purchased'] },
  'receipt.payment': {
    dev: ['Paid by', 'Payment', 'Tender', 'Payment Type'],
    held: ['Payment method', 'Paid with', 'Method'],
  },
  'receipt.total': {
    dev: ['TOTAL', 'Total', 'Amount', 'Total Sale', 'BALANCE'],
    held: ['Total paid', 'Grand Total', 'TOTAL DUE', 'To pay'],
  },
  'receipt.title': {
    dev: ['RECEIPT', 'Sales Receipt', ''],
    held: ['Order receipt', 'CUSTOMER COPY', 'Receipt'],
  },
  'po.title': {
    dev: ['PURCHASE ORDER', 'Purchase Order'],
    held: ['Purchase Order', 'ORDER', 'P.O.'],
  },
  'po.number': {
    dev: ['PO Number', 'P.O. No.', 'Purchase Order #', 'Order No.', 'PO ID'],
    held: ['PO #', 'Order number', 'Reference'],
  },
  'po.date': {
    dev: ['Order Date', 'Date', 'PO Date', 'Date Raised'],
    held: ['Issued', 'Date ordered'],
  },
  'po.delivery': {
    dev: ['Delivery Date', 'Required By', 'Deliver By', 'Delivery Required'],
    held: ['Ship date', 'Requested delivery', 'Needed by', 'Expected delivery'],
  },
  'po.vendor': {
    dev: ['Vendor', 'Supplier', 'Supplier Details'],
    held: ['To', 'Seller', 'Ordered from'],
  },
  'po.buyer': { dev: ['Buyer', 'Ordered by'], held: ['Purchaser', 'Customer'] },
  'po.shipTo': { dev: ['Ship To', 'Deliver To'], held: ['Delivery address', 'Consignee'] },
  'po.total': {
    dev: ['Total', 'PO Total', 'Order Total', 'Order Amount'],
    held: ['Grand total', 'Total amount', 'Total value'],
  },
  'po.shipping': { dev: ['Shipping', 'Freight'], held: ['Delivery charge', 'Carriage'] },
  'statement.title': {
    dev: ['Account Statement', 'STATEMENT OF ACCOUNT', 'Bank Statement'],
    held: ['Statement', 'Current Account Statement', 'Monthly statement'],
  },
  'statement.holder': {
    dev: ['Account Holder', 'Account Name', 'Customer', 'Client Name'],
    held: ['Name', 'Prepared for', 'Holder'],
  },
  'statement.account': {
    dev: ['Account Number', 'Account No.', 'Acct #', 'Account ID'],
    held: ['IBAN', 'Account', 'A/C No.'],
  },
  'statement.period': {
    dev: ['Statement Period', 'Period', 'For the period'],
    held: ['Statement dates', 'Covering'],
  },
  'statement.opening': {
    dev: ['Opening Balance', 'Beginning Balance', 'Balance brought forward', 'Starting Balance'],
    held: ['Previous balance', 'Start balance', 'Balance at start'],
  },
  'statement.closing': {
    dev: ['Closing Balance', 'Ending Balance', 'Balance carried forward'],
    held: ['New balance', 'Balance at end', 'Final balance'],
  },
  'statement.sortCode': { dev: ['Sort Code', 'Branch'], held: ['BIC', 'Routing no.'] },
  'tx.date': { dev: ['Date', 'Posting Date'], held: ['Booked', 'Value date', 'Txn date'] },
  'tx.description': {
    dev: ['Description', 'Details', 'Transaction'],
    held: ['Narrative', 'Particulars', 'Reference'],
  },
  'tx.amount': { dev: ['Amount'], held: ['Amount', 'Change'] },
  'tx.debit': { dev: ['Debit', 'Withdrawals'], held: ['Paid out', 'Money out'] },
  'tx.credit': { dev: ['Credit', 'Deposits'], held: ['Paid in', 'Money in'] },
  'tx.balance': { dev: ['Balance'], held: ['Running balance', 'Balance'] },
  'letter.subject': { dev: ['Re:', 'Subject:'], held: ['Regarding:', 'RE:', ''] },
  'letter.close': {
    dev: ['Sincerely,', 'Kind regards,', 'Yours sincerely,', 'Warm regards,'],
    held: ['Yours faithfully,', 'Best regards,', 'With kind regards,'],
  },
  'letter.ref': { dev: ['Our ref', 'File No.'], held: ['Reference', 'Our reference'] },
  thanks: {
    dev: ['Thank you for your business!', 'Thank you for shopping with us'],
    held: ['We appreciate your custom.', 'Please come again'],
  },
};

/** Picks wordings once per document: the same key gives the same label throughout it. */
export function wording(
  r: Random,
  set: CorpusSet,
): (key: string, vars?: Record<string, string>) => string {
  const chosen = new Map<string, string>();
  return (key, vars = {}) => {
    let text = chosen.get(key);
    if (text === undefined) {
      const c = W[key];
      if (!c) throw new Error(`no wording for ${key}`);
      const list = set === 'held-out' && c.held.length > 0 ? c.held : c.dev;
      text = r.pick(list);
      chosen.set(key, text);
    }
    return text.replace(/\{(\w+)\}/g, (_, v: string) => vars[v] ?? '');
  };
}
