import type { DraftDocument } from '../draft-document.ts';
import type { FormatContext } from '../parse-document.ts';
import { ParseFailure } from '../parse-failure.ts';

/** Not implemented yet. */
export async function parseImage(
  _bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  throw new ParseFailure('FILE_TYPE_NOT_SUPPORTED', `${context.mimeType} is not supported yet`);
}
