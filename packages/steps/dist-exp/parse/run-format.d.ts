import type { FileType } from '@docflow/engine';
import type { DraftDocument } from './draft-document.ts';
import type { FormatContext } from './format-context.ts';
/** Reads a document of a detected type with its format's parser, in this thread. */
export declare function runFormat(type: FileType, bytes: Uint8Array, context: FormatContext): Promise<DraftDocument>;
//# sourceMappingURL=run-format.d.ts.map