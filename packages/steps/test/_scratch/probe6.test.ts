import { it } from 'vitest';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
it('p6', () => {
  const text = ['FRESH BASKET GROCERS', 'Receipt #: 5521', 'Latte', '2 @ 3.20    6.40', 'Croissant', '1 @ 2.50    2.50', 'Milk 2L', '1 @ 2.40    2.40', 'TOTAL    11.40'].join('\n');
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  console.log('>> lines', JSON.stringify(view.pages[0]?.lines.map((l) => l.text)));
  console.log('>> tables', JSON.stringify(view.pages[0]?.tables.map((t) => [t.header.map((c) => c.text), t.rows.map((r) => r.map((c) => c.text))])));
});
