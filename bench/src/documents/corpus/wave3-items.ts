/**
 * Makes the documents of the wave-3 item families (`templates-wave3-items.ts`): development half
 * only, ids `dev-w3i-…`, their own random stream, rendered in turn by Chromium, LibreOffice
 * Writer (flat ODT and HTML), Calc, Ghostscript (PostScript and re-distilled Chromium) and
 * ReportLab (canvas and platypus), so that every document made before keeps its manifest entry.
 * Registered as the wave `w3i` in generate.ts, which makes it again in the corpus that exists:
 *
 *   cd bench && npx tsx src/documents/corpus/generate.ts --wave w3i
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Look, plan, produceWave, type WaveJob } from './generate.ts';
import type { CorpusDocument, DocType, Producer } from './model.ts';
import { random } from './random.ts';
import { w3iFamiliesOf } from './templates-wave3-items.ts';

/** Documents per type, and the producers they go to in turn (shifted per type). */
const COUNTS: Readonly<Partial<Record<DocType, number>>> = {
  receipt: 9,
  bank_statement: 7,
  purchase_order: 7,
};
const PRODUCERS: readonly Producer[] = [
  'chromium',
  'writer-odt',
  'calc',
  'reportlab',
  'writer-html',
  'ghostscript',
  'ghostscript-redistill',
];

/** Makes the wave's documents under `root` and returns their manifest entries. */
export function wave3ItemDocuments(seed: number, root: string): CorpusDocument[] {
  const set = 'development';
  const dir = join(root, set);
  const work = join(root, 'work', 'w3i');
  mkdirSync(dir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const r = random(seed).fork(set).fork('wave3-items');
  const entries: WaveJob[] = [];
  let drawn = 0;
  let t = 0;
  for (const [type, count] of Object.entries(COUNTS) as [DocType, number][]) {
    const families = w3iFamiliesOf(type);
    for (let k = 0; k < count; k++) {
      const id = `dev-w3i-${type}-${String(k + 1).padStart(2, '0')}`;
      const dr = r.fork(id);
      const family = families[k % families.length];
      if (!family) throw new Error(`no wave-3 item family for ${type}`);
      const look: Look = {
        family,
        producer: PRODUCERS[(k + t) % PRODUCERS.length] as Producer,
        ctxSeed: dr.int(1, 2 ** 31),
      };
      const job = plan(id, set, type, look, family.facts(dr.fork('facts')), join(dir, `${id}.pdf`));
      // ReportLab's documents alternate canvas and platypus in the order they come.
      const drawing = job.producer === 'reportlab' && drawn++ % 2 === 1 ? 'platypus' : 'canvas';
      entries.push({ job, ctxSeed: look.ctxSeed, drawing });
    }
    t += 2;
  }
  console.log(`development: producing ${entries.length} wave-3 item documents`);
  return produceWave(entries, work, root);
}
