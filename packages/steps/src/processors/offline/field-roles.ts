/**
 * What a schema property asks for beyond its label, read from its name, title and description:
 * the issuing organisation, the addressee, the signer, an identifier, a currency code, or one
 * end of a period. Conventions fill a property by its role when no label in the document does.
 */
import { tokens } from '../text-tokens.ts';

export type Role = 'issuer' | 'recipient' | 'signer' | 'identifier' | 'currency' | 'start' | 'end';

// Canonical tokens (text-tokens.ts maps supplier, seller, merchant, store, company … to vendor,
// and buyer, client, purchaser, bill-to … to customer).
const ISSUER = new Set([
  'vendor',
  'bank',
  'institution',
  'organization',
  'organisation',
  'business',
  'firm',
  'shop',
  'lender',
  'letterhead',
  'provider',
  'retailer',
]);
const RECIPIENT = new Set([
  'customer',
  'recipient',
  'addressee',
  'holder',
  'owner',
  'payer',
  'consignee',
  'tenant',
  'patient',
  'member',
  'insured',
]);
/** True for a token that names a party (a vendor, a bank, a customer, a holder). */
export function partyToken(token: string): boolean {
  return ISSUER.has(token) || RECIPIENT.has(token) || token === 'sender' || token === 'shipping';
}
const SIGNER = new Set(['sign', 'signed', 'signer', 'signatory', 'signature', 'author', 'writer']);
const PERSON = new Set(['name', 'person', 'contact']);
const IDENTIFIER = new Set(['number', 'id', 'identifier', 'reference', 'code', 'iban', 'account']);
const START = new Set(['start', 'from', 'begin', 'beginning', 'opening', 'first']);
const END = new Set(['end', 'to', 'until', 'through', 'last', 'closing']);

/**
 * A description that says which side of the document a party is on: the one that issued, sent,
 * placed or signed it ("The company placing the order", "the business that sent the bill"), or
 * the one it is sent, addressed or billed to, or ordered from ("The supplier the order is sent
 * to", "Company the goods are ordered from"). A purchase order's buyer is its issuer, whatever
 * the word "buyer" suggests elsewhere.
 */
const DESCRIBED_ISSUER =
  /\b(?:that|who|which)\s+(?:issued|issues|sent|sends|placed|places|wrote|writes|signed|raised|created)\b|\bplacing\s+the\b|\b(?:comes?|came)\s+from\b/i;
const DESCRIBED_RECIPIENT =
  /\b(?:sent|addressed|billed|issued|written|delivered|invoiced)\s+to\b|\bordered\s+from\b|\bbought\s+from\b/i;

/** The roles of a property from its name (and title), with its description as a tie-breaker. */
export function rolesOf(name: string, description = ''): Set<Role> {
  const own = tokens(name, { keepStopWords: true });
  const all = new Set(own);
  const roles = new Set<Role>();
  const described = new Set(tokens(description));
  if (own.includes('currency') || own.includes('iso') || described.has('4217'))
    roles.add('currency');
  if (
    own.some((t) => SIGNER.has(t)) ||
    (all.has('sender') && !all.has('organization') && own.some((t) => PERSON.has(t)))
  )
    roles.add('signer');
  else if (own.some((t) => ISSUER.has(t)) || all.has('sender')) roles.add('issuer');
  else if (own.some((t) => RECIPIENT.has(t))) roles.add('recipient');
  else if (own.length === 1 && own[0] === 'name') {
    // A bare "name": the description says whose.
    if ([...described].some((t) => ISSUER.has(t))) roles.add('issuer');
    else if ([...described].some((t) => RECIPIENT.has(t))) roles.add('recipient');
  }
  if (own.some((t) => IDENTIFIER.has(t)) && !roles.has('issuer') && !roles.has('recipient'))
    roles.add('identifier');
  if (own.some((t) => START.has(t))) roles.add('start');
  else if (own.some((t) => END.has(t))) roles.add('end');
  // The side of a party the description states wins over the side its name suggests.
  const side = roles.has('issuer') || roles.has('recipient') ? sideOf(description) : undefined;
  if (side) {
    roles.delete('issuer');
    roles.delete('recipient');
    roles.add(side);
  }
  return roles;
}

/** The side of a party its description states, if it states one and only one. */
function sideOf(description: string): Role | undefined {
  const recipient = DESCRIBED_RECIPIENT.test(description);
  const issuer = DESCRIBED_ISSUER.test(description);
  if (recipient && !issuer) return 'recipient';
  if (issuer && !recipient) return 'issuer';
  return undefined;
}

/**
 * An identifier as written, without the words a layout ran into it ("PO-8806 Order" →
 * "PO-8806", "3795 Statement" → "3795"): the leading words that carry a digit, with short
 * capital codes between them ("GB29 NWBK 6016"), a part wrapped after its hyphen joined again;
 * undefined when no digit is there at all.
 */
export function cleanIdentifier(text: string): string | undefined {
  const words = text
    .trim()
    .replace(/^[#:]\s*/, '')
    .split(/\s+/);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/\d/.test(w)) kept.push(w);
    else if (/^[A-Z]{1,4}[-/]?$/.test(w) && /\d/.test(words[i + 1] ?? '')) kept.push(w);
    else if (/^[-/]$/.test(w) && kept.length > 0 && /\d/.test(words[i + 1] ?? '')) kept.push(w);
    else if (kept.length > 0) break;
    else if (i >= 1) return undefined;
  }
  // A hyphen that ends a part joins the next one: the identifier was wrapped after it
  // ("8348-4588- 7754").
  const id = kept
    .join(' ')
    .replace(/(\d)- (?=\d)/g, '$1-')
    .replace(/[.,;:]+$/, '');
  return /\d/.test(id) ? id : undefined;
}
