/**
 * Offline extraction: schema properties meet document labels. Each leaf property (its name,
 * title and description, through the synonyms of text-tokens.ts) is matched against the labels
 * the view found (after a colon, in the next cell of the row, under the label, in a table) and
 * the values conventions give (letterhead, "Dear …", the signer, a standalone date); pairs are
 * assigned greedily by match strength so that one label feeds one property ("Due date" goes to
 * `due_date`, "Date" to `invoice_date`). Properties no label fills are filled by their role
 * (field-roles.ts): the issuer from the letterhead, the addressee from the salutation or an
 * address block, the currency from the amounts. Arrays of objects come from tables
 * (extract-tables.ts). Values are coerced by schema kind, and every value carries its citation
 * (page, polygon, the text it came from) and the match strength as confidence.
 */

import type { JsonSchema } from '../processor-config.ts';
import type { Citation, ExtractOutput, ExtractValue, FieldMetadata } from '../provider.ts';
import { readSchema, type SchemaNode } from '../schema-node.ts';
import { dice, labelTokens, tokens } from '../text-tokens.ts';
import {
  dateNear,
  matchEnum,
  parseBoolean,
  parseCurrency,
  parseCurrencyCode,
  parseDate,
  parseNumber,
} from '../value-coercion.ts';
import { isAmount } from '../view/cell-shapes.ts';
import type {
  DocumentCell,
  DocumentField,
  DocumentPage,
  DocumentRegion,
  DocumentTable,
  DocumentView,
} from '../view/document-view.ts';
import { regionOf } from '../view/view-geometry.ts';
import {
  addressees,
  documentCurrency,
  type Found,
  isAddressLine,
  isPersonName,
  letterhead,
  namedIssuer,
  type Signature,
  salutationName,
  signature,
  standaloneDate,
  subjectLine,
  withoutHonorific,
} from './conventions.ts';
import { dateOrder } from './date-order.ts';
import {
  COUNT_FIRST,
  type ColumnMap,
  itemRole,
  itemRows,
  joinCarriedLines,
  mapColumns,
  ocrFigure,
  sidedBySuffix,
  sidedFigure,
  splitAmount,
  splitQuantity,
} from './extract-tables.ts';
import { cleanIdentifier, partyToken, type Role, rolesOf } from './field-roles.ts';
import { nameAsSpelled } from './name-case.ts';
import { figureOf, settledQuantity } from './settle-quantity.ts';

/** Matches weaker than this are not used. */
const MIN_LABEL_SCORE = 0.5;

/** How much a label/value pair is trusted, by where the value was found. */
const SOURCE_WEIGHT: Readonly<Record<DocumentField['source'], number>> = {
  key_value: 1,
  line: 1,
  table: 0.98,
  row: 0.97,
  below: 0.93,
};
/** Values that conventions give without a label are discounted below real labels. */
const CONVENTION_WEIGHT = 0.6;

interface Candidate {
  readonly field: DocumentField;
  readonly tokens: readonly string[];
  readonly weight: number;
  /** A party conventions name (the issuer, the addressee, the signer): only for that role. */
  readonly role?: Role;
}

interface Leaf {
  readonly path: string;
  readonly node: SchemaNode;
  readonly nameTokens: readonly string[];
  readonly descriptionTokens: readonly string[];
  readonly roles: ReadonlySet<Role>;
  /** The property asks for an organisation ("The company placing the order", `bank_name`). */
  readonly organisation: boolean;
}

/** Words of a property's name or description that ask for an organisation, not a person. */
const ORGANISATION =
  /\b(?:company|companies|organi[sz]ations?|business(?:es)?|firms?|corporations?|enterprises?|banks?|stores?|shops?|merchants?|retailers?|vendors?|suppliers?|sellers?|institutions?)\b/i;

/** The roles of properties that name a party. */
const PARTY_ROLES: readonly Role[] = ['issuer', 'recipient', 'signer'];

interface Context {
  readonly candidates: readonly Candidate[];
  readonly pages: readonly DocumentPage[];
  readonly currency: string | null;
  readonly dayFirst: boolean | undefined;
  /** The latest date the document writes in full: the year of dates written without one. */
  readonly near: string | undefined;
  readonly conventions: Conventions;
  readonly metadata: Record<string, FieldMetadata>;
}

function regionCitation(region: DocumentRegion, referenceText: string | null): Citation {
  // A literal rather than a conditional spread: this runs for every cell of every table.
  return {
    fileId: region.fileId,
    page: { number: region.page, width: region.pageWidth, height: region.pageHeight },
    referenceText,
    polygon: region.polygon,
  };
}

function fieldMetadata(
  region: DocumentRegion,
  referenceText: string,
  confidence: number,
  reasoning?: string,
): FieldMetadata {
  const metadata: FieldMetadata = {
    ocrConfidence: region.ocrConfidence,
    logprobsConfidence: null,
    confidence: Math.round(confidence * 1000) / 1000,
    citations: [regionCitation(region, referenceText)],
  };
  return reasoning
    ? { ...metadata, insights: [{ type: 'reasoning', content: reasoning }] }
    : metadata;
}

const field = (label: string, found: Found): DocumentField => ({
  label,
  value: found.value,
  source: 'line',
  region: found.region,
  lineIndex: found.lineIndex,
});

/** What a document's layout conventions say of its parties, read once per document. */
interface Conventions {
  /** The letterhead of the first page with text. */
  readonly head: Found | undefined;
  /** The issuing organisation and why. */
  readonly issuer: { readonly found: Found; readonly why: string } | undefined;
  readonly signature: Signature;
}

/**
 * The parties by convention. The issuer is the letterhead when it stands out (set large, or
 * named with a legal form); otherwise the organisation a letter is signed for, when there is one
 * (a letterhead set in spaced capitals or lost by the producer leaves the signature block as the
 * only place the sender's organisation is named); otherwise the issuer a sentence or the
 * footer's legal statement names (namedIssuer); otherwise whatever heads the page.
 */
function conventionsOf(pages: readonly DocumentPage[]): Conventions {
  const first = firstWithText(pages);
  const head = first ? letterhead(first) : undefined;
  const signed = signature(pages);
  const byHead = head && { found: head, why: `"${head.value}" heads the first page (letterhead).` };
  const named = head?.prominent ? undefined : namedIssuer(pages);
  const byName = named && {
    found: named,
    why: `The document names "${named.value}" as its issuer.`,
  };
  const org = signed.organisation;
  const bySignature = org && {
    found: org,
    why: `"${org.value}" signs the letter under its signer's name.`,
  };
  return {
    head,
    issuer: head?.prominent ? byHead : (bySignature ?? byName ?? byHead),
    signature: signed,
  };
}

/**
 * Values conventions give on a document's first page, as labelled fields; a party's only for
 * properties of its role (a purchase order's vendor is not its letterhead).
 */
function conventionalFields(
  page: DocumentPage,
  conventions: Conventions,
): { field: DocumentField; role?: Role }[] {
  const out: { field: DocumentField; role?: Role }[] = [];
  const issuer = conventions.issuer?.found;
  if (issuer) out.push({ field: field('Issuer name', issuer), role: 'issuer' });
  const dear = salutationName(page);
  if (dear) out.push({ field: field('Recipient name', dear), role: 'recipient' });
  const signed = conventions.signature.signer;
  if (signed) out.push({ field: field('Sender name', signed), role: 'signer' });
  const date = standaloneDate(page);
  if (date) out.push({ field: field('Date', date) });
  const subject = subjectLine(page);
  if (subject) out.push({ field: field('Subject', subject) });
  return out;
}

/** Checkbox lines ("[x] Paid") as yes/no fields, on any page. */
function checkboxFields(page: DocumentPage): DocumentField[] {
  const out: DocumentField[] = [];
  page.lines.forEach((line, i) => {
    const box = /^\s*\[([xX✓✔ ])\]\s*(.+)$/.exec(line.text);
    if (box?.[2])
      out.push({
        label: box[2],
        value: box[1] === ' ' ? 'no' : 'yes',
        source: 'line',
        region: line,
        lineIndex: i,
      });
  });
  return out;
}

/**
 * A field whose value is a period ("01/03/2024 - 31/03/2024", "1 Mar to 31 Mar 2024") also
 * stands for its start and its end.
 */
function periodFields(f: DocumentField): DocumentField[] {
  const side = /^(from|since|to|until|through|thru)$/i.exec(f.label.trim().replace(/:$/, ''))?.[1];
  const range = periodEnds(f.value.trim());
  if (range) {
    // The ends of a period, whatever the label called it ("Statement from", "For the period",
    // "From 01/03/2024 to 31/03/2024").
    const label = side ? 'Period' : /\bperiod\b/i.test(f.label) ? f.label : `${f.label} period`;
    return [
      { ...f, label: `${label} start date`, value: range.start },
      { ...f, label: `${label} end date`, value: range.end },
    ];
  }
  // "From    01/05/2024", "To    31/05/2024": one end of a period, by its preposition.
  if (side && parseDate(f.value.trim()) !== undefined)
    return [{ ...f, label: `Period ${/^(from|since)$/i.test(side) ? 'start' : 'end'} date` }];
  return [];
}

/** The two ends of a period's text; a start without its year takes the end's. */
function periodEnds(text: string): { start: string; end: string } | undefined {
  const m = /^(.+?)\s+(?:-|–|—|to|until|through|bis|au)\s+(.+)$/i.exec(text);
  if (!m?.[1] || !m[2] || parseDate(m[2]) === undefined) return undefined;
  // "1 Mar - 31 Mar 2024", "Mar 1 - Mar 31, 2024".
  const year = /\b(\d{4})\s*$/.exec(m[2])?.[1];
  const start =
    parseDate(m[1]) === undefined && year && !/\d{4}/.test(m[1]) ? `${m[1]} ${year}` : m[1];
  return parseDate(start) === undefined ? undefined : { start, end: m[2] };
}

/**
 * A date property named for one end of a period ("fromDate", "toDate") says so in its tokens,
 * as the labels of a period's ends do ("Statement period start date"); the words that said it
 * ("from", "to") are stop words and gone.
 */
function boundTokens(
  nameTokens: readonly string[],
  node: SchemaNode,
  roles: ReadonlySet<Role>,
): readonly string[] {
  if (node.kind !== 'date') return nameTokens;
  const bound = roles.has('start') ? 'start' : roles.has('end') ? 'end' : undefined;
  return bound && !nameTokens.includes(bound) ? [...nameTokens, bound] : nameTokens;
}

/** Nouns of a document's own kind: "Invoice date" is the date the invoice was issued. */
const OWN_KIND = new Set([
  'invoice',
  'receipt',
  'statement',
  'bank_statement',
  'order',
  'purchase_order',
  'bill',
  'letter',
  'document',
]);

/**
 * A label's tokens with the document's kind read as its issue ("Invoice date" → "issue date"),
 * for properties named by issue ("issueDate"); undefined when the label names no kind.
 */
function asIssued(label: readonly string[]): string[] | undefined {
  if (!label.includes('date') || !label.some((t) => OWN_KIND.has(t))) return undefined;
  return [...new Set(label.map((t) => (OWN_KIND.has(t) ? 'issue' : t)))];
}

function collectLeaves(
  node: SchemaNode,
  path: string,
  parentTokens: readonly string[],
  leaves: Leaf[],
): void {
  for (const prop of node.properties ?? []) {
    const p = path ? `${path}.${prop.name}` : prop.name;
    const own = labelTokens(prop.node.title ?? prop.name);
    const nameTokens = [...new Set([...parentTokens, ...labelTokens(prop.name), ...own])];
    if (prop.node.kind === 'object') {
      collectLeaves(prop.node, p, labelTokens(prop.name), leaves);
      continue;
    }
    if (prop.node.kind === 'array') continue;
    const roles = rolesOf(`${prop.name} ${prop.node.title ?? ''}`, prop.node.description ?? '');
    leaves.push({
      path: p,
      node: prop.node,
      nameTokens: boundTokens(nameTokens, prop.node, roles),
      descriptionTokens: tokens(prop.node.description ?? ''),
      roles,
      organisation: ORGANISATION.test(
        `${prop.name.replace(/[_-]/g, ' ')} ${prop.node.title ?? ''} ${prop.node.description ?? ''}`,
      ),
    });
  }
}

/** Tokens that name no particular field on their own ("Date", "Number"). */
const GENERIC = new Set(['number', 'date', 'name', 'id', 'code', 'value', 'type']);

/**
 * Words of a label that names what is to be paid and nothing else ("Balance", "Amount", "Total
 * sale", "Amount paid"): on an invoice or a receipt, its total. Below a label that says "total".
 */
const AMOUNT_DUE = new Set(['total', 'balance', 'amount', 'paid', 'sale', 'final', 'pay', 'due']);
const AMOUNT_DUE_SCORE = 0.8;

function amountDue(leaf: Leaf, candidate: Candidate): number {
  return leaf.nameTokens.includes('total') &&
    candidate.tokens.length > 0 &&
    candidate.tokens.every((t) => AMOUNT_DUE.has(t))
    ? AMOUNT_DUE_SCORE
    : 0;
}

const SHIP_TO_SCORE = 0.55;

/** A party's label of one preposition: "To:" names the addressee, "From:" the issuer. */
const SIDE_LABEL: Readonly<Record<string, Role>> = { to: 'recipient', from: 'issuer' };
const SIDE_SCORE = 0.8;

/**
 * "Ref:" before words is a letter's subject ("Ref: Renewal of the contract"); before a code it
 * is a reference number ("Ref: KL/2501").
 */
function referenceSubject(leaf: Leaf, candidate: Candidate): number {
  const value = candidate.field.value.trim();
  return leaf.nameTokens.includes('subject') &&
    candidate.tokens.length === 1 &&
    candidate.tokens[0] === 'reference' &&
    !/\d/.test(value) &&
    value.split(/\s+/).length >= 2
    ? 0.75
    : 0;
}

/**
 * A party's label that states its side by a participle: "Issued to", "Sent to" name the
 * addressee; "Issued by", "Supplied by" the issuer.
 */
const SIDE_PHRASE: readonly (readonly [RegExp, Role])[] = [
  [/^(?:issued|sent|addressed|supplied|made\s+out)\s+to$/, 'recipient'],
  [/^(?:issued|sent|supplied)\s+by$/, 'issuer'],
];

function sideLabel(leaf: Leaf, candidate: Candidate): number {
  const label = candidate.field.label.trim().replace(/:$/, '').toLowerCase();
  const side = SIDE_LABEL[label] ?? SIDE_PHRASE.find(([pattern]) => pattern.test(label))?.[1];
  return side && leaf.roles.has(side) ? SIDE_SCORE : 0;
}

/**
 * An identifier's name and a label read with their identifier words as one ("PO reference" and
 * "P.O. #", "Invoice ID" and "Invoice No."): what says which identifier is the rest. Without it
 * "purchase_order reference" met "P.O. #" at 0.57, below a description's 0.7 for "Customer ID".
 */
function identifierMatch(name: readonly string[], label: readonly string[]): number {
  const said = (list: readonly string[]) => list.some((t) => ID_LABEL.has(t));
  if (!said(name) || !said(label)) return 0;
  const one = (list: readonly string[]) => list.map((t) => (ID_LABEL.has(t) ? 'number' : t));
  const exact = dice(one(name), one(label));
  // A document's kind by another word: an order's number is its purchase order's ("orderNumber"
  // and "P.O. No."), a transaction's a receipt's ("transactionId" and "Receipt #"); a little
  // below the same words.
  const kind = (list: readonly string[]) => one(list).map((t) => KIND_WORD[t] ?? t);
  return Math.max(exact, 0.9 * dice(kind(name), kind(label)));
}

/** Words for a document's kind that name the same identifier's document. */
const KIND_WORD: Readonly<Record<string, string>> = {
  order: 'purchase_order',
  transaction: 'receipt',
};

/** How well a label names a leaf, 0..1 (before the candidate's weight). */
function labelScore(leaf: Leaf, candidate: Candidate): number {
  const issued = asIssued(candidate.tokens);
  // A date named for its document's kind ("order_date") meets the label of another word for that
  // kind ("PO Date"), a little below a label that names it exactly.
  // A label that says "issue date" itself is the issue of the document's own kind as well.
  const issuedForm =
    issued ??
    (candidate.tokens.includes('issue') && candidate.tokens.includes('date')
      ? candidate.tokens
      : undefined);
  const issuedLeaf = issuedForm ? asIssued(leaf.nameTokens) : undefined;
  // A purchase order is the buyer's order: "Your order", "Order ref" name a PO number.
  const ordered =
    leaf.nameTokens.includes('purchase_order') && candidate.tokens.includes('order')
      ? candidate.tokens.map((t) => (t === 'order' ? 'purchase_order' : t))
      : undefined;
  // An IBAN is an account's number.
  const iban =
    candidate.tokens.includes('iban') &&
    leaf.nameTokens.includes('account') &&
    !leaf.nameTokens.includes('iban')
      ? 0.85
      : 0;
  // A label of generic words only ("Name:") names no organisation; on its own it names a person
  // the document is for (a statement's holder).
  const generic = candidate.tokens.every((t) => GENERIC.has(t));
  const bare =
    generic && candidate.tokens.join(' ') === 'name' && leaf.roles.has('recipient') ? 0.6 : 0;
  const byName = Math.max(
    generic && leaf.roles.has('issuer') ? 0 : dice(leaf.nameTokens, candidate.tokens),
    leaf.roles.has('identifier') ? identifierMatch(leaf.nameTokens, candidate.tokens) : 0,
    bare,
    iban,
    ordered ? 0.9 * dice(leaf.nameTokens, ordered) : 0,
    issued && leaf.nameTokens.includes('issue') ? dice(leaf.nameTokens, issued) : 0,
    issuedForm && issuedLeaf ? 0.9 * dice(issuedLeaf, issuedForm) : 0,
  );
  let byDescription = 0;
  const party = leaf.roles.has('issuer') || leaf.roles.has('recipient');
  // A description covers a label only through a word that names something ("Due", not "Date").
  // The label's word for what the leaf is anyway ("PO #" → "purchase_order number" for an
  // identifier, "Delivery date" for a date) need not be in the description; other generic words
  // must ("Invoice number" is no company, whatever the description says of invoices).
  const implied = (t: string) =>
    (leaf.roles.has('identifier') && (t === 'number' || t === 'id' || t === 'code')) ||
    (leaf.node.kind === 'date' && t === 'date');
  const named = candidate.tokens.filter((t) => !implied(t));
  // A party is described by what it does ("placing the order"): a label names it only by a
  // party's word ("Supplier", "Holder"), never by the document's ("Order to").
  if (
    leaf.descriptionTokens.length > 0 &&
    named.length > 0 &&
    candidate.tokens.some((t) => !GENERIC.has(t)) &&
    (!party || candidate.tokens.some(partyToken))
  ) {
    const description = new Set(leaf.descriptionTokens);
    const covered = named.filter((t) => description.has(t)).length / named.length;
    byDescription = covered === 1 ? 0.6 + 0.05 * Math.min(candidate.tokens.length, 3) : 0;
  }
  // The party goods are delivered to ("Ship to", "Deliver to") is the customer or buyer, a
  // little below a label that names it as the one billed.
  const shipTo =
    leaf.nameTokens.includes('customer') &&
    candidate.tokens.includes('shipping') &&
    candidate.tokens.every((t) => t === 'shipping' || GENERIC.has(t))
      ? SHIP_TO_SCORE
      : 0;
  return Math.max(
    byName,
    byDescription,
    shipTo,
    amountDue(leaf, candidate),
    sideLabel(leaf, candidate),
    referenceSubject(leaf, candidate),
  );
}

/** The typed value of `text` for a leaf; undefined when the text is not of that kind. */
function coerce(
  text: string,
  leaf: Pick<Leaf, 'node' | 'roles'>,
  ctx: Pick<Context, 'currency' | 'dayFirst'>,
): ExtractValue | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const node = leaf.node;
  // A date is no figure ("14 March 2024" is not 14), unless it is written as an amount.
  const figure = () => parseDate(t) === undefined || /\d[.,]\d{2}(?!\d)|\p{Sc}/u.test(t);
  switch (node.kind) {
    case 'date':
      return parseDate(t, ctx.dayFirst);
    case 'number':
      return figure() ? parseNumber(t) : undefined;
    case 'integer': {
      const n = figure() ? parseNumber(t) : undefined;
      return n === undefined ? undefined : Math.round(n);
    }
    case 'currency': {
      if (!figure()) return undefined;
      const c = parseCurrency(t, ctx.currency);
      return c ? { amount: c.amount, iso_4217: c.iso_4217 } : undefined;
    }
    case 'boolean':
      return parseBoolean(t);
    case 'enum':
      return matchEnum(t, node.enumValues ?? []);
    case 'string':
    case 'unknown':
      if (leaf.roles.has('currency')) return parseCurrencyCode(t);
      if (leaf.roles.has('identifier')) {
        // A date is not an identifier, nor is an amount ("1,200.00", "$ 40.00").
        if (parseDate(t) !== undefined || isAmount(t)) return undefined;
        const id = cleanIdentifier(t);
        return id === undefined || parseDate(id) !== undefined ? undefined : id;
      }
      if (PARTY_ROLES.some((r) => leaf.roles.has(r))) {
        // A name is words, not a date, an amount, a code, a pair or an address ("400 Industrial Way,
        // Springfield, IL 62701" beside a party's label is where it is, not who).
        const letters = (t.match(/\p{L}/gu) ?? []).length;
        if (
          parseDate(t) !== undefined ||
          letters < t.replace(/\s/g, '').length * 0.6 ||
          isAddressLine(t) ||
          // A label and its value run into one text ("Supplier address: Meridian Ltd").
          /:\s/.test(t)
        )
          return undefined;
        return leaf.roles.has('issuer') ? t : withoutHonorific(t);
      }
      return t;
    default:
      return undefined;
  }
}

function setPath(target: Record<string, ExtractValue>, path: string, value: ExtractValue): void {
  const parts = path.split('.');
  let obj: Record<string, ExtractValue> = target;
  for (const part of parts.slice(0, -1)) {
    const next = obj[part];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Record<string, ExtractValue> = {};
      obj[part] = created;
      obj = created;
    } else {
      obj = next as Record<string, ExtractValue>;
    }
  }
  obj[parts[parts.length - 1] ?? path] = value;
}

/**
 * The page a document opens with: its first page with text (a blank leading page, which some
 * producers emit before the content, holds no letterhead).
 */
function firstWithText(pages: readonly DocumentPage[]): DocumentPage | undefined {
  return pages.find((p) => p.lines.length > 0) ?? pages[0];
}

/** The value a leaf's role gives by convention, when no label filled it. */
function byRole(
  leaf: Leaf,
  ctx: Context,
  used: ReadonlySet<string>,
): { found: Found; why: string } | undefined {
  const first = firstWithText(ctx.pages);
  if (!first) return undefined;
  if (leaf.roles.has('currency') && ctx.currency)
    return {
      found: {
        value: ctx.currency,
        region: regionOf(
          first.lines[0] ?? {
            fileId: first.fileId,
            page: first.number,
            pageWidth: first.width,
            pageHeight: first.height,
            polygon: [],
            ocrConfidence: null,
          },
        ),
        lineIndex: 0,
      },
      why: `The amounts are written in ${ctx.currency}.`,
    };
  const issuer = ctx.conventions.issuer;
  if (leaf.roles.has('issuer') && issuer && !used.has(issuer.found.value)) return issuer;
  if (leaf.roles.has('recipient')) {
    const dear = salutationName(first);
    if (dear && !used.has(dear.value))
      return { found: dear, why: `The letter is addressed to ${dear.value}.` };
    // The issuer's block is no addressee's; a first line that heads the page but is not the
    // issuer (a window address above a statement whose bank a footer names) may be.
    const block = addressees(first, issuer?.found ?? ctx.conventions.head).find(
      (a) => !used.has(a.value) && a.value !== issuer?.found.value,
    );
    if (block) return { found: block, why: `"${block.value}" heads an address block.` };
    // A party the issuer's document names by label (a purchase order's vendor) leaves the
    // letterhead for the other party property.
    if (issuer && !used.has(issuer.found.value))
      return { found: issuer.found, why: `"${issuer.found.value}" heads the first page.` };
  }
  if (leaf.roles.has('signer')) {
    const signed = ctx.conventions.signature.signer;
    if (signed && !used.has(signed.value))
      return { found: signed, why: `${signed.value} signed the letter.` };
  }
  return undefined;
}

/** Scalar leaves by greedy assignment of (leaf, label) pairs, strongest first; then by role. */
function extractLeaves(
  leaves: readonly Leaf[],
  ctx: Context,
  value: Record<string, ExtractValue>,
): void {
  const pairs: {
    leaf: Leaf;
    candidate: Candidate;
    score: number;
    order: number;
    coerced: ExtractValue;
  }[] = [];
  // A person's name ("Buyer: Aiko Rossi", "Contact: …") fills a property that asks for an
  // organisation only when no label and no convention names one: it is the party's contact.
  const contacts: typeof pairs = [];
  leaves.forEach((leaf) => {
    ctx.candidates.forEach((candidate, order) => {
      if (candidate.role && !leaf.roles.has(candidate.role)) return;
      // A bare "Date" is the document's own date, never its due, delivery or period's date.
      if (ownDate(candidate) && otherDate(leaf)) return;
      const match = labelScore(leaf, candidate);
      if (match < MIN_LABEL_SCORE) return;
      const score = match * candidate.weight;
      const coerced = coerce(candidate.field.value, leaf, ctx);
      if (coerced === undefined) return;
      const person = leaf.organisation && !candidate.role && isPersonName(candidate.field.value);
      (person ? contacts : pairs).push({ leaf, candidate, score, order, coerced });
    });
  });
  contacts.sort((a, b) => b.score - a.score || a.order - b.order);
  pairs.sort((a, b) => b.score - a.score || a.order - b.order);
  const usedLeaves = new Set<string>();
  // One label feeds one property, even when it repeats on continuation pages.
  const usedLabels = new Set<string>();
  const usedValues = new Set<string>();
  /** Sets `leaf` from a labelled candidate, whose label then feeds no other property. */
  const takeLabelled = (
    leaf: Leaf,
    candidate: Candidate,
    coerced: ExtractValue,
    confidence: number,
    why: string,
  ) => {
    usedLabels.add(labelKey(candidate));
    setPath(value, leaf.path, coerced);
    const f = candidate.field;
    ctx.metadata[leaf.path] = fieldMetadata(f.region, `${f.label}: ${f.value}`, confidence, why);
  };
  for (const pair of pairs) {
    if (usedLeaves.has(pair.leaf.path) || usedLabels.has(labelKey(pair.candidate))) continue;
    usedLeaves.add(pair.leaf.path);
    usedValues.add(pair.candidate.field.value.trim());
    const f = pair.candidate.field;
    takeLabelled(
      pair.leaf,
      pair.candidate,
      pair.coerced,
      pair.score,
      `Matched label "${f.label}" on page ${f.region.page} (match ${pair.score.toFixed(2)}).`,
    );
  }
  // Properties without a label, issuers first (the letterhead is theirs before anyone else's).
  const rest = leaves.filter((l) => !usedLeaves.has(l.path));
  rest.sort((a, b) => Number(b.roles.has('issuer')) - Number(a.roles.has('issuer')));
  for (const leaf of rest) {
    // By elimination: the document's only other identifier, or its own date.
    const id = leaf.roles.has('identifier') ? soleIdentifier(leaf, ctx, usedLabels) : undefined;
    const dated = !id && leaf.node.kind === 'date' ? soleDate(leaf, ctx, usedLabels) : undefined;
    const eliminated = id ?? dated;
    if (eliminated) {
      const { label } = eliminated.candidate.field;
      takeLabelled(
        leaf,
        eliminated.candidate,
        eliminated.value,
        0.4,
        id
          ? `"${label}" is the document's only other identifier.`
          : `"${label}" is the document's own date.`,
      );
      continue;
    }
    const role = byRole(leaf, ctx, usedValues);
    const coerced = role ? coerce(role.found.value, leaf, ctx) : undefined;
    if (role && coerced !== undefined) {
      usedValues.add(role.found.value);
      setPath(value, leaf.path, coerced);
      ctx.metadata[leaf.path] = fieldMetadata(role.found.region, role.found.value, 0.5, role.why);
      continue;
    }
    const contact = contacts.find((c) => c.leaf === leaf && !usedLabels.has(labelKey(c.candidate)));
    if (contact) {
      const f = contact.candidate.field;
      takeLabelled(
        leaf,
        contact.candidate,
        contact.coerced,
        contact.score * 0.6,
        `Matched label "${f.label}" on page ${f.region.page}: a person's name, for want of an organisation's.`,
      );
      continue;
    }
    if (leaf.node.kind === 'enum') {
      const found = findEnumMention(leaf.node, ctx.pages);
      if (found) {
        setPath(value, leaf.path, found.value);
        ctx.metadata[leaf.path] = fieldMetadata(
          found.region,
          found.text,
          0.5,
          `The document mentions "${found.value}" and no other member.`,
        );
        continue;
      }
    }
    setPath(value, leaf.path, null);
  }
}

const ID_LABEL = new Set(['number', 'id', 'identifier', 'reference', 'code']);
/**
 * Words of labels that identify a party or an account rather than the document ("Account No.",
 * "Customer ID", "VAT number", "Sort code"): never the document's number by elimination.
 */
const PARTY_ID = new Set([
  'account',
  'customer',
  'vendor',
  'tax',
  'iban',
  'bic',
  'swift',
  'sort',
  'branch',
  'routing',
  'registration',
  'member',
  'employee',
  'phone',
  'tel',
  'fax',
]);

/**
 * The document's only identifier no property took ("Trans #: R950355" for a receipt number):
 * a labelled value whose label says number, id or reference and whose value is a code.
 */
function soleIdentifier(
  leaf: Leaf,
  ctx: Context,
  usedLabels: ReadonlySet<string>,
): { candidate: Candidate; value: ExtractValue } | undefined {
  const found = new Map<string, { candidate: Candidate; value: ExtractValue }>();
  for (const candidate of ctx.candidates) {
    // "Trans #", "Ticket" (a receipt's own word): a label saying number, id or the kind.
    if (candidate.weight < 0.9 || !candidate.tokens.some((t) => ID_LABEL.has(t) || OWN_KIND.has(t)))
      continue;
    if (candidate.tokens.some((t) => PARTY_ID.has(t))) continue;
    const label = candidate.tokens.join(' ');
    if (usedLabels.has(labelKey(candidate)) || found.has(label)) continue;
    const value = coerce(candidate.field.value, leaf, ctx);
    if (value !== undefined) found.set(label, { candidate, value });
  }
  return found.size === 1 ? [...found.values()][0] : undefined;
}

/**
 * The key that keeps one label from feeding two properties (a label repeated on continuation
 * pages): its words and whether its value is a code or figures, or words ("Ref: QS/118" and
 * "Ref: Renewal of the contract" are two labels).
 */
function labelKey(candidate: Candidate): string {
  // Its tokens ("Invoice No." and "Invoice #" are one label) and the side a closing preposition
  // states ("Issued by" and "Issued to" are two: their tokens, without it, are one).
  const side = /\b(by|to|from)\W*$/i.exec(candidate.field.label)?.[1]?.toLowerCase() ?? '';
  return `${candidate.tokens.join(' ')}|${side}|${/\d/.test(candidate.field.value) ? 'd' : 'w'}`;
}

/** Payment terms in days: "Net 30", "30 days net", "payable within 14 days". */
const NET_DAYS =
  /\bnet\s*(\d{1,3})\b(?!\s*%)|\b(\d{1,3})\s*days?\s+net\b|\bwithin\s+(\d{1,3})\s+days\b/i;

/**
 * A due date no label gives, from the payment terms and the document's date: an invoice dated
 * 2 August on "Net 45 days" is due on 16 September.
 */
function dueFromTerms(
  leaves: readonly Leaf[],
  ctx: Context,
  value: Record<string, ExtractValue>,
): void {
  const due = leaves.find(
    (l) =>
      l.node.kind === 'date' && l.nameTokens.includes('due') && ctx.metadata[l.path] === undefined,
  );
  // The document's own date: the test soleDate uses, so a period's end is never the base.
  const issued = leaves.find(
    (l) => l.node.kind === 'date' && !otherDate(l) && typeof valueAt(value, l.path) === 'string',
  );
  if (!due || !issued) return;
  const base = valueAt(value, issued.path) as string;
  for (const page of ctx.pages)
    for (const line of page.lines) {
      const m = NET_DAYS.exec(line.text);
      const days = Number(m?.[1] ?? m?.[2] ?? m?.[3]);
      const [y, mo, d] = base.split('-').map(Number);
      if (!m || !days || y === undefined || mo === undefined || d === undefined) continue;
      const date = new Date(Date.UTC(y, mo - 1, d + days)).toISOString().slice(0, 10);
      setPath(value, due.path, date);
      ctx.metadata[due.path] = fieldMetadata(
        line,
        line.text,
        0.4,
        `Due ${days} days after ${base} ("${m[0]}").`,
      );
      return;
    }
}

/** The value at a dotted path, if any. */
function valueAt(value: Record<string, ExtractValue>, path: string): ExtractValue | undefined {
  let at: ExtractValue | undefined = value;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, ExtractValue>)[part];
  }
  return at;
}

/** Words that make a date some other date than the document's own. */
const OTHER_DATE = new Set([
  'due',
  'deliver',
  'shipping',
  'expiry',
  'expire',
  'end',
  'start',
  'birth',
  'period',
  'closing',
  'opening',
  'valid',
  'payment',
]);
/** Labels of the document's own date: "Date", "Date/Time", "Issued". */
const OWN_DATE = new Set(['date', 'time', 'issue']);

/** True for a date property that asks for another date than the document's own. */
function otherDate(leaf: Leaf): boolean {
  return (
    leaf.nameTokens.some((t) => OTHER_DATE.has(t)) ||
    leaf.roles.has('start') ||
    leaf.roles.has('end')
  );
}

/** True for a label that says only date, time or issue: the document's own date. */
function ownDate(candidate: Candidate): boolean {
  return candidate.tokens.length > 0 && candidate.tokens.every((t) => OWN_DATE.has(t));
}

/**
 * The document's own date for a date property no label named ("purchaseDate" on a receipt
 * whose only date says "Date/Time"): the first labelled value whose label says only date, time
 * or issue, for a property that asks for no other date (due, delivery, a period's end).
 */
function soleDate(
  leaf: Leaf,
  ctx: Context,
  usedLabels: ReadonlySet<string>,
): { candidate: Candidate; value: ExtractValue } | undefined {
  if (otherDate(leaf)) return undefined;
  for (const candidate of ctx.candidates) {
    if (!ownDate(candidate)) continue;
    if (usedLabels.has(labelKey(candidate))) continue;
    const value = coerce(candidate.field.value, leaf, ctx);
    if (value !== undefined) return { candidate, value };
  }
  return undefined;
}

function findEnumMention(
  node: SchemaNode,
  pages: readonly DocumentPage[],
): { value: string | number | boolean; region: DocumentRegion; text: string } | undefined {
  const values = (node.enumValues ?? []).filter((v) => typeof v === 'string' && v.length > 3);
  let found: { value: string | number | boolean; region: DocumentRegion; text: string } | undefined;
  const seen = new Set<string | number | boolean>();
  for (const page of pages) {
    for (const line of page.lines) {
      const v = matchEnum(line.text, values);
      if (v === undefined) continue;
      seen.add(v);
      found ??= { value: v, region: line, text: line.text };
    }
  }
  return seen.size === 1 ? found : undefined;
}

function headerKey(table: DocumentTable): string {
  return table.header.map((c) => c.text.toLowerCase()).join('|');
}

/**
 * True when `table`'s header row is data of `like`'s kind: as many columns, and a figure in
 * every column `map` reads figures from where `like`'s first row has one (a table that goes on
 * over a page without its header, its first row taken for one).
 */
function headerless(table: DocumentTable, like: DocumentTable, map: ColumnMap): boolean {
  if (table.header.length !== like.header.length) return false;
  const figures = [
    ...map.columns.values(),
    ...(map.split ? [map.split.debit, map.split.credit] : []),
  ].filter((c) => /\d[.,]\d{2}\b/.test(like.rows[0]?.[c]?.text ?? ''));
  return (
    figures.length > 0 &&
    figures.every((c) => {
      const text = table.header[c]?.text ?? '';
      return text === '' || (/\d/.test(text) && parseNumber(text) !== undefined);
    }) &&
    figures.some((c) => /\d/.test(table.header[c]?.text ?? ''))
  );
}

function extractArray(
  path: string,
  node: SchemaNode,
  ctx: Context,
  tables: readonly DocumentTable[],
  usedTables: Set<DocumentTable>,
): ExtractValue[] {
  const items = node.items;
  if (items?.kind !== 'object') return [];
  let best: { table: DocumentTable; map: ReturnType<typeof mapColumns> } | undefined;
  for (const table of tables) {
    if (usedTables.has(table)) continue;
    const map = mapColumns(items, table);
    if (map.score > 0 && (!best || map.score > best.map.score)) best = { table, map };
  }
  if (!best) return [];
  const chosen = best;
  const key = headerKey(chosen.table);
  const start = tables.indexOf(chosen.table);
  // Later parts: under the same header, or on a later page with no header of their own (their
  // first row is data: figures where the table has its figures), as a table goes on over a page.
  const continued = (t: DocumentTable) =>
    t.page > chosen.table.page && headerless(t, chosen.table, chosen.map);
  const picked = tables.filter(
    (t, i) => i >= start && !usedTables.has(t) && (headerKey(t) === key || continued(t)),
  );
  for (const t of picked) usedTables.add(t);
  const parts = picked.map((t) =>
    headerKey(t) === key ? t : { ...t, header: chosen.table.header, rows: [t.header, ...t.rows] },
  );
  const headerCell = chosen.table.header[0];
  if (headerCell) {
    ctx.metadata[path] = fieldMetadata(
      headerCell.region,
      chosen.table.header.map((c) => c.text).join(' | '),
      chosen.map.score,
      `Table with columns ${chosen.table.header.map((c) => c.text).join(', ')} on page ${chosen.table.page}.`,
    );
  }
  const props = items.properties ?? [];
  const descriptionProp = props.find(
    (p) => p.node.kind === 'string' && chosen.map.columns.has(p.name),
  );
  const descriptionColumn = descriptionProp
    ? chosen.map.columns.get(descriptionProp.name)
    : undefined;
  // A quantity without a column of its own may be written into the description ("2 x Coffee").
  // ("Unit price" names a price, not a count of units.)
  const quantityProp = props.find((p) => {
    const named = `${p.name.replace(/[_-]|(?<=[a-z])(?=[A-Z])/g, ' ')} ${p.node.title ?? ''}`;
    return (
      (p.node.kind === 'number' || p.node.kind === 'integer') &&
      !chosen.map.columns.has(p.name) &&
      /\b(qty|quantity|count|units?|pcs|number of)\b/i.test(named) &&
      !/\b(price|cost|rate|amount|total|value)\b/i.test(named)
    );
  });
  // The properties a row's arithmetic ties together (quantity × unit price = amount).
  const byRole = (role: string) =>
    props.find((p) => chosen.map.columns.has(p.name) && itemRole(p.name, p.node) === role)?.name;
  const arithmetic = {
    quantity: byRole('quantity'),
    unit: byRole('unit'),
    amount: byRole('amount'),
  };
  const out: ExtractValue[] = [];
  const partRows = joinCarriedLines(
    parts.map((table) => itemRows(table, chosen.map, descriptionColumn)),
    descriptionColumn,
  );
  for (const [p, table] of parts.entries()) {
    const sided = sidedBySuffix(table);
    for (const row of partRows[p] ?? []) {
      const itemPath = `${path}[${out.length}]`;
      const item: Record<string, ExtractValue> = {};
      let filled = 0;
      const described = descriptionColumn === undefined ? undefined : row[descriptionColumn];
      const countFirst =
        descriptionColumn !== undefined &&
        COUNT_FIRST.test(table.header[descriptionColumn]?.text ?? '');
      const inline =
        quantityProp && described ? splitQuantity(described.text, countFirst) : undefined;
      for (const prop of props) {
        const leaf = { node: prop.node, roles: new Set<Role>() };
        const column = chosen.map.columns.get(prop.name);
        let cell = column === undefined ? undefined : row[column];
        if (inline && cell && prop === descriptionProp)
          cell = { ...cell, text: inline.description };
        if (inline && described && prop === quantityProp)
          cell = { ...described, text: String(inline.quantity) };
        // An item whose text writes no count is one of it ("Croissant    2.50" among "2 x Latte
        // 6.40"): tills print the count only when it is more than one.
        let single = false;
        if (!inline && described && described.text !== '' && prop === quantityProp) {
          cell = { ...described, text: '1' };
          single = true;
        }
        const numeric = prop.node.kind === 'number' || prop.node.kind === 'integer';
        let v = cell
          ? coerce(numeric ? ocrFigure(cell.text, cell.region) : cell.text, leaf, ctx)
          : undefined;
        let source = cell;
        // `80.00 DR` and `1,250.00 CR` in one table: the suffix says the side.
        if (sided && cell && typeof v === 'number') v = sidedFigure(cell.text, v);
        else if (sided && cell && v && typeof v === 'object' && !Array.isArray(v)) {
          const money = v as { readonly [key: string]: ExtractValue };
          if (typeof money.amount === 'number')
            v = { ...money, amount: sidedFigure(cell.text, money.amount) };
        }
        // `14 Mar` in a statement's rows: the year is the one the document's own dates give.
        if (v === undefined && cell && prop.node.kind === 'date' && ctx.near)
          v = dateNear(cell.text, ctx.near, ctx.dayFirst);
        if (v === undefined && chosen.map.split?.name === prop.name) {
          const signed = splitAmount(row, chosen.map.split);
          if (signed) {
            v =
              prop.node.kind === 'currency'
                ? { amount: signed.value, iso_4217: ctx.currency }
                : signed.value;
            source = signed.cell;
          }
        }
        if (v === undefined || !source) {
          item[prop.name] = prop.node.kind === 'array' ? [] : null;
          continue;
        }
        item[prop.name] = v;
        if (!single) filled++;
        ctx.metadata[`${itemPath}.${prop.name}`] = fieldMetadata(
          source.region,
          source.text,
          single ? chosen.map.score * 0.5 : chosen.map.score,
          single ? 'The item writes no count: one.' : undefined,
        );
      }
      if (filled === 0) continue;
      settleScannedQuantity(item, arithmetic, row, chosen.map.columns);
      const first = row[0];
      if (first)
        ctx.metadata[itemPath] = fieldMetadata(
          first.region,
          row.map((c) => c.text).join(' | '),
          chosen.map.score,
        );
      out.push(item);
    }
  }
  return out;
}

function extractArrays(
  node: SchemaNode,
  path: string,
  ctx: Context,
  value: Record<string, ExtractValue>,
  tables: readonly DocumentTable[],
  usedTables: Set<DocumentTable>,
): void {
  for (const prop of node.properties ?? []) {
    const p = path ? `${path}.${prop.name}` : prop.name;
    if (prop.node.kind === 'array')
      setPath(value, p, extractArray(p, prop.node, ctx, tables, usedTables));
    else if (prop.node.kind === 'object')
      extractArrays(prop.node, p, ctx, value, tables, usedTables);
  }
}

/**
 * The latest full date the document writes (each piece of a line read on its own, so that a
 * period's end counts), numeric dates in the document's order.
 */
function latestDate(
  pages: readonly DocumentPage[],
  dayFirst: boolean | undefined,
): string | undefined {
  let latest: string | undefined;
  for (const page of pages)
    for (const line of page.lines)
      for (const piece of line.text.split(/\s{2,}|\s[-–]\s|\s+to\s+/)) {
        const d = parseDate(piece, dayFirst);
        if (d && (!latest || d > latest)) latest = d;
      }
  return latest;
}

/** A party's name the page sets in capitals, as the document spells it (name-case.ts). */
function spellNames(leaves: readonly Leaf[], ctx: Context, value: Record<string, ExtractValue>) {
  for (const leaf of leaves) {
    if (!PARTY_ROLES.some((r) => leaf.roles.has(r))) continue;
    const name = valueAt(value, leaf.path);
    if (typeof name === 'string') setPath(value, leaf.path, nameAsSpelled(name, ctx.pages));
  }
}

/**
 * Extracts `schema` from a document view. The value follows the schema's shape (missing scalars
 * are null, missing arrays empty); the caller conforms it to the schema with ajv.
 */
export function offlineExtract(doc: DocumentView, schema: JsonSchema): ExtractOutput {
  const root = readSchema(schema);
  const candidates: Candidate[] = [];
  const opening = firstWithText(doc.pages);
  const conventions = conventionsOf(doc.pages);
  doc.pages.forEach((page, i) => {
    const fields = [...page.fields, ...checkboxFields(page)];
    for (const f of fields) {
      const weight = SOURCE_WEIGHT[f.source];
      candidates.push({ field: f, tokens: labelTokens(f.label), weight });
      for (const p of periodFields(f))
        candidates.push({ field: p, tokens: labelTokens(p.label), weight });
    }
    if (i === 0 || page.number === 1 || page === opening)
      for (const { field: f, role } of conventionalFields(page, conventions))
        candidates.push({
          field: f,
          tokens: labelTokens(f.label),
          weight: CONVENTION_WEIGHT,
          ...(role ? { role } : {}),
        });
  });
  const currency = documentCurrency(doc.pages);
  const dayFirst = dateOrder(doc.pages, currency);
  const ctx: Context = {
    candidates,
    pages: doc.pages,
    currency,
    dayFirst,
    near: latestDate(doc.pages, dayFirst),
    conventions,
    metadata: {},
  };
  const value: Record<string, ExtractValue> = {};
  const leaves: Leaf[] = [];
  collectLeaves(root, '', [], leaves);
  extractLeaves(leaves, ctx, value);
  dueFromTerms(leaves, ctx, value);
  spellNames(leaves, ctx, value);
  const tables = doc.pages.flatMap((p) => p.tables);
  extractArrays(root, '', ctx, value, tables, new Set());
  // Keep the schema's property order.
  const ordered: Record<string, ExtractValue> = {};
  for (const prop of root.properties ?? []) ordered[prop.name] = value[prop.name] ?? null;
  return { value: ordered, metadata: ctx.metadata };
}

/**
 * A scanned row's quantity read wrong (`44` for `11`) put right by the row's own arithmetic:
 * only a quantity OCR read, only when exactly one other reading of its digits makes quantity ×
 * unit price = amount (see {@link settledQuantity}).
 */
function settleScannedQuantity(
  item: Record<string, ExtractValue>,
  names: {
    quantity: string | undefined;
    unit: string | undefined;
    amount: string | undefined;
  },
  row: readonly DocumentCell[],
  columns: ReadonlyMap<string, number>,
): void {
  const { quantity, unit, amount } = names;
  if (!quantity || !unit || !amount) return;
  const column = columns.get(quantity);
  if (column === undefined || row[column]?.region.ocrConfidence == null) return;
  const q = figureOf(item[quantity]);
  const u = figureOf(item[unit]);
  const a = figureOf(item[amount]);
  if (q === undefined || u === undefined || a === undefined) return;
  const settled = settledQuantity(q, u, a);
  if (settled !== undefined) item[quantity] = settled;
}
