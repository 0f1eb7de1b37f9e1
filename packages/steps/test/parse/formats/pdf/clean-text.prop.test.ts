import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { cleanText } from '../../../../src/parse/formats/pdf/text-lines.ts';

/** The definition cleanText's one-pass check stands in for: the two regular expressions alone. */
function reference(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters it drops.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').replace(/\s+/g, ' ');
}

/** Letters, spaces, controls and every kind of whitespace `\s` knows, mixed. */
const tricky = fc.constantFrom(
  'a',
  'é',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u0008',
  '\u000b',
  '\u001c',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u180e',
  '\u2003',
  '\u200a',
  '\u200b',
  '\u2028',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
);

describe('cleanText', () => {
  test.prop([fc.array(tricky, { maxLength: 12 }).map((chars) => chars.join(''))], {
    numRuns: 2000,
  })('drops controls and collapses whitespace as the regular expressions do', (text) => {
    expect(cleanText(text)).toBe(reference(text));
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 20 })])('on any text', (text) => {
    expect(cleanText(text)).toBe(reference(text));
  });
});
