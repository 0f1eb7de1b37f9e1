/**
 * Classification margins on the development half only (never the held-out one): for each
 * development document and each Debian manual, the answer, its confidence and the runner-up's
 * score, lowest confidence first, in the development wording and in the held-out half's wording
 * (`--wording held-out`). A thin margin is where a document of another producer would flip.
 * `--untitled` asks with every word that names a type taken out of the text first (`Invoice`,
 * `Receipt #`, `Purchase Order`, `Statement`): documents that never say what they are.
 *
 *   cd bench && npx tsx src/documents/margins.ts [--wording held-out] [--manuals] [--limit 20]
 *   npx tsx src/documents/margins.ts --untitled
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDocumentView, closeOcrPool, offlineProvider, parseDocument } from '@docflow/steps';
import { corpusDir, DEFAULT_OPTIONS } from './corpus/generate.ts';
import type { CorpusManifest } from './corpus/model.ts';
import { classificationsFor, typeOfClassification } from './scoring/schemas.ts';

const { values: args } = parseArgs({
  options: {
    wording: { type: 'string' },
    manuals: { type: 'boolean' },
    limit: { type: 'string' },
    producer: { type: 'string' },
    untitled: { type: 'boolean' },
  },
});
const wording = args.wording === 'held-out' ? 'held-out' : 'development';
const root = corpusDir(DEFAULT_OPTIONS.seed);
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as CorpusManifest;
const provider = offlineProvider();
/** Words that name a document type. */
const TYPE_NAMES =
  /\b(?:tax\s+)?invoic(?:e|ed|es)\b|\breceipts?\b|\bpurchase\s+orders?\b|\bp\.?\s?o\.?(?=\s|#|:|$)|\b(?:bank\s+)?statements?(?:\s+of\s+account)?\b|\bletters?\b/gi;
const rows: { id: string; ok: boolean; got: string; conf: number; why: string }[] = [];

async function classify(file: string) {
  const result = await parseDocument(readFileSync(file), {
    fileName: file,
    config: {
      advancedOptions: {
        returnOcr: { words: true },
        ...(file.endsWith('.xlsx') ? { excelSkipCalculation: false } : {}),
      },
    },
  });
  if (!result.ok) throw new Error(`${file}: ${result.failureMessage}`);
  const built = buildDocumentView([{ output: result.output }]);
  const view = args.untitled
    ? {
        ...built,
        pages: built.pages.map((p) => ({
          ...p,
          lines: p.lines.map((l) => ({ ...l, text: l.text.replace(TYPE_NAMES, ' ') })),
        })),
      }
    : built;
  return (await provider.classify(view, { classifications: classificationsFor(wording) })).output;
}

const docs = manifest.documents.filter(
  (d) => d.set === 'development' && (!args.producer || d.producer === args.producer),
);
for (const doc of docs) {
  const out = await classify(join(root, doc.file));
  const got = typeOfClassification(out.id);
  rows.push({
    id: `${doc.id} (${doc.producer})`,
    ok: got === doc.type,
    got,
    conf: out.confidence,
    why: out.insights[0]?.content ?? '',
  });
}
if (args.manuals)
  for (const file of [
    '/usr/share/doc/glpk-doc/glpk.pdf',
    '/usr/share/doc/glpk-doc/gmpl.pdf',
    '/usr/share/doc/glpk-doc/graphs.pdf',
    '/usr/share/R/doc/manual/R-intro.pdf',
    '/usr/share/R/doc/manual/R-data.pdf',
    '/usr/share/R/doc/manual/R-lang.pdf',
    '/usr/share/doc/asymptote/asyRefCard.pdf',
  ].filter((f) => existsSync(f))) {
    const out = await classify(file);
    rows.push({
      id: file.split('/').pop() ?? file,
      ok: out.type === 'other',
      got: out.type,
      conf: out.confidence,
      why: out.insights[0]?.content ?? '',
    });
  }
await closeOcrPool();
rows.sort((a, b) => Number(a.ok) - Number(b.ok) || a.conf - b.conf);
for (const r of rows.slice(0, Number(args.limit ?? 25)))
  console.log(`${r.ok ? 'ok  ' : 'MISS'} ${r.conf.toFixed(3)} ${r.id} -> ${r.got}: ${r.why}`);
console.log(`${rows.filter((r) => r.ok).length}/${rows.length} right`);
