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
import type { ExtractOutput } from '../provider.ts';
import type { DocumentView } from '../view/document-view.ts';
/**
 * Extracts `schema` from a document view. The value follows the schema's shape (missing scalars
 * are null, missing arrays empty); the caller conforms it to the schema with ajv.
 */
export declare function offlineExtract(doc: DocumentView, schema: JsonSchema): ExtractOutput;
//# sourceMappingURL=offline-extract.d.ts.map