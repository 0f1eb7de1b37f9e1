/**
 * The weighted term model of the offline classifier and splitter. Each classification gets a
 * bag of weighted terms from its type (heaviest), its description, the rules that mention it and
 * a small built-in vocabulary for common business document types; terms shared by several
 * classifications are discounted. A text scores against a classification by the weighted,
 * log-damped frequency of its best-matching terms, with the title zone (the first lines)
 * counting triple.
 */
import type { Classification } from '../processor-config.ts';
import { tokens } from '../text-tokens.ts';
import { parseNumber } from '../value-coercion.ts';

/** Known vocabulary of common document types: terms a document of that type usually carries. */
const BUILTIN_HINTS: Readonly<Record<string, readonly string[]>> = {
  // "Bill to", "Invoice to" read as customer; an invoice asks for a transfer to its IBAN.
  invoice: [
    'invoice',
    'invoice',
    'bill',
    // A date or an amount due is what makes a bill of a document that does not say its name.
    'due',
    'due',
    'remit',
    // Rows of goods priced out (shared by invoices, receipts and orders: they tell those from
    // letters and statements, not from each other).
    '@priced-row',
    '@priced-row',
    // A payment asked for weighs as the type's name does (twice a built-in word).
    '@payment-asked',
    '@payment-asked',
    'payment term',
    'total',
    'tax',
    'customer',
    'iban',
  ],
  receipt: [
    'receipt',
    'receipt',
    'paid',
    'change',
    'cash',
    'thank',
    'visit',
    'transaction',
    'card',
    'cashier',
    'tender',
    'register',
    'till',
    'trans',
    'visa',
    'mastercard',
    '@time-of-day',
    // A card's masked number is printed where a card was charged, and a payment said to be made
    // is what a receipt is proof of, whatever it is called (a web shop's confirmation of an order
    // paid by card, a terminal's slip): both weigh as the type's name does.
    '@masked-card',
    '@masked-card',
    '@paid',
    '@paid',
    '@narrow-page',
    // What card terminals, restaurants and fuel stations print.
    'approved',
    'auth',
    'contactless',
    'tip',
    'gratuity',
    'pump',
    'guest',
    // Totals and taxes are on receipts as on invoices: shared, they tell neither apart.
    'total',
    'tax',
    '@priced-row',
    '@priced-row',
  ],
  purchase_order: [
    'purchase_order',
    'purchase_order',
    'vendor',
    'shipping',
    'deliver',
    'requested',
    'authorized',
    'buyer',
    'order',
    // An order placed ("Please supply the following") weighs as the type's name does.
    '@ordering',
    '@ordering',
    '@priced-row',
    '@priced-row',
    // Orders state their payment terms as invoices do: shared, they tell neither apart.
    'payment term',
  ],
  bank_statement: [
    'statement',
    'statement',
    'bank',
    'balance',
    'opening',
    'closing',
    'deposit',
    'withdrawal',
    'account',
    'transaction',
    // Rows that begin with a date and carry amounts are a statement's own structure.
    '@dated-row',
    '@dated-row',
  ],
  letter: [
    'dear',
    'dear',
    'dear',
    'sincerely',
    'sincerely',
    'regards',
    'regards',
    'yours',
    'faithfully',
    'subject',
  ],
  contract: [
    'agreement',
    'agreement',
    'party',
    'hereby',
    'term',
    'clause',
    'witness',
    'signature',
    'governing',
  ],
  resume: ['experience', 'experience', 'education', 'skill', 'employment', 'reference'],
  credit_note: ['credit', 'credit', 'refund', 'original', 'invoice'],
  quote: ['quote', 'quotation', 'quotation', 'estimate', 'valid', 'until'],
  delivery_note: ['delivery', 'packing', 'packing', 'slip', 'shipped', 'received'],
  payslip: [
    'payslip',
    'payslip',
    'pay',
    'salary',
    'gross',
    'net',
    'deduction',
    'employee',
    'earning',
  ],
};

/** One classification's weighted terms. */
export interface TermProfile {
  readonly classification: Classification;
  readonly weights: ReadonlyMap<string, number>;
  /** The tokens of the classification's type (its name), which a label's boost does not raise. */
  readonly names: ReadonlySet<string>;
  readonly isOther: boolean;
}

function hintsFor(type: string): readonly string[] {
  const key = type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const direct = BUILTIN_HINTS[key];
  if (direct) return direct;
  const aliases: Readonly<Record<string, string>> = {
    po: 'purchase_order',
    statement: 'bank_statement',
    bank: 'bank_statement',
    correspondence: 'letter',
    bill: 'invoice',
    quotation: 'quote',
    estimate: 'quote',
    cv: 'resume',
  };
  const alias = aliases[key];
  if (alias) return BUILTIN_HINTS[alias] ?? [];
  // A qualified type ("Sales receipt", "Business letter", "Supplier invoice"): the vocabulary
  // of its head noun, the last word that names a known type.
  const words = key.split('_').filter((w) => w !== '');
  if (words.length < 2) return [];
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i] as string;
    const singular = word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
    for (const w of [word, singular]) {
      const hints = Object.hasOwn(BUILTIN_HINTS, w)
        ? BUILTIN_HINTS[w]
        : Object.hasOwn(aliases, w)
          ? BUILTIN_HINTS[aliases[w] as string]
          : undefined;
      if (hints) return hints;
    }
  }
  return [];
}

/** The token of a multi-word type that names a known type ("letter" of "Business letter"). */
function headNoun(typeTokens: readonly string[]): string | undefined {
  if (typeTokens.length < 2) return undefined;
  for (let i = typeTokens.length - 1; i >= 0; i--) {
    const t = typeTokens[i] as string;
    if (Object.hasOwn(BUILTIN_HINTS, t)) return t;
  }
  return undefined;
}

/** True for the fallback classification. */
export function isOtherType(type: string): boolean {
  return type.trim().toLowerCase() === 'other';
}

/** Builds the term profiles of `classifications` (the `other` one included, unscored). */
export function buildTermProfiles(
  classifications: readonly Classification[],
  rules?: string,
): TermProfile[] {
  const raw = classifications.map((c) => {
    const weights = new Map<string, number>();
    const add = (term: string, w: number) => weights.set(term, (weights.get(term) ?? 0) + w);
    const typeTokens = tokens(c.type);
    // A qualified type ("Business letter", "Sales receipt") is its head noun's: the qualifier
    // ("business" is on every invoice's thanks) weighs as a description's word.
    const head = headNoun(typeTokens);
    for (const t of typeTokens)
      add(t, head === undefined || t === head ? 4 / (head ? 1 : typeTokens.length) + 1 : 0.6);
    for (const t of tokens(c.description ?? '')) add(t, 0.6);
    for (const hint of hintsFor(c.type))
      if (hint.startsWith('@')) add(hint, 0.8);
      else for (const t of tokens(hint)) add(t, 0.8);
    if (rules) {
      const typeWords = new RegExp(`\\b${c.type.replace(/[_-]+/g, '[ _-]?')}s?\\b`, 'i');
      for (const sentence of rules.split(/[.\n;]+/)) {
        if (typeWords.test(sentence)) for (const t of tokens(sentence)) add(t, 0.5);
      }
    }
    return { classification: c, weights, names: new Set(head ? [head] : typeTokens) };
  });
  // Terms every scored classification carries say nothing about which one it is.
  const scored = raw.filter((r) => !isOtherType(r.classification.type));
  const df = new Map<string, number>();
  for (const r of scored) for (const t of r.weights.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(1, scored.length);
  return raw.map(({ classification, weights, names }) => {
    const discounted = new Map<string, number>();
    for (const [t, w] of weights) {
      const share = (df.get(t) ?? 1) / n;
      discounted.set(t, n > 1 ? w * (1 - 0.8 * share + 0.8 / n) : w);
    }
    return {
      classification,
      weights: discounted,
      names,
      isOther: isOtherType(classification.type),
    };
  });
}

/** An English month's name or abbreviation, as dates write it. */
const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?!\\p{L})';

/**
 * Terms for shapes of text rather than words ("@"-prefixed, so no word collides with them): a
 * time of day and a masked card number are what till receipts print.
 */
/** A cell that holds one figure and nothing else but a currency ("CHF 33.24", "4 390,82 €"). */
const FIGURE_CELL =
  /^(?:[A-Z]{3}\s*)?[-−(]?\s*[$€£¥₹]?\s*\d[\d.,'’ \u00a0\u2009\u202f]*\)?\s*(?:[$€£¥₹]|[A-Z]{3})?$/u;

/**
 * A row of goods priced out: a description, then a quantity and a unit price (in either order)
 * whose product is the row's last figure ("Cable ties, 100 pack    19    448,68    8 524,92").
 * Invoices, receipts and orders sell or buy goods by the piece; a letter's table of figures and a
 * statement's transactions do not multiply out.
 */
function pricedRow(line: string): boolean {
  const cells = line
    .split(/\s{2,}/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (cells.length < 4 || !/\p{L}/u.test(cells[0] as string)) return false;
  const [q, u, a] = cells.slice(-3).map((c) => (FIGURE_CELL.test(c) ? parseNumber(c) : undefined));
  if (q === undefined || u === undefined || a === undefined || a <= 0) return false;
  return Math.abs(q * u - a) <= Math.max(0.011, a * 0.005);
}

const matches =
  (pattern: RegExp) =>
  (line: string): boolean =>
    pattern.test(line);

const SHAPES: readonly (readonly [string, (line: string) => boolean])[] = [
  ['@time-of-day', matches(/\b([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?\b(?!\s*(?:%|:))/)],
  ['@masked-card', matches(/[*xX•]{4}\s?\d{4}\b|\bending(?: in)? \d{4}\b/)],
  // A payment said to be made: "Your payment was successful", "We have received your payment",
  // "Payment approved", "Charged to Visa ending in 1234", "Paid in full"; a receipt book's
  // voucher in its own words ("Received with thanks from …", "Sum received"); the card or wallet
  // a web shop's order was paid with ("Paid with PayPal", "Payment method    Visa •••• 7154").
  [
    '@paid',
    matches(
      /\bpayment\s+(?:was\s+|has\s+been\s+)?(?:successful|received|approved|accepted|completed?|taken|confirmed)\b|\b(?:received|processed|taken)\s+your\s+payment\b|\bcharged\s+to\b|\bpaid\s+in\s+full\b|\breceived\s+with\s+thanks\b|^\s*received\s+from\b|\b(?:sum|amount)\s+received\b|\bpaid\s+(?:with|by|via)\s+(?:cash|card|cheque|check|visa|mastercard|maestro|amex|american\s+express|paypal|apple\s+pay|google\s+pay|gift\s+card|debit|credit)\b|\b(?:payment|paid)\b.*(?:[*xX•]{4}\s?\d{4}\b|\bending(?: in)? \d{4}\b)/i,
    ),
  ],
  // A payment asked for, what an invoice does whatever it is called ("Please pay", "Kindly make
  // transfers", "Payable by 24.12.2023", "quoting our reference"); an order states its terms and
  // a receipt a payment made.
  [
    '@payment-asked',
    matches(
      /\b(?:please|kindly)\s+(?:pay|remit|transfer|settle|make\s+(?:a\s+|your\s+)?(?:payments?|transfers?))\b|\bpayable\s+(?:by|before|within|until|on)\b|\bquoting\s+(?:our|the|your|this|invoice|reference|number)\b/i,
    ),
  ],
  // An order placed, what a purchase order does whatever it is called ("Please supply the
  // following", "We would like to order", "Please confirm this order", "Quote our number on your
  // invoice"): the buyer speaking to its supplier.
  [
    '@ordering',
    matches(
      /\b(?:please|kindly)\s+(?:supply|send|deliver|ship|provide|dispatch)\s+(?:us\s+)?(?:with\s+)?(?:the\s+following|the\s+goods|the\s+items|these|as\s+follows)\b|\b(?:would\s+like|wish|want)\s+to\s+(?:order|purchase)\b|\border\s+the\s+following\b|\b(?:please\s+)?(?:confirm|acknowledge)\s+(?:receipt\s+of\s+)?(?:this|our)\s+order\b|\bon\s+(?:your|all)\s+(?:invoices?|delivery\s+notes?|shipping\s+documents)\b/i,
    ),
  ],
  // A row that begins with a date and carries an amount: a statement's transaction (a receipt
  // has one date and no amount beside it; an invoice's items begin with their description).
  [
    '@dated-row',
    matches(
      new RegExp(
        `^\\s*(?:\\d{1,2}[./-]\\d{1,2}[./-]\\d{2,4}|\\d{1,2}[./-]\\d{1,2}(?=\\s+\\p{L})|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[ -]${MONTH}\\.?(?:[ -]\\d{2,4})?|${MONTH}\\.? \\d{1,2}(?:,? \\d{4})?)\\b.*\\d[.,]\\d{2}(?!\\d)`,
        'iu',
      ),
    ),
  ],
  ['@priced-row', pricedRow],
];

/**
 * A shape repeated on every row of a table (`@dated-row`) is evidence of what kind of table it is,
 * which a long table shows no better than a short one: counted at most this often. Eight card
 * payments still make a statement; thirty dated charges do not outweigh a bill's title and due
 * date.
 */
const SHAPE_COUNT = 8;

/**
 * Within this many first lines, a short line of words (at most three terms, no figure, no
 * colon) counts as the title zone does: a title under a tall letterhead, a salutation, a
 * complimentary close, a label on its own. Longer lines are sentences or label/value pairs.
 */
const HEADING_LINES = 40;

/**
 * An identifier's letters before a dash or slash and its digits (`PO-4855`, `INV/2024/7`): part
 * of the identifier, not a word, so an invoice quoting its order `PO-4855` does not say
 * "purchase order" once more.
 */
const IDENTIFIER_PREFIX = /\b(\p{L}{1,4})[-/](?=\d)/gu;

/**
 * A word spaced out letter by letter, as a designer sets a title ("I N V O I C E", "R e c e i p
 * t"): four letters or more, each alone between single spaces.
 */
const SPACED_WORD = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){3,}(?![\p{L}\p{N}])/gu;

/** `line` with its words spaced out letter by letter written solid ("I N V O I C E" → "INVOICE"). */
export function solidWords(line: string): string {
  return line.replace(SPACED_WORD, (word) => word.replace(/ /g, ''));
}

/**
 * E-mail and web addresses: names of mailboxes and hosts, not words of the text
 * (`accounts@vandelay.example` says nothing of a bank account, `invoices@…` nothing of an
 * invoice).
 */
const ADDRESS =
  /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|\b(?:https?:\/\/|www\.)\S+/giu;

/**
 * What lines with a figure gave a word: `count`, the part of its count a type's name does not
 * keep there (all of it, but one count where the name begins a line of the title zone); `lines`,
 * how many such lines carry it as a label.
 */
export interface Labelled {
  readonly count: number;
  readonly lines: number;
}

/**
 * A text's terms as the classifier counts them: `counts`, each word's and shape's count with the
 * title zone's boost; `labelled`, what lines with a figure gave the words (see termCounts). The
 * two are kept apart so that the notes are never read as terms.
 */
export interface TermCounts {
  readonly counts: ReadonlyMap<string, number>;
  readonly labelled: ReadonlyMap<string, Labelled>;
}

/**
 * The weight of a type's name where it labels a value ("PO    PO196078" under an invoice's
 * addresses, "against invoice INV-3014" in a letter): twice a built-in word, as a payment made or
 * asked for weighs. There it names the document the value identifies, often another one (the
 * order an invoice answers, the invoice a letter acknowledges); a document's own name stands on
 * a line of its own, or begins a line of its title zone with its number ("Purchase Order
 * PO-6472" as its first line counts once with the name's weight).
 */
const NAME_AS_LABEL = 1.6;

/** Words after a document's name that make it the label of the document's own number or date. */
const OWN_LABEL = new Set(['number', 'date', 'id']);

/**
 * Whether the name `t` on a line of the title zone names the document itself: it begins the line
 * (its title with its number, "Purchase Order PO-6472"), or labels a number or a date ("PO
 * Date    2022-04-17", "Invoice No.    INV-7" in a column beside the letterhead). Elsewhere on
 * such a line it labels a value as any label does ("Customer ID C-25748    Purchase Order
 * PO532575").
 */
function namesItself(words: readonly string[], t: string): boolean {
  return words.some((w, k) => w === t && (k === 0 || OWN_LABEL.has(words[k + 1] as string)));
}

/**
 * Token counts of a text, with the title zone (first `titleLines` lines) and short lines near the
 * top (HEADING_LINES) counted three times, plus shape terms and any `extra` terms (layout facts
 * such as "@narrow-page").
 */
export function termCounts(
  lines: readonly string[],
  titleLines = 6,
  extra: readonly string[] = [],
): TermCounts {
  const counts = new Map<string, number>();
  const labelled = new Map<string, Labelled>();
  const add = (map: Map<string, number>, term: string, n: number) =>
    map.set(term, (map.get(term) ?? 0) + n);
  const boosted = new Set<string>();
  lines.forEach((line, i) => {
    const words = tokens(solidWords(line).replace(ADDRESS, ' ').replace(IDENTIFIER_PREFIX, '$1'));
    const top =
      i < titleLines || (i < HEADING_LINES && words.length <= 3 && !/[\d:]/.test(line)) ? 3 : 1;
    // A word repeated on several of the first lines is one title word: boosted once.
    const got = new Map<string, number>();
    for (const t of words) {
      const n = top > 1 && !boosted.has(t) ? top : 1;
      if (top > 1) boosted.add(t);
      add(counts, t, n);
      got.set(t, (got.get(t) ?? 0) + n);
    }
    // A line with a figure is a label with its value (or a sentence quoting one): what it gave
    // its words is noted (labelled), so that a type's name there counts as a label
    // (NAME_AS_LABEL; an invoice quoting "Customer ID C-25748    Purchase Order    PO532575"
    // beside its letterhead does not name itself an order), while its other words keep their
    // weight. A name in the title zone that names the document itself (namesItself) counts
    // once with the name's weight.
    if (/\d/.test(line))
      for (const [t, n] of got) {
        const was = labelled.get(t) ?? { count: 0, lines: 0 };
        labelled.set(
          t,
          top > 1 && namesItself(words, t)
            ? { count: was.count + n - 1, lines: was.lines }
            : { count: was.count + n, lines: was.lines + 1 },
        );
      }
    for (const [term, shape] of SHAPES) if (shape(line)) add(counts, term, 1);
  });
  for (const term of extra) add(counts, term, 1);
  for (const [term] of SHAPES) {
    const n = counts.get(term);
    if (n !== undefined && n > SHAPE_COUNT) counts.set(term, SHAPE_COUNT);
  }
  return { counts, labelled };
}

/** Layout facts of pages as terms: a page as narrow as till paper. */
export function layoutTerms(pages: readonly { readonly width: number }[]): string[] {
  return pages.some((p) => p.width > 0 && p.width < 320) ? ['@narrow-page'] : [];
}

/** How many of a classification's terms make its score: its best-matching ones. */
const SCORED_TERMS = 8;
/** Scales a score to the range the confidence's evidence curve expects. */
const SCORE_SCALE = 3.5;

/**
 * A classification's score against term counts: the sum of its best-matching terms' weighted,
 * log-damped counts (at most SCORED_TERMS of them), with the terms that contributed most. Terms
 * that do not occur cost nothing, so a wider vocabulary (more hints, a longer description) never
 * lowers a document's score; counting only the best terms keeps a long vocabulary from
 * outscoring a short one by breadth alone.
 */
export function scoreProfile(
  profile: TermProfile,
  { counts, labelled }: TermCounts,
): { score: number; terms: string[] } {
  const contributions: [string, number][] = [];
  for (const [t, w] of profile.weights) {
    const label = profile.names.has(t) ? labelled.get(t) : undefined;
    const tf = (counts.get(t) ?? 0) - (label?.count ?? 0);
    // A type's name labelling a figure counts as a label does, once a line.
    const c =
      (tf > 0 ? w * Math.log1p(tf) : 0) +
      (label ? Math.min(w, NAME_AS_LABEL) * Math.log1p(label.lines) : 0);
    if (c > 0) contributions.push([t, c]);
  }
  contributions.sort((a, b) => b[1] - a[1]);
  let score = 0;
  for (const [, c] of contributions.slice(0, SCORED_TERMS)) score += c;
  return { score: score / SCORE_SCALE, terms: contributions.slice(0, 5).map(([t]) => t) };
}

/** Below this share of a text's terms from the best classification, confidence falls off. */
const MIN_DENSITY = 0.03;

/**
 * The share of a type's score its document must earn on its opening page for full confidence: a
 * business document says what it is where it begins (its title, its first labels); a manual
 * whose title page and contents say nothing of a type and whose chapters use its words ("list",
 * "statement") is not of that type.
 */
export const OPENING_SHARE = 0.5;

/** Scores and confidences of every classification for one text. */
export interface Ranking {
  readonly best: TermProfile | undefined;
  readonly bestScore: number;
  readonly confidence: number;
  readonly terms: readonly string[];
  readonly scores: ReadonlyMap<string, number>;
  /**
   * 0..1: how much of the best type's score the opening page earns, relative to OPENING_SHARE
   * (1 when no opening was given or it earns enough); the confidence is scaled by it.
   */
  readonly opening: number;
}

/**
 * Ranks the scored classifications. Confidence combines the margin over the runner-up (a
 * softmax share) with how much evidence there is at all (saturating in the score), so a text that
 * matches nothing well never looks certain. `opening`, the term counts of the text's first page
 * with text when it has several, scales the confidence by how much of the best type's evidence
 * is there (see OPENING_SHARE).
 */
export function rank(
  profiles: readonly TermProfile[],
  counts: TermCounts,
  opening?: TermCounts,
): Ranking {
  const scores = new Map<string, number>();
  let best: TermProfile | undefined;
  let bestScore = 0;
  let bestTerms: string[] = [];
  const values: number[] = [];
  for (const p of profiles) {
    if (p.isOther) continue;
    const { score, terms } = scoreProfile(p, counts);
    scores.set(p.classification.id, score);
    values.push(score);
    if (score > bestScore) {
      best = p;
      bestScore = score;
      bestTerms = terms;
    }
  }
  if (!best) return { best, bestScore: 0, confidence: 0, terms: [], scores, opening: 1 };
  const k = 2.5;
  let sum = 0;
  for (const v of values) sum += Math.exp(k * (v - bestScore));
  const share = 1 / sum;
  const evidence = 1 - Math.exp(-bestScore / 0.6);
  // Business documents are dense with their type's vocabulary; a long text that only mentions
  // it now and then (a manual's "statement" and "list") is none of them.
  let total = 0;
  let matched = 0;
  for (const [term, count] of counts.counts) {
    // Figures (amounts, dates, quantities) say nothing of a text's vocabulary.
    if (/^\d+$/.test(term)) continue;
    total += count;
    if (best.weights.has(term)) matched += count;
  }
  // A page of prose (a letter) carries its few telling words; the density asked for grows with
  // the text up to MIN_DENSITY at a thousand words.
  const needed = MIN_DENSITY * Math.min(1, total / 1000);
  const density = total === 0 ? 0 : Math.min(1, matched / total / needed);
  const openingShare =
    opening === undefined
      ? 1
      : Math.min(1, scoreProfile(best, opening).score / (OPENING_SHARE * bestScore));
  const confidence = Math.round(share * evidence * density * openingShare * 1000) / 1000;
  return { best, bestScore, confidence, terms: bestTerms, scores, opening: openingShare };
}
