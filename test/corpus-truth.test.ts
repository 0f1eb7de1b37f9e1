/**
 * The evaluation corpus's generator (bench/src/documents/corpus) holds to what its documents
 * print: an identifier, a name or a currency no text of a document gives is not in its truth
 * (printedTruth), and the HTML for LibreOffice
 * Writer leads with an empty paragraph (Writer/Web's import loses a body's first paragraph, which
 * was every document's letterhead). Inputs are built by the tests; no producer runs.
 */
import { describe, expect, it } from 'vitest';
import { factsFor, printedTruth } from '../bench/src/documents/corpus/content.ts';
import { LOCALES } from '../bench/src/documents/corpus/locales.ts';
import type { LayoutDoc } from '../bench/src/documents/corpus/model.ts';
import { random } from '../bench/src/documents/corpus/random.ts';
import { renderHtml } from '../bench/src/documents/corpus/render-html.ts';
import { FONTS } from '../bench/src/documents/corpus/templates.ts';

const layout = (lines: string[]): LayoutDoc => ({
  font: FONTS[0] as LayoutDoc['font'],
  size: 10,
  paper: 'a4',
  body: [{ kind: 'text', lines }],
  pageNumbers: 'none',
});

describe('the corpus truth as printed', () => {
  const euro = Object.values(LOCALES).find((l) => l.currency === 'EUR');
  const facts = factsFor('invoice', random(7), euro ? { locale: euro } : {});

  it('holds the currency an invoice names by code, sign or word, and none it never names', () => {
    expect(printedTruth(facts, layout(['Total    1 066,34 EUR'])).fields.currency).toBe('EUR');
    expect(printedTruth(facts, layout(['Total    1 066,34 €'])).fields.currency).toBe('EUR');
    expect(printedTruth(facts, layout(['All amounts in euros'])).fields.currency).toBe('EUR');
    expect(printedTruth(facts, layout(['Total    1 066,34'])).fields.currency).toBeNull();
    // Everything else stays as the facts say.
    const plain = printedTruth(facts, layout(['Total    1 066,34']));
    expect(plain.fields.total).toBe(facts.type === 'invoice' ? facts.total : undefined);
  });

  it('holds no identifier or name the layout leaves out, and those it prints in any case', () => {
    if (facts.type !== 'invoice') throw new Error('an invoice was asked for');
    const spaced = facts.vendor.name.toUpperCase().split('').join(' ');
    const truth = printedTruth(facts, layout([spaced, `Invoice no. ${facts.number}`]));
    expect(truth.fields.vendor_name).toBe(facts.vendor.name);
    expect(truth.fields.invoice_number).toBe(facts.number);
    expect(truth.fields.po_number).toBeNull();
    expect(truth.fields.customer_name).toBeNull();
  });

  it('gives Writer an empty first paragraph to lose, and other producers none', () => {
    const doc = layout(['Meridian Office Products Inc.', '77 Harbor Road']);
    const body = (html: string) => html.slice(html.indexOf('<body>') + '<body>\n'.length);
    expect(body(renderHtml(doc, true)).startsWith('<p style="margin:0">&nbsp;</p>\n')).toBe(true);
    expect(body(renderHtml(doc, false)).startsWith('<p style="margin:0">&nbsp;</p>')).toBe(false);
  });
});
