import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readFileSync } from 'node:fs';
const data = new Uint8Array(readFileSync(process.argv[2]));
const doc = await getDocument({ data }).promise;
const page = await doc.getPage(Number(process.argv[3]));
const tc = await page.getTextContent();
for (const it of tc.items) if (it.str.trim()) console.log(JSON.stringify({ s: it.str, w: +it.width.toFixed(2), x: +it.transform[4].toFixed(2), y: +it.transform[5].toFixed(2), size: it.transform[0] }));
