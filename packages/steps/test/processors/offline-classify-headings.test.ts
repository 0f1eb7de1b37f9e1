/**
 * Short lines near the top of a document (a title under a tall letterhead, a salutation, a
 * complimentary close, a label on its own) weigh as the first lines do: they are where a
 * document says what it is, however many lines its letterhead takes.
 */
import { describe, expect, it } from 'vitest';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { termCounts } from '../../src/processors/offline/term-model.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'invoice', type: 'invoice' },
  { id: 'stmt', type: 'bank_statement' },
  { id: 'letter', type: 'letter' },
  { id: 'other', type: 'other' },
];

const letterhead = [
  'Northbank plc',
  'Retail Banking Services',
  '88 King Street West',
  'Toronto, ON M5H 1J9',
  'Tel. +1 416 555 0100',
  'service@northbank.example',
  'www.northbank.example',
  'Registered in England No. 4412',
];

describe('short lines as headings', () => {
  it('reads a bank letter about an account statement as a letter', () => {
    const text = [
      ...letterhead,
      '12 March 2024',
      'Ms Maria Meyer, 221 Baker Street, Leeds LS1 4AP',
      'Dear Ms Meyer,',
      'Your account statement for February showed an opening balance and a closing balance that differ from the balance of your savings account, because a deposit was booked twice.',
      'The bank has corrected the account and the next statement will show the corrected balance and the transaction that reversed the deposit.',
      'Yours sincerely,',
      'Jonas Lindqvist',
    ].join('\n');
    const out = offlineClassify(buildDocumentView([{ output: textToParseOutput([text]) }]), {
      classifications,
    });
    expect(out.id).toBe('letter');
  });

  it('counts a short line after the sixth as a title and a long one once', () => {
    const lines = [
      ...letterhead,
      'TAX INVOICE',
      'Please pay the invoice within 30 days of its date',
    ];
    const counts = termCounts(lines);
    // Three for the title, one for the sentence.
    expect(counts.counts.get('invoice')).toBe(4);
  });
});
