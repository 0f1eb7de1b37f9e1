/**
 * Writes the generated processor corpus to a folder: for each document and packet a `.txt` (pages
 * separated by form feeds), a `.pdf` (pdf-lib, Courier) and a `.truth.json` with the ground truth
 * (fields for documents, document page ranges for packets). Deterministic.
 * Run: cd packages/steps && npx tsx scripts/corpus/write-corpus.ts <dir> [documentsPerType] [packets]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateDocuments, generatePackets } from '../../test/fixtures/corpus/generate-corpus.ts';
import { renderPdf } from '../../test/fixtures/corpus/render-pdf.ts';

const [dir = 'corpus-out', perType = '14', packetCount = '24'] = process.argv.slice(2);
await mkdir(dir, { recursive: true });
for (const doc of generateDocuments(Number(perType))) {
  await writeFile(join(dir, `${doc.id}.txt`), doc.pages.join('\f'));
  await writeFile(join(dir, `${doc.id}.pdf`), await renderPdf(doc.pages));
  await writeFile(
    join(dir, `${doc.id}.truth.json`),
    JSON.stringify({ type: doc.type, fields: doc.truth }, null, 2),
  );
}
for (const packet of generatePackets(Number(packetCount))) {
  await writeFile(join(dir, `${packet.id}.txt`), packet.pages.join('\f'));
  await writeFile(join(dir, `${packet.id}.pdf`), await renderPdf(packet.pages));
  await writeFile(
    join(dir, `${packet.id}.truth.json`),
    JSON.stringify({ documents: packet.documents }, null, 2),
  );
}
console.log(`wrote the corpus to ${dir}`);
