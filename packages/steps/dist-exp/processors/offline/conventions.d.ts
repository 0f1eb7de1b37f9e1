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
import type { DocumentPage, DocumentRegion } from '../view/document-view.ts';
/** A value found by convention, with where it is. */
export interface Found {
    readonly value: string;
    readonly region: DocumentRegion;
    readonly lineIndex: number;
    /** For a letterhead: set larger than the body text, or named with a legal form ("Ltd"). */
    readonly prominent?: boolean;
}
/** True for an address line: a street with its number, a postcode and town, a PO box. */
export declare function isAddressLine(text: string): boolean;
/**
 * The issuing organisation: among the first lines of the page, the name-shaped text with the
 * best mix of prominence (taller than the body text), a legal form ("Ltd", "GmbH", "Bank") and
 * an early position; titles, initials, addresses, contacts and dates are never it.
 */
export declare function letterhead(page: DocumentPage): Found | undefined;
/**
 * Addressee blocks: a name-shaped line followed by address lines (within the next four lines),
 * other than the letterhead itself. Returns the names, top to bottom.
 */
export declare function addressees(page: DocumentPage, issuer?: Found): Found[];
/** A person's name without a leading honorific ("Dr. Maria Lopez" → "Maria Lopez"). */
export declare function withoutHonorific(name: string): string;
/**
 * The addressee of a letter: the name after "Dear", completed from the inside address when the
 * salutation gives only part of it ("Dear Ms. Lopez," or "Dear Maria," and "Maria Lopez" above).
 */
export declare function salutationName(page: DocumentPage): Found | undefined;
/** The signer of a letter: the first name-shaped line under the complimentary close. */
export declare function signer(page: DocumentPage): Found | undefined;
/** A date standing alone on a line near the top ("14 March 2024", "Berlin, 14.03.2024"). */
export declare function standaloneDate(page: DocumentPage): Found | undefined;
/** The currency most amounts of the document name (by symbol or code). */
export declare function documentCurrency(pages: readonly DocumentPage[]): string | null;
//# sourceMappingURL=conventions.d.ts.map