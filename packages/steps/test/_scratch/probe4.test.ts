import { it } from 'vitest';
import { letterhead, namedIssuer } from '../../src/processors/offline/conventions.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
it('p4', () => {
  const text = ['ACCOUNT STATEMENT', 'John Smith', '4 Elm Road', 'Leeds LS1 2AB', 'Account number: 12345678', '', 'Northwind Savings Bank plc is authorised by the Prudential Regulation Authority.'].join('\n');
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  console.log('>>', JSON.stringify(view.pages[0]?.lines.map((l) => l.text)), JSON.stringify(letterhead(view.pages[0]!)?.value), JSON.stringify(namedIssuer(view.pages)?.value));
});
