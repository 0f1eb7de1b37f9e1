import type { FileType } from '@docflow/engine';
import type { DraftDocument } from './draft-document.ts';
import type { FormatContext } from './format-context.ts';

/** Reads a document of a detected type with its format's parser, in this thread. */
export async function runFormat(
  type: FileType,
  bytes: Uint8Array,
  context: FormatContext,
): Promise<DraftDocument> {
  switch (type) {
    case 'TXT':
      return (await import('./formats/parse-txt.ts')).parseTxt(bytes);
    case 'CSV':
      return (await import('./formats/parse-csv.ts')).parseCsv(bytes, context);
    case 'HTML':
      return (await import('./formats/parse-html.ts')).parseHtml(bytes, context);
    case 'XML':
      return (await import('./formats/parse-xml.ts')).parseXml(bytes, context);
    case 'DOCX':
      return (await import('./formats/parse-docx.ts')).parseDocx(bytes, context);
    case 'EXCEL':
      return (await import('./formats/parse-xlsx.ts')).parseXlsx(bytes, context);
    case 'PDF':
      return (await import('./formats/parse-pdf.ts')).parsePdf(bytes, context);
    case 'IMG':
      return (await import('./formats/parse-image.ts')).parseImage(bytes, context);
  }
}
