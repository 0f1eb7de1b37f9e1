/**
 * Word-level text normalisation shared by the offline classifier, splitter and extractor:
 * lower-cased tokens, a light stemmer and a small table of business-document synonyms so that
 * "Qty", "Invoice #" and "Bill to" meet "quantity", "invoice_number" and "customer".
 */

/** Tokens that mean the same thing on business documents, mapped to one canonical token. */
const TOKEN_SYNONYMS: Readonly<Record<string, string>> = {
  no: 'number',
  num: 'number',
  nbr: 'number',
  '#': 'number',
  qty: 'quantity',
  quantities: 'quantity',
  units: 'quantity',
  vat: 'tax',
  gst: 'tax',
  hst: 'tax',
  acct: 'account',
  amt: 'amount',
  desc: 'description',
  item: 'description',
  product: 'description',
  delivery: 'deliver',
  company: 'vendor',
  issuer: 'vendor',
  dated: 'date',
  issued: 'issue',
  seller: 'vendor',
  supplier: 'vendor',
  merchant: 'vendor',
  store: 'vendor',
  biller: 'vendor',
  buyer: 'customer',
  holder: 'customer',
  client: 'customer',
  purchaser: 'customer',
  beginning: 'opening',
  starting: 'opening',
  ending: 'closing',
  ticket: 'receipt',
  tender: 'payment',
  tendered: 'payment',
  txn: 'transaction',
  trx: 'transaction',
  re: 'subject',
  regarding: 'subject',
  topic: 'subject',
  ordered: 'order',
  invoiced: 'invoice',
  cost: 'price',
  rate: 'price',
  ref: 'reference',
  po: 'purchase_order',
};

/** Multi-word phrases rewritten before tokenising (order matters: longest first). */
const PHRASE_SYNONYMS: readonly (readonly [RegExp, string])[] = [
  [/\bpurchase\s+order\b/g, 'purchase_order'],
  // "Inv. No", "Inv #": the invoice's number (not "INV-7", an identifier's prefix).
  [/\binv\.?\s*(?=no\b|#|num|number\b)/g, 'invoice '],
  [/\bp\.\s*o\.?(?=\s|$|#|:)/g, 'purchase_order'],
  [/\bbank\s+statement\b/g, 'bank_statement'],
  [/\b(?:bill(?:ed)?|sold|invoices?)\s+to\b/g, 'customer'],
  // The party billed, by its address or details ("Billing address", "Invoice address").
  [/\b(?:billing|invoice)\s+(?:address|party|contact|name|details)\b/g, 'customer'],
  // When to pay ("Pay by", "Please pay by", "Payable by"): the due date.
  [/\b(?:please\s+)?pay(?:able)?\s+(?:by|before|until)\b/g, 'due date'],
  // What is to be paid, by the request to pay it ("Please pay", "Amount payable").
  [
    /\b(?:please\s+pay|(?:amount|total|sum)\s+payable|payable\s+amount|amount\s+to\s+pay|to\s+pay)\b/g,
    'total',
  ],
  [/\b(?:ship(?:ped)?|deliver(?:ed)?|delivery)\s+to\b/g, 'shipping'],
  [/\b(?:amount|balance|total)\s+due\b/g, 'total'],
  [/\bgrand\s+total\b/g, 'total'],
  // The amount with tax: "Gross total", "Total incl. VAT", "Total including tax".
  [/\bgross\s+(?:total|amount)\b|\b(?:invoice|order|document)\s+total\b/g, 'total'],
  [/\b(?:total|amount)\s+(?:incl(?:uding|\.)?|inc\.?|with)\s+(?:tax|vat|gst)\b/g, 'total'],
  // "Issued" alone as a label: the issue date.
  [/^\s*issued\s*:?\s*$/g, 'issue date'],
  [/\b(?:order|invoice|purchase_order)\s+amount\b/g, 'total'],
  // "Supplier details", "Customer details": the party itself.
  [/\b(vendor|supplier|customer|client|buyer|seller|bank)\s+details\b/g, '$1'],
  [/\bdate\s+raised\b|\braised\s+on\b/g, 'issue date'],
  [/\btotal\s+amount\b/g, 'total'],
  [/\bsub[\s-]+total\b/g, 'subtotal'],
  // The items' sum before tax and charges: "Items total", "Total of items", "Merchandise total".
  [
    /\b(?:items?|merchandise|goods)\s+(?:total|value)\b|\b(?:total|value)\s+(?:of\s+)?(?:items?|goods)\b/g,
    'subtotal',
  ],
  [/\bnet\s+(?:amount|total)\b|\btotal\s+net\b/g, 'subtotal'],
  // "Net" alone as a label: the amount before tax.
  [/^\s*net\s*:?\s*$/g, 'subtotal'],
  [/\b(?:amount|total)\s+before\s+tax\b/g, 'subtotal'],
  [
    /\b(?:amount|total)\s+(?:excl(?:uding|\.)?|ex\.?|without|w\/o)\s+(?:tax|vat|gst)\b/g,
    'subtotal',
  ],
  [/\bsales\s+tax\b/g, 'tax'],
  [/\bdate\s+of\s+issue\b/g, 'issue date'],
  // The date of supply a VAT invoice states ("Tax point", "Tax point date"): its own date.
  [/\btax\s+point(?:\s+date)?\b/g, 'issue date'],
  [/\bissued?\s+on\b/g, 'issue date'],
  // The date a VAT invoice is dated for tax, and a document's own date: its issue date.
  [/\b(?:tax|document)\s+date\b/g, 'issue date'],
  [/\bpayment\s+due\b|\bdue\s+for\s+payment\b/g, 'due date'],
  // When to settle ("Settle by", "Settlement date"): the due date.
  [/\bsettle(?:ment)?\s+(?:by|before|on|date)\b/g, 'due date'],
  [
    /\b(?:required|needed|need|wanted)\s+(?:(?:by|on)(?:\s+date)?|date)\b|\bdate\s+(?:required|needed|wanted)\b/g,
    'deliver date',
  ],
  [/\bbalance\s+carried\s+forward\b|\bbalance\s+c\/f\b|\bc\/f\s+balance\b/g, 'closing balance'],
  [
    /\bbalance\s+(?:forward|brought\s+forward)\b|\bbalance\s+b\/f\b|\bb\/f\s+balance\b/g,
    'opening balance',
  ],
  // "Start-of-period balance", "Beginning of statement balance", "End of month balance".
  [
    /\b(?:start|beginning|opening)[\s-]+of[\s-]+(?:the[\s-]+)?(?:period|statement|month)[\s-]+balance\b/g,
    'opening balance',
  ],
  [
    /\b(?:end|close|closing)[\s-]+of[\s-]+(?:the[\s-]+)?(?:period|statement|month)[\s-]+balance\b/g,
    'closing balance',
  ],
  [/\bprevious\s+(?:statement\s+)?balance\b|\bstart(?:ing)?\s+balance\b/g, 'opening balance'],
  [/\bend(?:ing)?\s+balance\b/g, 'closing balance'],
  // "Balance at start of period", "Balance on the closing date".
  [
    /\bbalance\s+(?:at|on|as\s+at)\s+(?:the\s+)?(?:start|beginning|opening|begin)(?:\s+(?:of\s+(?:the\s+)?)?(?:period|statement|month|date))?\b/g,
    'opening balance',
  ],
  [
    /\bbalance\s+(?:at|on|as\s+at)\s+(?:the\s+)?(?:end|close|closing)(?:\s+(?:of\s+(?:the\s+)?)?(?:period|statement|month|date))?\b/g,
    'closing balance',
  ],
  // The account's holder by another name: "Account name", "Prepared for", "Statement for".
  [/\baccount\s+(?:name|owner)\b|\b(?:prepared|statement)\s+for\b/g, 'customer name'],
  [/\bship(?:ment|ping)?\s+date\b|\bdate\s+(?:of\s+)?(?:shipment|delivery)\b/g, 'deliver date'],
  [/\bnew\s+balance\b/g, 'closing balance'],
  [/\bpaid\s+(?:by|with|via)\b/g, 'payment method'],
  [/\bline\s+total\b/g, 'amount'],
  [/\bext(?:ended)?\.?\s+(?:price|amount)\b/g, 'amount'],
  [/\bunit\s+(?:price|cost)\b/g, 'unit price'],
  [/\bfrom\b(?=\s*:)/g, 'vendor'],
];

/** Words that carry no meaning for matching. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'has',
  'have',
  'in',
  'is',
  'it',
  'its',
  'of',
  'on',
  'or',
  'our',
  'that',
  'the',
  'this',
  'to',
  'with',
  'your',
  'you',
  'we',
  'was',
  'were',
  'which',
  'such',
  'usually',
  'typically',
  'contains',
  'containing',
  'document',
  'documents',
]);

/** A light suffix stemmer: enough to meet "items"/"item" and "charges"/"charge". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) {
    return word.slice(0, -1);
  }
  return word;
}

/** Rewrites phrases with a canonical meaning ("bill to" → "customer"); input lower-cased. */
function rewritePhrases(lower: string): string {
  let text = lower;
  for (const [pattern, replacement] of PHRASE_SYNONYMS) text = text.replace(pattern, replacement);
  return text;
}

/**
 * Canonical tokens of `text`: lower-cased, phrase and token synonyms applied, stemmed, stop
 * words dropped. `#` is kept as a token because "Invoice #" means "invoice number".
 */
export function tokens(text: string, options: { keepStopWords?: boolean } = {}): string[] {
  const lower = rewritePhrases(
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .replace(/_/g, ' '),
  );
  const out: string[] = [];
  for (const raw of lower.match(/purchase_order|bank_statement|#|[\p{L}\p{N}]+/gu) ?? []) {
    if (!options.keepStopWords && STOP_WORDS.has(raw)) continue;
    // Own entries only: a word such as "constructor" or "toString" is not a synonym.
    const mapped = Object.hasOwn(TOKEN_SYNONYMS, raw) ? (TOKEN_SYNONYMS[raw] as string) : raw;
    out.push(mapped.includes('_') ? mapped : stem(mapped));
  }
  return out;
}

/** Tokens of a label, with numbers and pure punctuation removed. */
export function labelTokens(text: string): string[] {
  return tokens(text).filter((t) => !/^\d+$/.test(t));
}

/** Tokens that appear in many labels and say little on their own. */
const GENERIC = new Set(['number', 'date', 'name', 'id', 'code', 'value', 'amount', 'type']);

function tokenWeight(t: string): number {
  return GENERIC.has(t) ? 0.5 : 1;
}

/**
 * Dice similarity of two token lists treated as sets, 0..1, with generic tokens ("number",
 * "date", "name") counting half, so that "Invoice No." does not pass for a PO number.
 */
export function dice(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setA = new Set(a);
  const setB = new Set(b);
  let common = 0;
  let total = 0;
  for (const t of setA) {
    total += tokenWeight(t);
    if (setB.has(t)) common += tokenWeight(t);
  }
  for (const t of setB) total += tokenWeight(t);
  return (2 * common) / total;
}
