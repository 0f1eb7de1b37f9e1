/**
 * A long text that only now and then uses a business type's words (a manual's "statement" and
 * "list") is none of the business types; a short letter with its few telling words is a letter.
 */
import { describe, expect, it } from 'vitest';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'stmt', type: 'bank_statement' },
  { id: 'letter', type: 'letter' },
  { id: 'other', type: 'other' },
];

function classify(pages: readonly string[]) {
  return offlineClassify(buildDocumentView([{ output: textToParseOutput(pages) }]), {
    classifications,
  });
}

describe('classification of long texts', () => {
  it('reads a manual that mentions statements and lists now and then as other', () => {
    const paragraph =
      'The solver reads the model section by section; each statement declares a set, a parameter or a variable, and the list of constraints keeps its rows and columns fixed until the presolver runs.';
    const filler =
      'Options are given on the command line or in the model file; the routine returns a code that the caller checks before it reads the solution vector and the reduced costs of every column.';
    const pages = Array.from({ length: 12 }, (_, i) =>
      [`Chapter ${i + 1}`, paragraph, filler, filler, filler, filler, filler].join('\n'),
    );
    expect(classify(pages).id).toBe('other');
  });

  it('reads a short letter as a letter', () => {
    const letter = [
      'Silverline Logistics B.V.',
      'Mr. Jonas Lindqvist',
      'Re: Confirmation of your appointment',
      'Dear Jonas,',
      'As discussed on the telephone, the changes will take effect at the beginning of next month.',
      'Our team will contact you shortly to agree on a convenient date for the next steps.',
      'Kind regards,',
      'Mateo Novak',
    ].join('\n');
    expect(classify([letter]).id).toBe('letter');
  });
});
