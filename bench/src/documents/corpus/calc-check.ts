/**
 * The check that LibreOffice Calc printed every text of a sheet in full: Calc clips a text too
 * long for its cell at a filled neighbour, and then the PDF does not hold what the ground truth
 * holds. Each text must appear in the PDF's text (pdftotext, runs of white space as one space), or,
 * for a title spaced out letter by letter ("I N V O I C E", which pdftotext reads as one word),
 * with its white space left out on both sides.
 */
import { execFileSync } from 'node:child_process';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The texts of `texts` that the PDF's text does not hold in full. */
export function unprintedTexts(pdf: string, texts: readonly string[]): string[] {
  const printed = squash(
    [
      execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }),
      execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }),
    ].join('\n'),
  );
  const solid = printed.replace(/ /g, '');
  return [...new Set(texts.map(squash))].filter(
    (t) => t !== '' && !printed.includes(t) && !solid.includes(t.replace(/ /g, '')),
  );
}
