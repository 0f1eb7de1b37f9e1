import type { FileType } from '@docflow/engine';
import type { DraftDocument } from './draft-document.ts';
import type { FormatContext } from './format-context.ts';

/** A format's parser, loaded on first use. */
type Parser = (bytes: Uint8Array, context: FormatContext) => DraftDocument | Promise<DraftDocument>;

/**
 * Each format's module is imported when a document of it first comes, and kept: an `import()`
 * of a module already loaded still resolves its specifier again, which under a module loader
 * (tsx, vitest) is a round trip to the loader's thread, about a millisecond per document.
 */
const LOADERS: Record<FileType, () => Promise<Parser>> = {
  TXT: async () => (await import('./formats/parse-txt.ts')).parseTxt,
  CSV: async () => (await import('./formats/parse-csv.ts')).parseCsv,
  HTML: async () => (await import('./formats/parse-html.ts')).parseHtml,
  XML: async () => (await import('./formats/parse-xml.ts')).parseXml,
  DOCX: async () => (await import('./formats/parse-docx.ts')).parseDocx,
  EXCEL: async () => (await import('./formats/parse-xlsx.ts')).parseXlsx,
  PDF: async () => (await import('./formats/parse-pdf.ts')).parsePdf,
  IMG: async () => (await import('./formats/parse-image.ts')).parseImage,
};

const loaded = new Map<FileType, Promise<Parser>>();

/** Reads a document of a detected type with its format's parser, in this thread. */
export async function runFormat(
  type: FileType,
  bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  let parser = loaded.get(type);
  if (!parser) {
    parser = LOADERS[type]();
    // A module that failed to load (an optional package missing) is tried again next time.
    parser.catch(() => loaded.delete(type));
    loaded.set(type, parser);
  }
  return (await parser)(bytes, context);
}
