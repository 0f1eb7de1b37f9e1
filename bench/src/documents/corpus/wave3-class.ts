/**
 * The third wave's classification documents (development half only, ids `dev-w3k-…`): the
 * families of `templates-wave3-class.ts` through every producer in turn, and short qpdf packets
 * of them (same-type neighbours and mixed).
 */
import type { Wave } from './generate.ts';
import { WAVE3_CLASS_FAMILIES } from './templates-wave3-class.ts';

export const WAVE3_CLASS: Wave = {
  tag: 'w3k',
  families: WAVE3_CLASS_FAMILIES,
  perFamily: 2,
  producers: [
    'writer-odt',
    'chromium',
    'calc',
    'reportlab',
    'ghostscript',
    'writer-html',
    'ghostscript-redistill',
  ],
  packets: [
    { theme: 'receipt + receipt, never called receipts', types: ['receipt', 'receipt'] },
    { theme: 'invoice + receipt', types: ['invoice', 'receipt'] },
    { theme: 'purchase order + invoice', types: ['purchase_order', 'invoice'] },
    { theme: 'card statement + invoice + letter', types: ['bank_statement', 'invoice', 'letter'] },
    { theme: 'receipt + receipt + receipt', types: ['receipt', 'receipt', 'receipt'] },
  ],
};
