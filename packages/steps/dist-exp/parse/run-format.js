/** Reads a document of a detected type with its format's parser, in this thread. */
export async function runFormat(type, bytes, context) {
    switch (type) {
        case 'TXT':
            return (await import('./formats/parse-txt.js')).parseTxt(bytes);
        case 'CSV':
            return (await import('./formats/parse-csv.js')).parseCsv(bytes, context);
        case 'HTML':
            return (await import('./formats/parse-html.js')).parseHtml(bytes, context);
        case 'XML':
            return (await import('./formats/parse-xml.js')).parseXml(bytes, context);
        case 'DOCX':
            return (await import('./formats/parse-docx.js')).parseDocx(bytes, context);
        case 'EXCEL':
            return (await import('./formats/parse-xlsx.js')).parseXlsx(bytes, context);
        case 'PDF':
            return (await import('./formats/parse-pdf.js')).parsePdf(bytes, context);
        case 'IMG':
            return (await import('./formats/parse-image.js')).parseImage(bytes, context);
    }
}
//# sourceMappingURL=run-format.js.map