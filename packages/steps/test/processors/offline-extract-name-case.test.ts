/**
 * Party names a page sets in capitals (a till receipt's shop, a letterhead) come out as the
 * document spells them elsewhere, else with their words capitalised; acronyms and legal forms
 * keep their case. Inputs are built by the tests.
 */
import { describe, expect, it } from 'vitest';
import { capitalisedName } from '../../src/processors/offline/name-case.ts';
import { offlineExtract } from '../../src/processors/offline/offline-extract.ts';
import { textToParseOutput } from '../../src/processors/text-parse-output.ts';
import { buildDocumentView } from '../../src/processors/view/build-view.ts';

const str = { type: ['string', 'null'] };

function extract(text: string, properties: Record<string, unknown>) {
  const view = buildDocumentView([{ output: textToParseOutput([text]) }]);
  return offlineExtract(view, { type: 'object', properties }).value;
}

describe('names set in capitals', () => {
  it('capitalises words, keeping acronyms, legal forms and small words in their own case', () => {
    expect(capitalisedName('BANQUE LUMIÈRE')).toBe('Banque Lumière');
    expect(capitalisedName('HSBC TRADE FINANCE GMBH')).toBe('HSBC Trade Finance GmbH');
    expect(capitalisedName('LUMIÈRE CATERING S.A.')).toBe('Lumière Catering S.A.');
    expect(capitalisedName('BANK OF THE NORTH LLC')).toBe('Bank of the North LLC');
    expect(capitalisedName("PRIYA O'BRIEN")).toBe("Priya O'Brien");
    expect(capitalisedName("JOE'S DINER")).toBe("Joe's Diner");
    expect(capitalisedName('MERCEDES-BENZ ZEPHYR INC.')).toBe('Mercedes-Benz Zephyr Inc.');
  });

  it("gives a shop's name in capitals as the receipt spells it elsewhere", () => {
    const value = extract(
      [
        'NORTHGATE FUEL',
        '12 Market Street, Leeds LS1 4AB',
        'Receipt no: R-1182',
        'Total    42.10',
        'Thank you for choosing Northgate Fuel Ltd - see you soon',
      ].join('\n'),
      { merchant_name: str, receipt_number: str },
    );
    expect(value).toEqual({ merchant_name: 'Northgate Fuel', receipt_number: 'R-1182' });
  });

  it('capitalises the words of a name the document writes only in capitals', () => {
    const value = extract(
      [
        'KESTREL SOFTWARE GMBH',
        'Hauptstraße 5, 10115 Berlin',
        'INVOICE',
        'Invoice number: INV-7',
        'Bill to: NORTHWIND TRADERS LLC',
      ].join('\n'),
      { vendor_name: str, customer_name: str, invoice_number: str },
    );
    expect(value).toEqual({
      vendor_name: 'Kestrel Software GmbH',
      customer_name: 'Northwind Traders LLC',
      invoice_number: 'INV-7',
    });
  });

  it('reads a letter-spaced letterhead whose text kept a kerned pair together', () => {
    const value = extract(
      [
        'H A R B O R   P H A R M AC Y',
        '12 Market Street, Leeds LS1 4AP',
        'Order #: TRN-397712',
      ].join('\n'),
      { merchant_name: str },
    );
    expect(value).toEqual({ merchant_name: 'Harbor Pharmacy' });
  });

  it('leaves a name in mixed case and a short acronym as they are', () => {
    const value = extract(
      ['KPMG LLP', '15 Canada Square, London E14 5GL', 'INVOICE', 'Bill to: deVries Labs'].join(
        '\n',
      ),
      { vendor_name: str, customer_name: str },
    );
    expect(value).toEqual({ vendor_name: 'KPMG LLP', customer_name: 'deVries Labs' });
  });
});

describe('taglines and titles are no names', () => {
  it('passes over a tagline under the letterhead and a title that names the account', () => {
    const value = extract(
      [
        'Trade and wholesale',
        'Savings account summary',
        'Alpine Kantonalbank',
        'Bahnhofplatz 7, 8001 Zürich',
        'Account number: 4412-0093',
      ].join('\n'),
      { bank_name: str, account_number: str },
    );
    expect(value).toEqual({ bank_name: 'Alpine Kantonalbank', account_number: '4412-0093' });
  });

  it("reads a bank beside the statement's title as the letterhead, not as a label", () => {
    const value = extract(
      [
        'Banque Lumière    Credit card statement',
        '1550 Commerce Blvd',
        '75011 Paris',
        'Tel. +45 436 296 1834',
        '',
        'Mateo García',
        'Unit 4, Riverside Park',
        '8001 Zürich',
        'Opening Balance    1 576,78 €',
      ].join('\n'),
      { bank_name: str, account_holder: str },
    );
    expect(value).toEqual({ bank_name: 'Banque Lumière', account_holder: 'Mateo García' });
  });

  it('takes no sentence for a shop', () => {
    const value = extract(
      [
        'Your order is confirmed',
        'Harbor Pharmacy',
        '88 King Street West, Leeds LS1 4AP',
        'Order no: R240786',
      ].join('\n'),
      { merchant_name: str },
    );
    expect(value).toEqual({ merchant_name: 'Harbor Pharmacy' });
  });

  it("takes no address beside a party's label for the party's name", () => {
    const value = extract(
      [
        'Lakeside Print Works LLC',
        'PURCHASE ORDER',
        'Buyer:    400 Industrial Way, Springfield, IL 62701',
        'Vendor:    Meridian Design Studio S.A.',
        'PO number:    PO-4471',
      ].join('\n'),
      { buyer_name: str, vendor_name: str },
    );
    expect(value).toEqual({
      buyer_name: 'Lakeside Print Works LLC',
      vendor_name: 'Meridian Design Studio S.A.',
    });
  });

  it('takes no label and value run into one text for a name, and joins a wrapped identifier', () => {
    const value = extract(
      [
        'Castellano Imports GmbH',
        '400 Industrial Way',
        'Austin, TX 78701',
        'PRO FORMA INVOICE',
        'Bill To    Pro forma no.: INV14334',
        'Ironbridge Labs    Account number: 8348-4588- 7754',
        '9 Elm Avenue    Pay before: 2025-02-03',
        'Toronto, ON M5H 1J9',
      ].join('\n'),
      { customer_name: str, account_number: str },
    );
    expect(value.customer_name).toBe('Ironbridge Labs');
    expect(value.account_number).toBe('8348-4588-7754');
  });

  it('cuts the title a letterhead ran into from its name', () => {
    const value = extract(
      [
        'Lakeside Print Works LLCPurchase Order',
        '9 Elm Avenue    Order Ref    PO534636',
        'Portland, OR 97205',
        'Vendor:    Meridian Design Studio S.A.',
      ].join('\n'),
      { buyer_name: str, vendor_name: str },
    );
    expect(value).toEqual({
      buyer_name: 'Lakeside Print Works LLC',
      vendor_name: 'Meridian Design Studio S.A.',
    });
  });
});
