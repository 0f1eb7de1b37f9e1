/**
 * The workflow under test: a user's own expense intake. Invoices are extracted and checked by
 * rules (failures go to a human), receipts are extracted, anything else goes to a human.
 */
import type { StepDefinition } from '@docflow/engine';

/** The invoice fields the rules read. */
const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    total: { type: ['number', 'null'] },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { amount: { type: ['number', 'null'] } } },
    },
  },
};

/** The steps of the expense-intake workflow, as they would be deployed in production. */
export const expenseWorkflow: StepDefinition[] = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'classify' }] },
  {
    name: 'classify',
    type: 'CLASSIFY',
    config: {
      classifierConfig: {
        classifications: [
          { id: 'cls_invoice', type: 'invoice', description: 'A bill for goods or services' },
          { id: 'cls_receipt', type: 'receipt', description: 'Proof of payment' },
          { id: 'cls_other', type: 'other', description: 'Anything else' },
        ],
      },
    },
    next: [
      { step: 'invoice', classificationId: 'cls_invoice' },
      { step: 'receipt', classificationId: 'cls_receipt' },
      { step: 'review', classificationId: 'cls_other' },
    ],
  },
  {
    name: 'invoice',
    type: 'EXTRACT',
    config: { extractorConfig: { schema: invoiceSchema } },
    retry: { maxAttempts: 4, initialIntervalMs: 1_000, backoffCoefficient: 2 },
    next: [{ step: 'checks' }],
  },
  {
    name: 'receipt',
    type: 'EXTRACT',
    config: { extractorConfig: { schema: { type: 'object', properties: {} } } },
    next: [{ step: 'done' }],
  },
  {
    name: 'checks',
    type: 'RULE_VALIDATION',
    config: {
      rules: [
        { name: 'has_number', formula: 'ISPRESENT(invoice.invoice_number)' },
        { name: 'lines_add_up', formula: 'SUM(invoice.line_items.amount) = invoice.total' },
        { name: 'positive_lines', formula: 'invoice.line_items.amount > 0' },
      ],
    },
    next: [
      { step: 'done', result: 'pass' },
      { step: 'review', result: 'fail' },
    ],
  },
  { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'done' }] },
  { name: 'done', type: 'COLLECT' },
];
