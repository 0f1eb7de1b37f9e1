/**
 * A business document says what it is where it begins: a long text whose first page says
 * nothing of a type is not of that type, however often its chapters use the type's words; a
 * statement whose later pages are only transactions stays a statement.
 */
import { describe, expect, it } from 'vitest';
import { offlineClassify } from '../../src/processors/offline/offline-classify.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const classifications = [
  { id: 'invoice', type: 'invoice' },
  { id: 'stmt', type: 'bank_statement', description: 'A list of account transactions' },
  { id: 'letter', type: 'letter' },
  { id: 'other', type: 'other' },
];

const view = (pages: readonly string[]) =>
  buildDocumentView([{ output: textToParseOutput(pages) }]);

/** A language manual's chapter: statements, lists, balances and accounts in every sentence. */
function chapter(n: number): string {
  return [
    `Chapter ${n}: Statements and lists`,
    'Each statement opens a block; the closing statement ends it and the list of statements in between runs in order.',
    'A list holds the balance of each account as the statement that made it left it, and the opening balance is the first element.',
    'The statement period is the list of statements evaluated since the last closing brace; a deposit statement adds to the account.',
    'Bank the result of each statement in a list and read the balance back with the closing statement.',
  ].join('\n');
}

const titlePage = ['The Language Definition', 'Version 4.2', 'The Core Team'].join('\n');

function transactions(from: number): string {
  return Array.from(
    { length: 18 },
    (_, i) =>
      `${String(((from + i) % 28) + 1).padStart(2, '0')}/03/2024    Card purchase ${from + i}    -${(12 + i).toFixed(2)}    ${(2000 - from - i).toFixed(2)}`,
  ).join('\n');
}

describe('where a document says what it is', () => {
  it('reads a manual whose title page says nothing of statements as other', () => {
    const pages = [titlePage, ...Array.from({ length: 8 }, (_, i) => chapter(i + 1))];
    const out = offlineClassify(view(pages), { classifications });
    expect(out.id).toBe('other');
    expect(out.insights[0]?.content).toMatch(/first page carries 0% of that evidence/);
    // The same chapters after a first page that names the statement read as one.
    const named = offlineClassify(
      view([
        ['Northbank', 'Bank Statement', 'Account Number 12345678', 'Opening Balance 100.00'].join(
          '\n',
        ),
        ...pages.slice(1),
      ]),
      { classifications },
    );
    expect(named.id).toBe('stmt');
  });

  it('keeps a statement whose later pages are only transactions', () => {
    const first = [
      'Northbank plc',
      'Account Statement',
      'Account holder: Maria Meyer',
      'Account number: 4172 5313 9072',
      'Statement period: 1 March 2024 to 31 March 2024',
      'Opening balance 2,000.00',
      'Closing balance 1,640.00',
      'Date    Description    Amount    Balance',
      transactions(0),
    ].join('\n');
    const out = offlineClassify(view([first, transactions(18), transactions(36)]), {
      classifications,
    });
    expect(out.id).toBe('stmt');
    expect(out.confidence).toBeGreaterThan(0.5);
  });
});
