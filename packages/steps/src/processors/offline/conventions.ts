/**
 * What business documents say without labels, by convention of layout:
 * - the issuing organisation is the letterhead: the most prominent name at the top of the first
 *   page (not the document's title, a logo's initials, an address, a phone number or a date);
 * - an addressee block is a name over address lines (the customer of an invoice, the holder of a
 *   statement, the inside address of a letter);
 * - a letter's addressee follows "Dear"; its signer stands under the complimentary close;
 * - a date standing alone near the top is the document's date;
 * - the currency is the one the amounts are written in.
 */

import { parseCurrencyCode, parseDate, parseNumber } from '../value-coercion.ts';
import { isAmount, isLabelCell } from '../view/cell-shapes.ts';
import type { DocumentLine, DocumentPage, DocumentRegion } from '../view/document-view.ts';
import { splitCells } from '../view/table-inference.ts';
import { boxOf, rect, regionOf } from '../view/view-geometry.ts';
import { spelledElsewhere } from './name-case.ts';

/** A value found by convention, with where it is. */
export interface Found {
  readonly value: string;
  readonly region: DocumentRegion;
  readonly lineIndex: number;
  /** For a letterhead: set larger than the body text, or named with a legal form ("Ltd"). */
  readonly prominent?: boolean;
}

/** Words that make a line a document title rather than a name. */
const TITLE_WORDS = new Set(
  'invoice tax sales receipt statement of account bank purchase order p.o. po credit debit note quotation quote bill customer copy commercial monthly current remittance advice delivery packing slip pro forma proforma original duplicate page letter memo your card savings checking loan summary overview activity transactions'.split(
    ' ',
  ),
);

const LEGAL_FORM =
  /\b(inc|ltd|llc|llp|plc|gmbh|ag|sa|s\.a|bv|b\.v|nv|co|corp|corporation|company|limited|pvt|pty|group|bank|trust|union|society|partners|associates|sons|söhne|kg|sarl|srl|spa|oy|ab|as)\b\.?/i;
const STREET =
  /^\d+[a-z]?\s+\p{L}|\b(street|st\.|road|rd\.|avenue|ave\.?|blvd|boulevard|lane|way|drive|place|square|plaza|park|straße|strasse|str\.|rue|via|platz|weg|p\.?o\.? box)\b|\b(suite|unit|floor|building|bldg|plot|flat|apt|apartment|house|block|room|shop|office)\.?\s*#?\d|\p{L}+(straße|strasse|weg|platz|gasse)\s+\d/iu;
const POSTCODE =
  /\b\d{4,6}\s+\p{Lu}\p{L}+|\b\p{Lu}\p{L}+,?\s+[A-Z]{2}\s+\d{5}\b|\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\b\p{Lu}\p{L}+\s+\d{5,6}\b|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/u;
const CONTACT =
  /@|https?:|www\.|\.(com|org|net|example)\b|\b(tel|phone|fax|mobile|e-?mail|web)\b|\+\d/i;

/** Labels of party blocks ("Bill to", "Ship to", "Customer"), which are not names. */
const PARTY_LABEL =
  /^(bill(ed)?|ship(ped)?|sold|invoice(d)?|deliver(y|ed)?|remit|send|pay)\s+to\b|^(from|to|customer|client|vendor|supplier|buyer|seller|purchaser|consignee|recipient|attn|attention|account holder|holder)\b\s*:?$/i;

/**
 * True for an address line: a street with its number, a postcode and town, a PO box. A street
 * word without a number is part of a name ("Maple Street Deli").
 */
export function isAddressLine(text: string): boolean {
  return (STREET.test(text) && /\d/.test(text)) || POSTCODE.test(text);
}

/** Last words that make a text a label ("Account No.", "Statement Period"), not a name. */
const LABEL_END =
  /(\b(no|nr|number|date|period|balance|total|amount|id|ref|reference|code|details|description|charges)\.?|#|:)$/i;

/** A spreadsheet's default sheet name ("Sheet", "Sheet1"), which a sheet's reading may head. */
const SHEET_NAME = /^sheet\s*\d*$/i;

/** True for text that can be an organisation's or a person's name. */
function nameShaped(text: string): boolean {
  const t = text.trim();
  if (LABEL_END.test(t) || SHEET_NAME.test(t)) return false;
  if (t.length < 2 || t.length > 70 || /[:;!?]/.test(t) || /,$/.test(t)) return false;
  // A name starts with a capital or a figure ("stated." is the end of a sentence).
  if (!/^[\p{Lu}\d]/u.test(t)) return false;
  const words = t.split(/\s+/);
  if (words.length > 9) return false;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  if (letters < t.replace(/\s/g, '').length * 0.6) return false;
  if (parseDate(t) !== undefined || CONTACT.test(t) || isAddressLine(t)) return false;
  if (/\d/.test(t) && !LEGAL_FORM.test(t)) return false;
  // A name's words are capitalised but for its small words ("Bank of the North"): a word in
  // lower case makes a tagline or a sentence ("Trade and wholesale", "Your order is confirmed").
  return words.every((w) => !/^\p{Ll}/u.test(w) || NAME_SMALL_WORD.test(w) || LEGAL_FORM.test(w));
}

/** Words a name may write in lower case: articles, conjunctions, prepositions, particles. */
const NAME_SMALL_WORD =
  /^(?:of|and|the|for|at|on|in|by|to|with|a|an|de|del|della|di|da|du|des|la|le|les|el|y|e|et|und|van|von|der|den|dos|das|zu|zum|zur|am|im|&)$/;

/** True for a document title ("TAX INVOICE", "Statement of account"). */
function isTitle(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.length > 0 && words.every((w) => TITLE_WORDS.has(w.replace(/[:#]$/, '')));
}

/**
 * A name without the document's title its text ran into, set flush beside it ("Lakeside Print
 * Works LLCPurchase Order"): cut where a capitalised word follows a letter without a space and
 * the rest is a title (a name in capitals keeps its last word: "NORTHERNCOOPERATIVEBANK").
 */
function withoutGluedTitle(text: string): string {
  for (const m of text.matchAll(/(?<=\p{L}|\.)\p{Lu}(?=\p{Ll})/gu)) {
    const at = m.index ?? 0;
    if (at > 1 && isTitle(text.slice(at))) return text.slice(0, at);
  }
  return text;
}

/** A logo's initials ("BIP", "H C"): short capitals that stand for a longer name nearby. */
function isInitials(text: string): boolean {
  const t = text.replace(/\s+/g, '');
  return t.length <= 4 && /^\p{Lu}+$/u.test(t);
}

function lineHeight(line: DocumentLine): number {
  const box = line.layout ? null : boxOf(line.polygon);
  return box ? box.bottom - box.top : 0;
}

function median(values: readonly number[]): number {
  const sorted = values.filter((v) => v > 0).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The first cell of a line (a letterhead shares its row with the document's labels). */
function firstCell(line: DocumentLine): { text: string; start: number; end: number } | undefined {
  return splitCells(line.text)[0];
}

/** True for cells after the first that are label/value pairs ("Invoice No.    416055"). */
function besidePairs(cells: readonly { text: string }[]): boolean {
  const rest = cells.slice(1);
  // A label's value is no label itself: "Qty    Item / Service    Total" is a table's header.
  return (
    rest.length % 2 === 0 &&
    rest.every((c, k) => (k % 2 === 0) === isLabelCell(c.text.replace(/:$/, '')))
  );
}

/** True for a line that is a label and its value ("Time    17:14", "Invoice No.    416055"). */
function labelAndValue(cells: readonly { text: string }[]): boolean {
  const [label, value] = cells;
  return (
    cells.length === 2 &&
    label !== undefined &&
    value !== undefined &&
    isLabelCell(label.text.replace(/:$/, '')) &&
    // A document's title beside a name ("Banque Lumière    Credit card statement") is no value.
    !nameShaped(value.text) &&
    !isTitle(value.text) &&
    // A pair of its own ("Invoice number: INV-7") is no value of the cell before it.
    !/:(\s|$)/.test(value.text)
  );
}

/**
 * A name set letter-spaced, as letterheads are ("A C M E   T O O L S": letters one space apart,
 * words further apart), as words ("ACME TOOLS"); undefined for any other text. A kerned pair may
 * stay together ("N O RT H E R N": most letters stand alone); where the text lost the wider gaps
 * between words, the letters come out as one word.
 */
export function letterSpaced(text: string): string | undefined {
  const words = text.trim().split(/\s{2,}/);
  const groups = words.flatMap((w) => w.split(' '));
  const single = groups.filter((g) => /^[\p{L}&.]$/u.test(g)).length;
  if (
    !words.every((w) => /^[\p{L}&]{1,2}(?: [\p{L}&.]{1,2}){1,}$/u.test(w)) ||
    single < groups.length * 0.75
  )
    return undefined;
  return words.map((w) => w.replace(/ /g, '')).join(' ');
}

/**
 * The texts a page surely uses as labels: of a date or an amount, or of a name ("Customer
 * name"). A name over its address or beside a title is read as a label too, and stays a name;
 * so does a name with a legal form, or the page's first line, over a date ("NORTHWIND LEGAL LLP"
 * over the letter's date).
 */
function pageLabels(page: DocumentPage): ReadonlySet<string> {
  return new Set(
    page.fields
      .filter(
        (f) =>
          !LEGAL_FORM.test(f.label) &&
          (f.source !== 'below' || (f.lineIndex ?? 0) > 0) &&
          (parseDate(f.value) !== undefined ||
            isAmount(f.value) ||
            /\bname$/i.test(f.label.replace(/:$/, ''))),
      )
      .map((f) => f.label),
  );
}

/**
 * The issuing organisation: among the first lines of the page, the name-shaped text with the
 * best mix of prominence (taller than the body text), a legal form ("Ltd", "GmbH", "Bank") and
 * an early position; titles, initials, addresses, contacts, dates and labels are never it. The
 * letterhead block ends at its contact line (a phone, a web or mail address): a name below it is
 * an addressee's, unless it is set larger than the body text. A name set large on two lines
 * ("Lakeside" over "Medical Supplies") is read as one.
 */
export function letterhead(page: DocumentPage): Found | undefined {
  const lines = page.lines;
  const labelTexts = pageLabels(page);
  const body = median(lines.map(lineHeight));
  const limit = Math.min(lines.length, 14);
  let best: (Found & { score: number }) | undefined;
  let contacted = false;
  for (let i = 0; i < limit; i++) {
    const line = lines[i] as DocumentLine;
    const top = boxOf(line.polygon)?.top;
    if (top !== undefined && !line.layout && top > page.height * 0.35) break;
    // A letterhead is above the document's tables: a row of three cells or more ends the search,
    // unless it is a name beside label/value pairs ("Juniper Cloud    Invoice No.    416055").
    const spaced = letterSpaced(line.text);
    const cells = spaced
      ? [{ text: spelledElsewhere(spaced, lines, i) ?? spaced, start: 0, end: line.text.length }]
      : splitCells(line.text);
    if (cells.length >= 3 && !besidePairs(cells)) break;
    const h = lineHeight(line);
    const large = body > 0 && h > body * 1.2;
    const wasContacted = contacted;
    if (cells.some((c) => CONTACT.test(c.text))) contacted = true;
    if (wasContacted && !large) continue;
    // The name under "Bill to" or "Customer" is a party's, not the issuer's.
    const above = i > 0 ? firstCell(lines[i - 1] as DocumentLine)?.text : undefined;
    if (above && (PARTY_LABEL.test(above.replace(/:$/, '')) || ATTENTION.test(above))) continue;
    // "Time    17:14": a label beside its value.
    if (labelAndValue(cells)) continue;
    const names: string[] = [];
    for (const cell of cells.length >= 3 ? cells.slice(0, 1) : cells) {
      // A sentence that names the issuer ("Cheques payable to …") is no letterhead.
      if (NAMING_SENTENCE.test(cell.text)) continue;
      // A name and its address on one line, set apart by a separator ("Larkspur Tooling Inc. ·
      // 88 Foundry Lane"): the name is the first part.
      // A till's greeting names its shop: "Welcome to Sunrise Bakery".
      const text = withoutGluedTitle(
        (cell.text.split(SEPARATOR)[0] ?? '')
          .replace(/^[#*\s]+|[*\s]+$/g, '')
          .replace(/^welcome\s+to\s+/i, ''),
      );
      // A text the page uses as a label ("Order placed", "Customer name") names no one.
      if (labelTexts.has(text.replace(/:$/, ''))) continue;
      if (!nameShaped(text) || isTitle(text) || isInitials(text)) continue;
      if (
        /^(dear|to|attn|attention|re|subject|from|bill|ship|sold)\b/i.test(text) ||
        PARTY_LABEL.test(text)
      )
        continue;
      names.push(text);
    }
    // Two names side by side (a window address at the left, the issuer's letterhead at the
    // right): the one with a legal form, else the one that is no person's name, else the first.
    const text =
      names.find((n) => LEGAL_FORM.test(n)) ??
      (names.length > 1 ? names.find((n) => !PERSON_NAME.test(withoutHonorific(n))) : undefined) ??
      names[0];
    if (text === undefined) continue;
    let score = 1 - i / (limit + 1);
    if (body > 0 && h > 0) score += Math.min(2, Math.max(0, h / body - 1) * 2);
    if (LEGAL_FORM.test(text)) score += 1;
    // A name over an address is a letterhead or an addressee; the letterhead comes first.
    const next = lines[i + 1]?.text ?? '';
    if (isAddressLine(next) || CONTACT.test(next)) score += 0.3;
    if (!best || score > best.score) {
      best = {
        value: text,
        region: regionOf(line),
        lineIndex: i,
        score,
        prominent: large || LEGAL_FORM.test(text),
      };
    }
  }
  return best && secondLine(best, lines, body);
}

/**
 * A person's name: two or three capitalised words, an initial allowed, a surname such as
 * "O'Brien" too ("The Corner Bakery" is none); tested without its honorific (`withoutHonorific`).
 */
const PERSON_NAME =
  /^(?!The\s)\p{Lu}\p{Ll}+(?:\s+\p{Lu}\.)?(?:\s+\p{Lu}(?:'\p{Lu})?\p{Ll}+(?:-\p{Lu}\p{Ll}+)?){1,2}$/u;

/** An attention line's head ("Attn: Maria Lopez", "FAO Accounts"): a contact at a party. */
const ATTENTION = /^(?:attn|attention|fao|f\.a\.o\.)(?:[.:]\s*|\s+)/i;

/**
 * Nouns of what businesses are or do, which no person's name holds ("Harbor Logistics",
 * "Maple Labs", "Northgate Fuel"): a name of two or three capitalised words with one of them is
 * an organisation's.
 */
const BUSINESS_WORD =
  /\b(?:labs?|laborator(?:y|ies)|analytics|engineering|design|studios?|tool(?:s|ing)|traders?|trading|suppl(?:y|ies)|systems|solutions|services|logistics|electronics|components|medical|health|dental|clinic|pharmacy|consult(?:ing|ants?)|industries|works|print(?:ing)?|office|products|facilities|catering|hardware|motors|garage|fuel|station|books?|deli|bakery|caf[eé]|coffee|kitchen|restaurant|pizzeria|bar|pub|hotel|travel|insurance|capital|financ(?:e|ial)|credit|savings|federal|building|digital|software|tech(?:nolog(?:y|ies))?|media|energy|power|construction|builders|furniture|textiles|fashion|outfitters|goods|wholesale|retail|market|mart|grocers?|foods?|imports?|exports?|centre|center|express|international|global|holdings|ventures|agency|cloud|data|networks|depot|convenience|stores?|shops?)\b/i;

/** True for a person's name, not an organisation's ("Dr. Maria Lopez", not "Maple Labs Ltd"). */
export function isPersonName(text: string): boolean {
  const t = text.trim();
  return PERSON_NAME.test(withoutHonorific(t)) && !LEGAL_FORM.test(t) && !BUSINESS_WORD.test(t);
}

/** What sets the parts of one line apart: a middle dot, a bullet, a bar between spaces. */
const SEPARATOR = /\s+[·•|]\s+/;

/**
 * Sentences that name the issuer (group 1): "Thank you for shopping at Fresh Basket Grocers!",
 * "Cheques payable to Meridian Office Products Inc.".
 */
const NAMING_SENTENCE =
  /\b(?:thank(?:s|\s+you)\s+for\s+(?:shopping|dining|choosing|visiting|banking|staying|ordering)\s+(?:at|with)|(?:cheques?|checks?|payments?)\s+(?:should\s+be\s+|are\s+to\s+be\s+)?(?:made\s+)?payable\s+to)\s*:?\s+(\S.*)$/iu;

/**
 * A footer's legal statement after the issuer's name: "Northwind Savings Bank plc is authorised
 * by …", "Meridian Ltd · Registered in England No. 0123".
 */
const LEGAL_STATEMENT =
  /\s+(?:is\s+|are\s+)?(?:registered|authori[sz]ed|regulated|incorporated)\b|\s*[·•|,]\s*(?:registered|company\s+(?:no|number|reg)|reg(?:istration)?\.?\s+no)/i;

/**
 * The issuer a document names outside its letterhead, for documents without one (a logo as an
 * image, a letterhead a converter dropped): a sentence that names it ("Thank you for shopping at
 * …", "Cheques payable to …"), else the name with a legal form a legal statement follows in the
 * footer ("… plc is authorised by …", "… Ltd · Registered in England …").
 */
export function namedIssuer(pages: readonly DocumentPage[]): Found | undefined {
  for (const page of pages) {
    // A page's naming sentence wins over its legal statement, wherever each stands.
    let stated: Found | undefined;
    for (let i = 0; i < page.lines.length; i++) {
      const line = page.lines[i] as DocumentLine;
      const named = NAMING_SENTENCE.exec(line.text)?.[1];
      const name = named ? trimName(named.split(SEPARATOR)[0] ?? '') : undefined;
      // A name starts with a capital (the pattern's `i` flag folds `\p{Lu}` to any letter).
      if (name && /^\p{Lu}/u.test(name) && nameShaped(name) && !isTitle(name)) {
        return { value: name, region: regionOf(line), lineIndex: i };
      }
      if (stated) continue;
      const before = statedName(line.text);
      if (before && LEGAL_FORM.test(before) && nameShaped(before) && !isTitle(before))
        stated = { value: before, region: regionOf(line), lineIndex: i };
    }
    if (stated) return stated;
  }
  return undefined;
}

/** "Registered office: Meridian Ltd, 12 Market Street, Leeds": the name before the address. */
const REGISTERED_OFFICE = /^\s*registered\s+(?:office|address)\s*:?\s+(\S.*)$/i;

/**
 * The name a footer line states as the issuer's, with or without a legal form (the caller asks
 * for one): before a legal statement ("… plc is authorised by …", "… Ltd · Registered in …"),
 * after "Registered office:" up to its address, or the first of a line's parts set apart by
 * separators when another part is an address ("Meridian Ltd · 12 Market Street · Leeds").
 */
function statedName(text: string): string | undefined {
  const office = REGISTERED_OFFICE.exec(text)?.[1];
  if (office) {
    const parts = office.split(SEPARATOR)[0]?.split(/,\s+/) ?? [];
    const at = parts.findIndex((p, k) => k > 0 && isAddressLine(p));
    return trimName((at > 0 ? parts.slice(0, at) : parts).join(', '));
  }
  const statement = LEGAL_STATEMENT.exec(text);
  if (statement) return trimName(text.slice(0, statement.index).split(SEPARATOR)[0] ?? '');
  const parts = text.split(SEPARATOR);
  if (parts.length >= 3 && parts.slice(1).some(isAddressLine)) return trimName(parts[0] ?? '');
  return undefined;
}

/** A name out of a sentence: without the closing punctuation ("Inc." keeps its point). */
function trimName(text: string): string {
  const t = text.trim().replace(/[!?,;:]+$/, '');
  return /\s\p{L}{5,}\.$/u.test(t) || /^\p{L}{5,}\.$/u.test(t) ? t.slice(0, -1) : t;
}

/**
 * A letterhead completed by the line right under it, or right above it, when that line is set
 * as large, close, is a name too, and is no address, contact or title ("Lakeside" over "Medical
 * Supplies": either line may score best on its own); at body size, only when the name is wrapped
 * at the top of the page.
 */
function secondLine(
  found: Found & { score: number },
  lines: readonly DocumentLine[],
  body: number,
): Found {
  const line = lines[found.lineIndex] as DocumentLine;
  const h = lineHeight(line);
  if (body <= 0 || h <= 0 || splitCells(line.text).length > 1) return found;
  const large = h > body * 1.2;
  // Two lines of one name: the same size, close, one cell each, no complete name above. Set at
  // body size, only a name wrapped at the very top of the page (a narrow cell or block: the
  // lines touch and start at the same edge).
  const joins = (upper: DocumentLine, lower: DocumentLine, added: DocumentLine): boolean => {
    const a = boxOf(upper.polygon);
    const b = boxOf(lower.polygon);
    if (!a || !b) return false;
    const gap = b.top - a.bottom;
    const wrapped = upper === lines[0] && gap <= h * 0.15 && Math.abs(a.left - b.left) <= 1.5;
    const text = added.text.trim();
    return (
      Math.abs(lineHeight(added) - h) <= h * 0.1 &&
      (large ? gap < h * 0.6 : wrapped) &&
      splitCells(added.text).length === 1 &&
      nameShaped(text) &&
      !isTitle(text) &&
      !isInitials(text) &&
      !LEGAL_FORM.test(upper.text)
    );
  };
  const joined = (upper: DocumentLine, lower: DocumentLine, value: string): Found => {
    const a = boxOf(upper.polygon);
    const b = boxOf(lower.polygon);
    const box = rect(
      Math.min(a?.left ?? 0, b?.left ?? 0),
      a?.top ?? 0,
      Math.max(a?.right ?? 0, b?.right ?? 0),
      b?.bottom ?? 0,
    );
    return { ...found, value, region: regionOf(upper, box) };
  };
  const next = lines[found.lineIndex + 1];
  if (next && joins(line, next, next))
    return joined(line, next, `${found.value} ${next.text.trim()}`);
  const previous = found.lineIndex > 0 ? lines[found.lineIndex - 1] : undefined;
  if (previous && joins(previous, line, previous))
    return joined(previous, line, `${previous.text.trim()} ${found.value}`);
  return found;
}

/** A line that may stand in an address block: short, no label, no date, no contact. */
function addressBlockLine(text: string): boolean {
  const t = text.trim();
  return (
    t !== '' &&
    t.length <= 60 &&
    !t.includes(':') &&
    !CONTACT.test(t) &&
    parseDate(t) === undefined &&
    !/[.!?]$/.test(t.replace(/\b\p{L}{1,5}\.$/u, ''))
  );
}

/**
 * Addressee blocks: a name-shaped line followed by address lines (within the next four lines),
 * other than the letterhead itself, in the lines' first cells or, for a block in a right-hand
 * column (label/value pairs at the left, the window-envelope address at the right), in their
 * last cells. Returns the names, top to bottom.
 */
export function addressees(page: DocumentPage, issuer?: Found): Found[] {
  const out: Found[] = [];
  const lines = page.lines;
  // Each line's cells, split once: a block's lines are looked at from every line above them.
  const cells = lines.map((l) => splitCells(l.text));
  const cellOf = (k: number, side: 'first' | 'last') => {
    const of = cells[k] ?? [];
    return side === 'first' ? of[0] : of[of.length - 1];
  };
  const labels = pageLabels(page);
  // The last line of the right-hand block found last: the lines above it are that block's.
  let lastBlockEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    // The last cell of a line of one cell is its first.
    const sides =
      (cells[i]?.length ?? 0) > 1 && i > lastBlockEnd
        ? (['first', 'last'] as const)
        : (['first'] as const);
    for (const side of sides) {
      const street = addressBlock(i, side, cellOf, lines.length, issuer);
      // A label over an address ("Total Due" over a wrapped footer line) names no one.
      if (street && labels.has(street.name)) continue;
      if (street === undefined) continue;
      out.push({ value: street.name, region: regionOf(lines[i] as DocumentLine), lineIndex: i });
      if (side === 'first') i = street.at;
      else lastBlockEnd = street.at;
      break;
    }
  }
  return out;
}

/**
 * The name heading an address block at line `i` on one side of the lines, and the line of its
 * street or postcode; undefined when there is none. A role, a company or a first address line of
 * any shape ("Plot 18, MIDC Andheri") may sit between the name and the street or postcode; a
 * label, a date or a sentence may not.
 */
function addressBlock(
  i: number,
  side: 'first' | 'last',
  cellOf: (k: number, side: 'first' | 'last') => { text: string } | undefined,
  count: number,
  issuer: Found | undefined,
): { name: string; at: number } | undefined {
  const cell = cellOf(i, side);
  if (!cell) return undefined;
  let text = withoutGluedTitle(cell.text.replace(ATTENTION, ''));
  let from = i;
  // "Attn: Maria Lopez" over "Lopez Logistics Ltd": the block names the organisation, the
  // attention line a contact there.
  const org = ATTENTION.test(cell.text) ? (cellOf(i + 1, side)?.text.trim() ?? '') : '';
  if (org !== '' && nameShaped(org) && !isTitle(org) && !isPersonName(org)) {
    text = org;
    from = i + 1;
  }
  if (!nameShaped(text) || isTitle(text) || isInitials(text) || PARTY_LABEL.test(text))
    return undefined;
  // The letterhead itself (its first line, or both when it spans two) is no addressee; a window
  // address beside it on its line is.
  if (issuer && (text === issuer.value || (i === issuer.lineIndex && issuer.value.includes(text))))
    return undefined;
  for (let k = from + 1; k <= from + 4 && k < count; k++) {
    const next = cellOf(k, side)?.text ?? '';
    if (isAddressLine(next)) return { name: text, at: k };
    if (!addressBlockLine(next)) return undefined;
  }
  return undefined;
}

const HONORIFIC = /^(dr|mr|mrs|ms|miss|mx|prof|sir|madam|dame|rev)\.?\s+/i;

/** A person's name without a leading honorific ("Dr. Maria Lopez" → "Maria Lopez"). */
export function withoutHonorific(name: string): string {
  return name.replace(HONORIFIC, '').trim();
}

/**
 * The addressee of a letter: the name after "Dear", completed from the inside address when the
 * salutation gives only part of it ("Dear Ms. Lopez," or "Dear Maria," and "Maria Lopez" above).
 */
export function salutationName(page: DocumentPage): Found | undefined {
  for (let i = 0; i < page.lines.length; i++) {
    const line = page.lines[i] as DocumentLine;
    const dear = /^dear\s+(.+?)[,:;]?\s*$/i.exec(line.text.trim());
    if (!dear?.[1]) continue;
    const named = withoutHonorific(dear[1]);
    if (/^(sir|madam|sirs|customer|colleague|all|team|friend)s?\b/i.test(named)) return undefined;
    const words = named.split(/\s+/);
    const last = words[words.length - 1] ?? '';
    // The inside address above: a line with the same surname and more of the name.
    for (let k = i - 1; k >= Math.max(0, i - 16); k--) {
      const cell = firstCell(page.lines[k] as DocumentLine)?.text ?? '';
      const full = withoutHonorific(cell);
      const fullWords = full.split(/\s+/);
      // The same surname ("Dear Ms. Lopez"), or the same given name alone ("Dear Ingrid").
      const same =
        fullWords[fullWords.length - 1] === last ||
        (words.length === 1 && fullWords[0] === words[0]);
      if (fullWords.length > words.length && fullWords.length <= 5 && same && nameShaped(full))
        return { value: full, region: regionOf(page.lines[k] as DocumentLine), lineIndex: k };
    }
    return { value: named, region: regionOf(line), lineIndex: i };
  }
  return undefined;
}

/**
 * A letter's subject line without a label: the line right above the salutation, set in capitals
 * or of three words or more, that is no address, date, contact or part of a sentence.
 */
export function subjectLine(page: DocumentPage): Found | undefined {
  const at = page.lines.findIndex((l) => /^dear\b/i.test(l.text.trim()));
  const line = at > 0 ? page.lines[at - 1] : undefined;
  if (!line) return undefined;
  const text = line.text.trim();
  const words = text.split(/\s+/);
  const capitals = words.length >= 2 && text === text.toUpperCase() && /\p{Lu}/u.test(text);
  if (
    (!capitals && words.length < 3) ||
    text.length > 120 ||
    /[,;]$/.test(text) ||
    text.includes(':') ||
    splitCells(line.text).length > 1 ||
    isAddressLine(text) ||
    CONTACT.test(text) ||
    parseDate(text) !== undefined
  )
    return undefined;
  return { value: text, region: regionOf(line), lineIndex: at - 1 };
}

const CLOSE =
  /^(sincerely|yours\s+(?:sincerely|faithfully|truly)|(?:with\s+)?(?:kind|best|warm)?\s*regards|respectfully|cordially|thank you),?\s*$/i;

/** Words of a job title ("Head of Finance", "Account Manager"): the signer's role, no organisation. */
const JOB_TITLE =
  /\b(manager|director|head|officer|chief|president|secretary|assistant|associate|coordinator|specialist|engineer|accountant|administrator|representative|consultant|lead|supervisor|clerk|agent|advisor|adviser|analyst|partner|owner|founder|chair|chairman|executive|controller|treasurer|team|department|desk|office of)\b|^(ceo|cfo|coo|cto|cio|vp|svp|evp)\b/i;

/** A letter's signature: the signer and, under the role, the organisation signed for. */
export interface Signature {
  readonly signer?: Found;
  readonly organisation?: Found;
}

/**
 * The signature block of a letter, on whichever page it falls (the close may end one page and
 * the name open the next): the first name-shaped line under the complimentary close is the
 * signer; of the name-shaped lines right under it (up to three: a role, a department, the
 * organisation), the first with a legal form, else the last that is no job title, is the
 * organisation.
 */
export function signature(pages: readonly DocumentPage[]): Signature {
  const lines = pages.flatMap((page) => page.lines);
  let close = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (CLOSE.test((lines[i] as DocumentLine).text.trim())) {
      close = i;
      break;
    }
  if (close < 0) return {};
  const found = (k: number): Found => {
    const line = lines[k] as DocumentLine;
    return { value: line.text.trim(), region: regionOf(line), lineIndex: line.index };
  };
  let signer: Found | undefined;
  let at = -1;
  for (let k = close + 1; k < Math.min(lines.length, close + 4); k++) {
    const text = (lines[k] as DocumentLine).text.trim();
    if (nameShaped(text) && text.length < 60 && !JOB_TITLE.test(text)) {
      signer = found(k);
      at = k;
      break;
    }
  }
  if (!signer) return {};
  // The lines under the name: a role, a department, the organisation (last, as a rule).
  let organisation: Found | undefined;
  for (let k = at + 1; k < Math.min(lines.length, at + 4); k++) {
    const text = (lines[k] as DocumentLine).text.trim();
    if (!nameShaped(text)) break;
    if (isTitle(text) || (JOB_TITLE.test(text) && !LEGAL_FORM.test(text))) continue;
    organisation = found(k);
    if (LEGAL_FORM.test(text)) break;
  }
  return organisation ? { signer, organisation } : { signer };
}

/** A date standing alone on a line near the top ("14 March 2024", "Berlin, 14.03.2024"). */
export function standaloneDate(page: DocumentPage): Found | undefined {
  const i = page.lines.findIndex(
    (l) =>
      // A time of day may stand beside it ("27 October 2023 16:50"); a label may not.
      !l.text.replace(/\b\d{1,2}:\d{2}(:\d{2})?\b/g, '').includes(':') &&
      parseDate(l.text) !== undefined &&
      l.text.length < 40,
  );
  const line = page.lines[i];
  return line ? { value: line.text.trim(), region: regionOf(line), lineIndex: i } : undefined;
}

/** Currencies by name, as a sentence says them ("All amounts in euros", "Currency: sterling"). */
const CURRENCY_WORDS: readonly (readonly [RegExp, string])[] = [
  [/^euros?$/i, 'EUR'],
  [/^(?:pounds?\s+)?sterling$|^british\s+pounds?$|^gb\s+pounds?$/i, 'GBP'],
  [/^(?:us|u\.s\.|american)\s+dollars?$/i, 'USD'],
  [/^canadian\s+dollars?$/i, 'CAD'],
  [/^australian\s+dollars?$/i, 'AUD'],
  [/^swiss\s+francs?$/i, 'CHF'],
  [/^(?:indian\s+)?rupees?$/i, 'INR'],
  [/^(?:japanese\s+)?yen$/i, 'JPY'],
];
const CURRENCY_IN_WORDS =
  /\b(?:in|currency\s*:?)\s+((?:(?:us|u\.s\.|american|canadian|australian|swiss|indian|japanese|british|gb|pounds?)\s+)?(?:euros?|sterling|pounds?|dollars?|francs?|rupees?|yen))\b/gi;

/**
 * The currency most amounts of the document name (by symbol or code). When no amount names one
 * (figures set without a sign), the one currency the document names elsewhere in capitals, by
 * its sign or in words: a column's header ("Amount (EUR)"), "All amounts in CAD", "Currency:
 * GBP", "Prices in pounds sterling"; none when it names two.
 */
export function documentCurrency(pages: readonly DocumentPage[]): string | null {
  const counts = new Map<string, number>();
  const named = new Set<string>();
  for (const page of pages) {
    for (const line of page.lines) {
      const code = parseCurrencyCode(line.text);
      if (code && parseNumber(line.text) !== undefined)
        counts.set(code, (counts.get(code) ?? 0) + 1);
      // A code written in capitals ("cad" among a sentence's words names nothing), or a sign.
      for (const m of line.text.matchAll(/\b[A-Z]{3}\b|(?:\b[A-Z]{1,2})?\p{Sc}/gu)) {
        const written = parseCurrencyCode(m[0]);
        if (written && (m[0].length !== 3 || written === m[0])) named.add(written);
      }
      for (const m of line.text.matchAll(CURRENCY_IN_WORDS)) {
        const said = CURRENCY_WORDS.find(([words]) => words.test(m[1] ?? ''));
        if (said) named.add(said[1]);
      }
    }
  }
  let best: string | null = null;
  let n = 0;
  for (const [code, c] of counts) if (c > n) [best, n] = [code, c];
  return best ?? (named.size === 1 ? ([...named][0] ?? null) : null);
}
