/**
 * Makes the documents of the wave-3 item families (`templates-wave3-items.ts`): development half
 * only, ids `dev-w3i-…`, their own random stream, rendered in turn by Chromium, LibreOffice
 * Writer (flat ODT and HTML), Calc, Ghostscript (PostScript and re-distilled Chromium) and
 * ReportLab (canvas and platypus), so that every document made before keeps its manifest entry.
 * `generateCorpus` calls it last; run alone, it replaces the wave's documents in the corpus that
 * exists:
 *
 *   cd bench && npx tsx src/documents/corpus/wave3-items.ts [--seed 2311]
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  checkCalcTexts,
  corpusDir,
  DEFAULT_OPTIONS,
  documentOf,
  type Job,
  type Look,
  plan,
  produce,
} from './generate.ts';
import type { CorpusDocument, CorpusManifest, DocType, Producer } from './model.ts';
import { ensurePackages, pythonProducers } from './producers.ts';
import { random } from './random.ts';
import { pythonJob } from './render-python.ts';
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
  const jobs: Job[] = [];
  const python: ReturnType<typeof pythonJob>[] = [];
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
      jobs.push(job);
      if (job.producer === 'reportlab')
        python.push(
          pythonJob(
            'reportlab',
            job.layout,
            job.facts.locale,
            set,
            random(look.ctxSeed).fork('python'),
            job.pdf,
            python.length % 2 === 0 ? 'canvas' : 'platypus',
          ),
        );
    }
    t += 2;
  }
  console.log(`development: producing ${jobs.length} wave-3 item documents`);
  produce(
    jobs.filter((j) => j.producer !== 'reportlab'),
    work,
  );
  checkCalcTexts(jobs);
  if (python.length > 0) {
    const file = join(work, 'reportlab-jobs.json');
    writeFileSync(file, JSON.stringify(python));
    pythonProducers(
      file,
      python.map((p) => p.out),
    );
  }
  return jobs.map((j) => documentOf(j, root));
}

/** Replaces the wave's documents in the corpus of `seed` (the other entries stay as they are). */
export function regenerateWave3Items(seed: number): CorpusManifest {
  ensurePackages();
  const root = corpusDir(seed);
  const file = join(root, 'manifest.json');
  const old = JSON.parse(readFileSync(file, 'utf8')) as CorpusManifest;
  const ours = (d: CorpusDocument) => d.id.startsWith('dev-w3i-');
  for (const d of old.documents.filter(ours)) rmSync(join(root, d.file), { force: true });
  rmSync(join(root, 'work', 'w3i'), { recursive: true, force: true });
  const manifest: CorpusManifest = {
    ...old,
    documents: [...old.documents.filter((d) => !ours(d)), ...wave3ItemDocuments(seed, root)],
  };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { seed: { type: 'string' } } });
  const seed = values.seed === undefined ? DEFAULT_OPTIONS.seed : Number(values.seed);
  const manifest = regenerateWave3Items(seed);
  console.log(
    `corpus ${corpusDir(seed)}: ${manifest.documents.filter((d) => d.id.startsWith('dev-w3i-')).length} wave-3 item documents`,
  );
}
