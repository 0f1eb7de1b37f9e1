/**
 * The intake workflow: split the packet, classify each part, extract invoices, check them with
 * formulas, send failures to a human, collect everything and answer by webhook.
 */
import type { StepDefinition } from '@docflow/engine';

const classifications = [
  {
    id: 'cls_invoice',
    type: 'invoice',
    description: 'An invoice: a bill with an invoice number, line items and a total',
  },
  {
    id: 'cls_delivery_note',
    type: 'delivery_note',
    description: 'A delivery note listing the goods delivered',
  },
  { id: 'cls_other', type: 'other', description: 'Anything else' },
];

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    vendor: { type: ['string', 'null'] },
    invoice_date: { type: ['string', 'null'] },
    subtotal: { type: ['number', 'null'] },
    tax: { type: ['number', 'null'] },
    total: { type: ['number', 'null'] },
  },
};

/** The steps of the intake workflow. */
export const intakeWorkflow: StepDefinition[] = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'split' }] },
  {
    name: 'split',
    type: 'SPLIT',
    config: { splitterConfig: { splitClassifications: classifications } },
    // Every part goes on to its own CLASSIFY, whatever the splitter thought it was.
    next: classifications.map((c) => ({ step: 'classify', classificationId: c.id })),
  },
  {
    name: 'classify',
    type: 'CLASSIFY',
    config: { classifierConfig: { classifications } },
    next: [
      { step: 'invoice', classificationId: 'cls_invoice' },
      { step: 'collect', classificationId: 'cls_delivery_note' },
      { step: 'review', classificationId: 'cls_other' },
    ],
  },
  {
    name: 'invoice',
    type: 'EXTRACT',
    config: { extractorConfig: { schema: invoiceSchema } },
    next: [{ step: 'checks' }],
  },
  {
    name: 'checks',
    type: 'RULE_VALIDATION',
    config: {
      rules: [
        { name: 'has_number', formula: 'ISPRESENT(invoice.invoice_number)' },
        { name: 'has_vendor', formula: 'LEN(TRIM(invoice.vendor)) > 0' },
        {
          name: 'total_adds_up',
          formula: 'ROUND(invoice.subtotal + invoice.tax, 2) = ROUND(invoice.total, 2)',
          description: 'Total = subtotal + tax, to the cent',
        },
        { name: 'positive_total', formula: 'invoice.total > 0' },
      ],
    },
    next: [
      { step: 'collect', result: 'pass' },
      { step: 'review', result: 'fail' },
    ],
  },
  { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'collect' }] },
  { name: 'collect', type: 'COLLECT', next: [{ step: 'respond' }] },
  {
    name: 'respond',
    type: 'WEBHOOK_RESPONSE',
    // JSONata over { run, outputs }; after COLLECT, outputs.<step> lists every path's output
    // (a CLASSIFY output reads as its classification type).
    config: {
      body: `{
        "workflowRunId": run.id,
        "reviewedBy": run.reviewedByUser,
        "documents": [outputs.classify],
        "invoices": [outputs.invoice.{
          "invoice_number": invoice_number,
          "vendor": vendor,
          "invoice_date": invoice_date,
          "total": total
        }]
      }`,
    },
  },
];
