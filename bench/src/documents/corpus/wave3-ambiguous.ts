/**
 * The wave `w3c` (development half only, ids `dev-w3c-…`): documents whose type is hard to tell
 * (`templates-wave3-ambiguous.ts`) through every producer in turn, ReportLab and re-distilled
 * PDFs among them, and short qpdf packets of them.
 */
import type { Wave } from './generate.ts';
import { WAVE3_AMBIGUOUS_FAMILIES } from './templates-wave3-ambiguous.ts';

export const WAVE3_AMBIGUOUS: Wave = {
  tag: 'w3c',
  families: WAVE3_AMBIGUOUS_FAMILIES,
  perFamily: 2,
  producers: [
    'reportlab',
    'ghostscript-redistill',
    'writer-odt',
    'chromium',
    'calc',
    'ghostscript',
    'writer-html',
  ],
  packets: [
    { theme: 'receipt voucher + receipt voucher', types: ['receipt', 'receipt'] },
    { theme: 'letter acknowledging a payment + invoice', types: ['letter', 'invoice'] },
    {
      theme: 'order by letter + invoice + receipt',
      types: ['purchase_order', 'invoice', 'receipt'],
    },
    { theme: 'short statement + short statement', types: ['bank_statement', 'bank_statement'] },
  ],
};
