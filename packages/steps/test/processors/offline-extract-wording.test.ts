/**
 * Offline extraction asked by schemas in another user's wording: camelCase names, other words
 * for the same thing ("netAmount" for the subtotal, "issueDate" for the invoice date, "fromDate"
 * and "toDate" for a period's ends, "topic" for the subject). Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = { type: ['string', 'null'] };
const num = { type: ['number', 'null'] };
const date = { type: ['string', 'null'], format: 'date' };

function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('schema wording', () => {
  it('reads a net amount as the subtotal and an issue date as the invoice date', () => {
    const value = extract(
      [
        'Invoice',
        'Invoice Date: 2024-03-14',
        'Due Date: 2024-04-13',
        'Subtotal: 100.00',
        'Tax: 20.00',
        'Total: 120.00',
      ].join('\n'),
      { issueDate: date, paymentDueDate: date, netAmount: num, taxAmount: num, totalPaid: num },
    );
    expect(value).toEqual({
      issueDate: '2024-03-14',
      paymentDueDate: '2024-04-13',
      netAmount: 100,
      taxAmount: 20,
      totalPaid: 120,
    });
  });

  it("reads fromDate and toDate as a period's ends and a topic as the subject", () => {
    const value = extract(
      [
        'Account Statement',
        'Statement Period: 01/03/2024 - 31/03/2024',
        'Subject: Renewal of the lease',
      ].join('\n'),
      { fromDate: date, toDate: date, topic: str },
    );
    expect(value).toEqual({
      fromDate: '2024-03-01',
      toDate: '2024-03-31',
      topic: 'Renewal of the lease',
    });
  });
});
