import { it } from 'vitest';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
const texts = [
  ['Northwind Savings Bank', 'John Smith', '4 Elm Road', 'Leeds LS1 2AB', '', 'Account summary', 'Opening balance on 1 March 2024     1,000.00', 'Money in                           500.00', 'Money out                          200.00', 'Closing balance on 31 March 2024   1,300.00'].join('\n'),
];
it('probe3', () => {
  for (const text of texts) {
    const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
    console.log('>> fields', JSON.stringify(view.pages[0]?.fields.map((f) => [f.label, f.value, f.source])));
    console.log('>> tables', JSON.stringify(view.pages[0]?.tables.map((t) => [t.header.map((c) => c.text), t.rows.length])));
  }
});
