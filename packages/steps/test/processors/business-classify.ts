/**
 * The five business types of the classification tests (and `other`), and a document made of
 * lines classified against them by the offline provider.
 */
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import type { ClassifyOutput } from '../../src/processors/provider.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

export const BUSINESS_CLASSIFICATIONS = [
  { id: 'invoice', type: 'invoice', description: 'A bill from a supplier asking for payment' },
  { id: 'receipt', type: 'receipt', description: 'Proof of a purchase already paid' },
  { id: 'po', type: 'purchase_order', description: 'An order for goods sent to a supplier' },
  { id: 'stmt', type: 'bank_statement', description: 'A list of account transactions' },
  { id: 'letter', type: 'letter', description: 'Business correspondence' },
  { id: 'other', type: 'other' },
];

/** Classifies a one-page document of `lines`. */
export function classifyBusiness(lines: readonly string[]): ClassifyOutput {
  return offlineClassify(buildDocumentView([{ output: textToParseOutput([lines.join('\n')]) }]), {
    classifications: BUSINESS_CLASSIFICATIONS,
  });
}
