import { it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = { type: ['string', 'null'] };
function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}
const bank = { bank_name: { ...str, description: 'The bank that issued the statement' }, account_holder: str, account_number: str };
const po = { po_number: str, buyer: { ...str, description: 'The company placing the order' }, vendor_name: { ...str, description: 'The supplier the order is sent to' } };
const rc = { merchant_name: { ...str, description: 'The store that issued the receipt' }, payment_method: { type: ['string', 'null'], enum: ['cash', 'card', null] } };
const inv = { vendor_name: { ...str, description: 'The company that issued the invoice' }, customer_name: { ...str, description: 'The company billed' } };
const stmt = { ...bank, period_start: { type: ['string', 'null'], format: 'date' }, period_end: { type: ['string', 'null'], format: 'date' }, opening_balance: { type: ['number', 'null'] }, closing_balance: { type: ['number', 'null'] } };
const cases: [string, string, Record<string, unknown>][] = [
  ['beside colon pairs', ['Northwind Savings Bank', '', 'John Smith                Account No.: 12345678', '4 Elm Road                Statement date: 31/03/2024', 'Leeds LS1 2AB             Period: 01/03/2024 - 31/03/2024'].join('\n'), stmt],
  ['beside gap pairs', ['Northwind Savings Bank', '', 'John Smith                Account No.        12345678', '4 Elm Road                Sort code          20-30-40', 'Leeds LS1 2AB             Period             01/03/2024 - 31/03/2024'].join('\n'), stmt],
  ['pairs left address right', ['Northwind Savings Bank', '', 'Account No.: 12345678          John Smith', 'Period: 01/03/2024 - 31/03/2024    4 Elm Road', '                                Leeds LS1 2AB'].join('\n'), stmt],
  ['summary box', ['Northwind Savings Bank', 'John Smith', '4 Elm Road', 'Leeds LS1 2AB', '', 'Account summary', 'Opening balance on 1 March 2024     1,000.00', 'Money in                           500.00', 'Money out                          200.00', 'Closing balance on 31 March 2024   1,300.00'].join('\n'), stmt],
  ['balances row', ['Northwind Savings Bank', 'John Smith', '', 'Previous balance    Payments in    Payments out    New balance', '1,000.00            500.00         200.00          1,300.00'].join('\n'), stmt],
  ['period words', ['Northwind Savings Bank', 'John Smith', 'Statement period 1 March 2024 to 31 March 2024', 'Account 12345678'].join('\n'), stmt],
  ['period from to labels', ['Northwind Savings Bank', 'John Smith', 'From: 01/03/2024', 'To: 31/03/2024', 'Account 12345678'].join('\n'), stmt],
];
it('probe', () => {
  for (const [name, text, props] of cases) console.log('>>', name.padEnd(30), JSON.stringify(extract(text, props)));
});
