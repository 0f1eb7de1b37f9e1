import { stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';
import { createStyle } from '../../src/output/style.ts';
import { formatTable } from '../../src/output/table.ts';

it('pads columns to the widest cell, ignoring colour codes', () => {
  const red = createStyle(true).red;
  const table = formatTable(
    ['A', 'STATUS', 'NOTE'],
    [
      ['long-name', red('FAILED'), 'x'],
      ['b', 'PROCESSED', ''],
    ],
  );
  expect(table).toContain('\u001b[31mFAILED\u001b[39m');
  const plain = stripVTControlCharacters(table);
  expect(plain.split('\n')).toEqual([
    'A          STATUS     NOTE',
    'long-name  FAILED     x',
    'b          PROCESSED',
  ]);
});
