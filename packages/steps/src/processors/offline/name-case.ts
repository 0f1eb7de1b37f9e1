/**
 * Names a page sets in capitals ("NORTHGATE FUEL" heading a till receipt, "KESTREL SOFTWARE" as
 * a letterhead): capitals there are typography, not spelling. The name is given as the document
 * spells it elsewhere in mixed case (a footer, "Cheques payable to …"), else with its words
 * capitalised; acronyms and legal forms keep their own case ("HSBC", "LLC", "GmbH", "S.A.").
 */

import type { DocumentLine, DocumentPage } from '../view/document-view.ts';

/** Legal forms and particles written in capitals, or in their own mixed case. */
const OWN_CASE: Readonly<Record<string, string>> = {
  GMBH: 'GmbH',
  LTD: 'Ltd',
  PVT: 'Pvt',
  AG: 'AG',
  KG: 'KG',
  LLC: 'LLC',
  LLP: 'LLP',
  PLC: 'plc',
  SA: 'SA',
  SAS: 'SAS',
  SARL: 'SARL',
  SRL: 'SRL',
  SPA: 'SpA',
  BV: 'BV',
  NV: 'NV',
  AB: 'AB',
  OY: 'Oy',
  UK: 'UK',
  USA: 'USA',
  US: 'US',
};

/** Small words of a name that stay lower case inside it ("Bank of Scotland", "Rue de la Paix"). */
const SMALL = new Set([
  'of',
  'and',
  'the',
  'for',
  'de',
  'la',
  'le',
  'du',
  'des',
  'von',
  'van',
  'der',
  'und',
  'et',
]);

/** True for a text with letters, none of them lower case, and a word of four letters or more. */
export function inCapitals(text: string): boolean {
  return !/\p{Ll}/u.test(text) && /\p{Lu}{4,}/u.test(text);
}

/** A word of capitals capitalised: "NORTHGATE" → "Northgate", "O'BRIEN" → "O'Brien". */
function capitalised(word: string, first: boolean): string {
  const bare = word.replace(/[^\p{L}]/gu, '');
  const own = OWN_CASE[bare];
  // "S.A.", "B.V.": a legal form spelt with points keeps its capitals.
  if (own !== undefined && !/\./.test(word)) return word.replace(bare, own);
  if (/^(?:\p{Lu}\.)+$/u.test(word)) return word;
  const lower = word.toLowerCase();
  if (!first && SMALL.has(lower)) return lower;
  // Without a vowel a word is an acronym ("HSBC", "KPMG").
  if (!/[AEIOUYÀ-ÖØ-Ý]/u.test(word.normalize('NFC'))) return word;
  // Each part of a compound ("Mercedes-Benz"), and a surname after a one-letter prefix ("O'Brien").
  const up = (letter: string) => letter.toUpperCase();
  return lower.replace(/^\p{L}/u, up).replace(/(?<=-|^\p{L}')\p{L}/gu, up);
}

/** The words of a name in capitals capitalised ("BANQUE LUMIÈRE" → "Banque Lumière"). */
export function capitalisedName(name: string): string {
  return name
    .split(/(\s+)/)
    .map((part, k) => (/\s/.test(part) ? part : capitalised(part, k === 0)))
    .join('');
}

/**
 * The words of some line, other than `except`, that spell `name` letter for letter, case and
 * spaces aside ("Cobalt Cloud" for "COBALT CLOUD" or "C O B A L T C L O U D"), the first for
 * which `accept` holds; undefined when none does.
 */
export function spelledElsewhere(
  name: string,
  lines: readonly DocumentLine[],
  except: number,
  accept: (words: string) => boolean = () => true,
): string | undefined {
  const key = (t: string) => t.replace(/\s+/g, '').toLowerCase();
  const wanted = key(name);
  if (wanted === '') return undefined;
  for (let k = 0; k < lines.length; k++) {
    if (k === except) continue;
    const text = (lines[k] as DocumentLine).text;
    if (!key(text).includes(wanted)) continue;
    const words = text.trim().split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      let joined = '';
      for (let j = i; j < words.length && joined.length < wanted.length; j++) {
        joined += key(words[j] as string);
        const spelled = words.slice(i, j + 1).join(' ');
        if (joined === wanted && accept(spelled)) return spelled;
      }
    }
  }
  return undefined;
}

/**
 * A name the page sets in capitals as the document spells it: its mixed-case spelling on any
 * page, else its words capitalised. Any other name is returned as it is.
 */
export function nameAsSpelled(name: string, pages: readonly DocumentPage[]): string {
  if (!inCapitals(name)) return name;
  for (const page of pages) {
    const spelled = spelledElsewhere(name, page.lines, -1, (w) => /\p{Ll}/u.test(w));
    if (spelled !== undefined) return spelled;
  }
  return capitalisedName(name);
}
