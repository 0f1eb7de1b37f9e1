import { it } from 'vitest';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';
const str = { type: ['string', 'null'] };
const num = { type: ['number', 'null'] };
const schema = { items: { type: 'array', items: { type: 'object', properties: { description: str, quantity: num, amount: num } } }, total: num };
const head = ['FRESH BASKET GROCERS', '101 Market Row, Leeds', 'Receipt #: 5521', 'Date: 03/03/2024'];
const foot = ['Subtotal    11.40', 'Tax    0.00', 'TOTAL    11.40', 'VISA    11.40'];
const cases: [string, string[]][] = [
  ['plain', ['Latte    3.20', 'Croissant    2.50', 'Milk 2L    5.70']],
  ['qty x', ['2 x Latte    6.40', 'Croissant    2.50', 'Milk 2L    2.50']],
  ['qty x at', ['Latte 2 x 3.20    6.40', 'Croissant 1 x 2.50    2.50', 'Milk 2L 1 x 2.50    2.50']],
  ['qty line below', ['Latte', '2 @ 3.20    6.40', 'Croissant', '1 @ 2.50    2.50', 'Milk 2L', '1 @ 2.40    2.50']],
  ['header cols', ['QTY  ITEM          PRICE', '2    Latte         6.40', '1    Croissant     2.50', '1    Milk 2L       2.50']],
  ['header desc amt', ['Item                 Amount', 'Latte x2              6.40', 'Croissant             2.50', 'Milk 2L               2.50']],
  ['sku', ['001234 Latte    6.40', '005678 Croissant    2.50', '009999 Milk 2L    2.50']],
  ['tax flag', ['Latte    6.40 A', 'Croissant    2.50 A', 'Milk 2L    2.50 B']],
  ['currency', ['Latte    $6.40', 'Croissant    $2.50', 'Milk 2L    $2.50']],
  ['qty times price', ['Latte          2 x 3.20 = 6.40', 'Croissant      1 x 2.50 = 2.50', 'Milk 2L        1 x 2.50 = 2.50']],
  ['three cells', ['Latte    2    6.40', 'Croissant    1    2.50', 'Milk 2L    1    2.50']],
  ['three cells qty first', ['2    Latte    6.40', '1    Croissant    2.50', '1    Milk 2L    2.50']],
  ['dots', ['Latte ........ 6.40', 'Croissant .... 2.50', 'Milk 2L ...... 2.50']],
];
it('p5', () => {
  for (const [name, lines] of cases) {
    const view = buildDocumentView([{ output: textToParseOutput([[...head, ...lines, ...foot].join('\n')]) }]);
    const out = offlineExtract(view, { type: 'object', properties: schema });
    console.log('>>', name.padEnd(16), JSON.stringify(out.value));
  }
});
