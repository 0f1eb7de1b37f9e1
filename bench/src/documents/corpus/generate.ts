/**
 * Generates the evaluation corpus: business documents of five types in varied template families,
 * made into PDFs by software docflow does not use for its own fixtures (LibreOffice Writer and
 * Calc, Chromium, Ghostscript), scanned copies, and packets of several documents (same-type
 * neighbours on purpose), each with the ground truth the generator knows; then documents made by
 * Python libraries (ReportLab PDFs, python-docx DOCX and openpyxl XLSX parsed as themselves, qpdf
 * packets, a page turned by `/Rotate 90`). Reproducible from the seed; writes
 * `bench/generated/documents/<seed>/` (gitignored).
 *
 *   cd bench && npx tsx src/documents/corpus/generate.ts [--seed 2311] [--small]
 *   npx tsx src/documents/corpus/generate.ts --scripted-only   # only the Python producers' part
 *   npx tsx src/documents/corpus/generate.ts --wave w3f        # one later wave again, the rest kept
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { unprintedTexts } from './calc-check.ts';
import {
  type FactHints,
  type Facts,
  factsFor,
  printedTruth,
  type StatementFacts,
} from './content.ts';
import { addDays } from './locales.ts';
import {
  type CorpusDocument,
  type CorpusManifest,
  type CorpusPacket,
  type CorpusReport,
  type CorpusSet,
  DOC_TYPES,
  type DocType,
  type LayoutDoc,
  type Producer,
} from './model.ts';
import { CITIES, LETTER_SENTENCES, LETTER_SUBJECTS, PRODUCTS } from './pools.ts';
import {
  chromium,
  ensurePackages,
  ghostscript,
  pageCount,
  pythonProducers,
  qpdfJoin,
  qpdfRotate,
  soffice,
  toolVersions,
} from './producers.ts';
import { type Random, random } from './random.ts';
import { renderHtml } from './render-html.ts';
import { renderFods, renderFodt, sheetTexts } from './render-odf.ts';
import { renderPs } from './render-ps.ts';
import { type PythonJob, type PythonProducer, pythonJob } from './render-python.ts';
import { scanPdf } from './scan.ts';
import { context, type Family, familiesOf, laterFamiliesOf } from './templates.ts';
import { wave3FieldFamiliesOf } from './templates-wave3-fields.ts';
import { WAVE3_AMBIGUOUS } from './wave3-ambiguous.ts';
import { WAVE3_CLASS } from './wave3-class.ts';
import { wave3ItemDocuments } from './wave3-items.ts';

export const BENCH_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Where the corpus of `seed` lives. */
export function corpusDir(seed: number): string {
  return join(BENCH_ROOT, 'generated', 'documents', String(seed));
}

/** Producers per half, with weights: the held-out half leans on LibreOffice and re-distilled PDFs. */
const MIX: Readonly<Record<CorpusSet, readonly (readonly [Producer, number])[]>> = {
  development: [
    ['chromium', 3],
    ['writer-odt', 2],
    ['ghostscript', 2],
    ['calc', 3],
    ['writer-html', 2],
    ['ghostscript-redistill', 2],
  ],
  'held-out': [
    ['writer-html', 3],
    ['calc', 3],
    ['ghostscript-redistill', 2],
    ['chromium', 1],
    ['ghostscript', 1],
  ],
};

export interface Job {
  readonly id: string;
  readonly set: CorpusSet;
  readonly type: DocType;
  readonly family: Family;
  readonly producer: Producer;
  readonly facts: Facts;
  readonly layout: LayoutDoc;
  /** Where the PDF is written. */
  readonly pdf: string;
}

function producerCycle(r: Random, set: CorpusSet): Producer[] {
  const list = MIX[set].flatMap(([p, w]) => Array.from({ length: w }, () => p));
  return r.sample(list, list.length);
}

function fitProducer(producer: Producer, type: DocType): Producer {
  // A letter typed into a spreadsheet is not something people send.
  if (producer === 'calc' && type === 'letter') return 'writer-html';
  return producer;
}

export interface Look {
  readonly family: Family;
  readonly producer: Producer;
  readonly ctxSeed: number;
}

export function plan(
  id: string,
  set: CorpusSet,
  type: DocType,
  look: Look,
  facts: Facts,
  pdf: string,
): Job {
  const ctx = context(random(look.ctxSeed), set, facts.locale);
  const layout = look.family.build(facts as never, ctx);
  return {
    id,
    set,
    type,
    family: look.family,
    producer: fitProducer(look.producer, type),
    facts,
    layout,
    pdf,
  };
}

/** Writes every job's source and runs the producers; each job's PDF exists afterwards. */
export function produce(jobs: readonly Job[], work: string): void {
  const src = join(work, 'sources');
  mkdirSync(src, { recursive: true });
  const byProducer = (p: Producer) => jobs.filter((j) => j.producer === p);
  const odt = byProducer('writer-odt').map((j) => {
    const file = join(src, `${j.id}.fodt`);
    writeFileSync(file, renderFodt(j.layout));
    return { job: j, file };
  });
  const ods = byProducer('calc').map((j) => {
    const file = join(src, `${j.id}.fods`);
    writeFileSync(file, renderFods(j.layout, { countedWidths: j.set === 'held-out' }));
    return { job: j, file };
  });
  const web = byProducer('writer-html').map((j) => {
    const file = join(src, `${j.id}.html`);
    writeFileSync(file, renderHtml(j.layout, true));
    return { job: j, file };
  });
  const out = join(work, 'lo');
  soffice(
    odt.map((x) => x.file),
    'pdf',
    out,
  );
  soffice(
    odt.map((x) => x.file),
    'docx',
    out,
  );
  soffice(
    ods.map((x) => x.file),
    'pdf',
    out,
  );
  soffice(
    ods.map((x) => x.file),
    'xlsx',
    out,
  );
  soffice(
    web.map((x) => x.file),
    'pdf:writer_web_pdf_Export',
    out,
  );
  for (const { job } of [...odt, ...ods, ...web]) {
    copyFileSync(join(out, `${job.id}.pdf`), job.pdf);
    for (const ext of ['docx', 'xlsx']) {
      const alt = join(out, `${job.id}.${ext}`);
      if (existsSync(alt)) copyFileSync(alt, job.pdf.replace(/\.pdf$/, `.${ext}`));
    }
  }
  for (const job of jobs) {
    if (job.producer === 'chromium' || job.producer === 'ghostscript-redistill') {
      const html = join(src, `${job.id}.html`);
      writeFileSync(html, renderHtml(job.layout));
      if (job.producer === 'chromium') chromium(html, job.pdf);
      else {
        const printed = join(src, `${job.id}.chromium.pdf`);
        chromium(html, printed);
        ghostscript([printed], job.pdf);
      }
    } else if (job.producer === 'ghostscript') {
      const ps = join(src, `${job.id}.ps`);
      writeFileSync(ps, renderPs(job.layout));
      ghostscript([ps], job.pdf);
    }
  }
}

/**
 * Fails when a development Calc PDF does not print one of its sheet's texts in full (every value
 * the ground truth holds is printed through one of them); reports the count for the held-out half,
 * which keeps the column widths it was generated with.
 */
export function checkCalcTexts(jobs: readonly Job[]): void {
  const missing = jobs
    .filter((j) => j.producer === 'calc')
    .flatMap((j) => unprintedTexts(j.pdf, sheetTexts(j.layout)).map((t) => ({ job: j, text: t })));
  const dev = missing.filter((m) => m.job.set === 'development');
  if (dev.length > 0)
    throw new Error(
      `Calc clipped ${dev.length} text(s) of development documents, so their PDFs do not hold the ground truth: ${dev
        .map((m) => `${m.job.id}: ${JSON.stringify(m.text)}`)
        .join('; ')}`,
    );
  const held = missing.filter((m) => m.job.set === 'held-out');
  if (held.length > 0)
    console.log(
      `held-out: ${held.length} sheet text(s) not printed in full by Calc (column widths kept as generated)`,
    );
}

export function documentOf(job: Job, root: string): CorpusDocument {
  const alternates = (['docx', 'xlsx'] as const)
    .map((ext) => job.pdf.replace(/\.pdf$/, `.${ext}`))
    .filter((f) => existsSync(f))
    .map((f) => ({
      producer: (f.endsWith('.docx') ? 'writer-docx' : 'calc') as Producer,
      file: f.slice(root.length + 1),
    }));
  return {
    id: job.id,
    set: job.set,
    type: job.type,
    family: job.family.name,
    producer: job.producer,
    file: job.pdf.slice(root.length + 1),
    ...(alternates.length > 0 ? { alternates } : {}),
    pages: pageCount(job.pdf),
    truth: printedTruth(job.facts, job.layout),
  };
}

/** A packet's members as the manifest records them, with the pages each one takes. */
function packetDocuments(members: readonly Job[]): CorpusPacket['documents'] {
  let page = 1;
  return members.map((m) => {
    const n = pageCount(m.pdf);
    const entry = {
      id: m.id,
      type: m.type,
      family: m.family.name,
      producer: m.producer,
      startPage: page,
      endPage: page + n - 1,
    };
    page += n;
    return entry;
  });
}

/** What a packet theme asks for: members, and which earlier member each one looks like. */
interface Member {
  readonly type: DocType;
  readonly hints?: FactHints;
  /** Index of an earlier member whose family, producer and drawing seed this one reuses. */
  readonly like?: number;
  /** Facts derived from an earlier member's (consecutive statements). */
  readonly after?: number;
}

interface Theme {
  readonly name: string;
  members(r: Random): Member[];
}

const THEMES: readonly Theme[] = [
  { name: 'receipt + receipt', members: () => [{ type: 'receipt' }, { type: 'receipt' }] },
  {
    name: 'receipt + receipt, same shop',
    members: () => [
      { type: 'receipt' },
      { type: 'receipt', like: 0 },
      { type: 'receipt', like: 0 },
    ],
  },
  {
    name: 'statement + statement, different banks',
    members: () => [{ type: 'bank_statement' }, { type: 'bank_statement' }],
  },
  {
    name: 'statement + statement, same bank, other account',
    members: () => [{ type: 'bank_statement' }, { type: 'bank_statement', like: 0 }],
  },
  {
    name: 'statement + statement, same account, next month',
    members: () => [{ type: 'bank_statement' }, { type: 'bank_statement', like: 0, after: 0 }],
  },
  {
    name: 'invoice + invoice, same vendor',
    members: (r) =>
      Array.from({ length: r.int(2, 3) }, (_, i) => ({
        type: 'invoice' as const,
        ...(i > 0 ? { like: 0 } : {}),
      })),
  },
  {
    name: 'invoice + invoice, other vendors',
    members: () => [{ type: 'invoice' }, { type: 'invoice' }],
  },
  {
    name: 'purchase order + purchase order, same buyer',
    members: () => [{ type: 'purchase_order' }, { type: 'purchase_order', like: 0 }],
  },
  {
    name: 'letter + letter, same sender',
    members: () => [{ type: 'letter' }, { type: 'letter', like: 0 }],
  },
  {
    name: 'mixed',
    members: (r) => Array.from({ length: r.int(3, 5) }, () => ({ type: r.pick(DOC_TYPES) })),
  },
  {
    name: 'invoice, its purchase order and a receipt',
    members: () => [{ type: 'purchase_order' }, { type: 'invoice' }, { type: 'receipt' }],
  },
];

/** Hints that make a member look like (or follow) an earlier one. */
function memberHints(member: Member, earlier: readonly Facts[]): FactHints {
  const base = member.like === undefined ? undefined : earlier[member.like];
  if (!base) return member.hints ?? {};
  const hints: FactHints = { ...member.hints, locale: base.locale };
  switch (base.type) {
    case 'invoice':
      return { ...hints, vendor: base.vendor };
    case 'purchase_order':
      return { ...hints, vendor: base.buyer };
    case 'letter':
      return { ...hints, vendor: base.organization };
    case 'receipt':
      return { ...hints, merchant: base.merchant };
    case 'bank_statement': {
      const prev =
        member.after === undefined
          ? undefined
          : (earlier[member.after] as StatementFacts | undefined);
      if (!prev) return { ...hints, bank: base.bank };
      return {
        ...hints,
        bank: prev.bank,
        holder: { name: prev.holder, address: prev.holderAddress },
        account: prev.account,
        start: addDays(prev.end, 1),
        opening: prev.closing,
      };
    }
  }
}

/** How many documents the Python producers make per half. */
export interface ScriptedCounts {
  /** Per type: ReportLab PDFs, python-docx DOCX, openpyxl XLSX (a letter's XLSX is a DOCX). */
  readonly reportlab: number;
  readonly docx: number;
  readonly xlsx: number;
  /** qpdf packets of ReportLab documents, same-type neighbours. */
  readonly packets: number;
  /** ReportLab documents whose first page qpdf turns with `/Rotate 90`. */
  readonly rotated: number;
  /**
   * Per type with later families (templates.ts `LATER_FAMILIES`), ReportLab documents drawn
   * from them, canvas and platypus in turn (ids `…-rlx-…`); none when absent.
   */
  readonly later?: number;
  /** qpdf packets of same-type neighbours drawn from the later families. */
  readonly laterPackets?: number;
}

export interface GenerateOptions {
  readonly seed: number;
  /** Documents per type and half. */
  readonly perType: Readonly<Record<CorpusSet, number>>;
  readonly packets: Readonly<Record<CorpusSet, number>>;
  readonly scans: Readonly<Record<CorpusSet, number>>;
  readonly scripted: Readonly<Record<CorpusSet, ScriptedCounts>>;
}

export const DEFAULT_OPTIONS: GenerateOptions = {
  seed: 2311,
  perType: { development: 16, 'held-out': 10 },
  packets: { development: 16, 'held-out': 11 },
  scans: { development: 6, 'held-out': 4 },
  scripted: {
    development: {
      reportlab: 4,
      docx: 2,
      xlsx: 2,
      packets: 6,
      rotated: 1,
      later: 3,
      laterPackets: 3,
    },
    'held-out': { reportlab: 3, docx: 1, xlsx: 1, packets: 4, rotated: 1 },
  },
};

const PYTHON_PRODUCERS: readonly Producer[] = ['reportlab', 'python-docx', 'openpyxl'];
const EXTENSION: Readonly<Record<PythonProducer, string>> = {
  reportlab: 'pdf',
  'python-docx': 'docx',
  openpyxl: 'xlsx',
};

/**
 * The documents of one half made by ReportLab, python-docx and openpyxl, with their own ids and
 * random stream (`scripted`), so the documents of the other producers do not move: single
 * documents of each type, qpdf packets of same-type neighbours (the themes that are not mixed),
 * and a document with a page turned by `/Rotate 90`.
 */
function scriptedHalf(
  seed: number,
  set: CorpusSet,
  counts: ScriptedCounts,
  root: string,
): { documents: CorpusDocument[]; packets: CorpusPacket[] } {
  const tag = set === 'development' ? 'dev' : 'held';
  const dir = join(root, set);
  const work = join(root, 'work', 'scripted');
  mkdirSync(dir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const r = random(seed).fork(set).fork('scripted');
  const jobs: { job: Job; python: PythonJob; rotate?: number[] }[] = [];
  const pythonFor = (job: Job, look: Look, out: string, drawing?: 'canvas' | 'platypus') =>
    pythonJob(
      job.producer as PythonProducer,
      job.layout,
      job.facts.locale,
      set,
      random(look.ctxSeed).fork('python'),
      out,
      drawing,
    );
  const single = (id: string, type: DocType, producer: PythonProducer, dr: Random, k: number) => {
    const families = familiesOf(type, set);
    const look: Look = {
      family: families[(k + dr.int(0, families.length - 1)) % families.length] as Family,
      producer,
      ctxSeed: dr.int(1, 2 ** 31),
    };
    const out = join(dir, `${id}.${EXTENSION[producer]}`);
    const job = plan(id, set, type, look, factsFor(type, dr.fork('facts')), out);
    return { job, python: pythonFor(job, look, out) };
  };
  for (const type of DOC_TYPES) {
    let k = 0;
    // A letter typed into a spreadsheet is not something people send: its XLSX share is DOCX.
    const letter = type === 'letter';
    for (const [producer, n, short] of [
      ['reportlab', counts.reportlab, 'rl'],
      ['python-docx', counts.docx + (letter ? counts.xlsx : 0), 'docx'],
      ['openpyxl', letter ? 0 : counts.xlsx, 'xlsx'],
    ] as const)
      for (let i = 0; i < n; i++, k++) {
        const id = `${tag}-${short}-${type}-${String(i + 1).padStart(2, '0')}`;
        jobs.push(single(id, type, producer, r.fork(id), k));
      }
  }
  for (let k = 0; k < counts.rotated; k++) {
    const id = `${tag}-rl-rotated-${String(k + 1).padStart(2, '0')}`;
    const dr = r.fork(id);
    jobs.push({ ...single(id, dr.pick(DOC_TYPES), 'reportlab', dr, k), rotate: [1] });
  }
  const sameType = THEMES.filter((t) => {
    const types = new Set(t.members(random(0)).map((m) => m.type));
    return t.name !== 'mixed' && types.size === 1;
  });
  const packetJobs: { id: string; theme: string; members: Job[] }[] = [];
  /** A qpdf packet of `theme`'s members, drawn by ReportLab from `familiesFor` their type. */
  const packet = (
    id: string,
    pr: Random,
    theme: Theme,
    familiesFor: (type: DocType) => Family[],
    drawing?: (n: number) => 'canvas' | 'platypus',
  ) => {
    const members: Job[] = [];
    const facts: Facts[] = [];
    const looks: Look[] = [];
    theme.members(pr).forEach((m, n) => {
      const mr = pr.fork(`m${n}`);
      const f = factsFor(m.type, mr.fork('facts'), memberHints(m, facts));
      const look: Look =
        m.like !== undefined && looks[m.like]
          ? (looks[m.like] as Look)
          : {
              family: mr.pick(familiesFor(m.type)),
              producer: 'reportlab',
              ctxSeed: mr.int(1, 2 ** 31),
            };
      facts.push(f);
      looks.push(look);
      const out = join(work, `${id}-m${n + 1}.pdf`);
      const job = plan(`${id}-m${n + 1}`, set, m.type, look, f, out);
      members.push(job);
      jobs.push({ job, python: pythonFor(job, look, out, drawing?.(n)) });
    });
    packetJobs.push({ id, theme: theme.name, members });
  };
  for (let k = 0; k < counts.packets; k++) {
    const id = `${tag}-rl-packet-${String(k + 1).padStart(2, '0')}`;
    const theme = sameType[(k + (set === 'development' ? 0 : 3)) % sameType.length] as Theme;
    packet(id, r.fork(id), theme, (type) => familiesOf(type, set));
  }
  // The later families (after everything above, with their own random stream, so nothing
  // above moves): single documents, canvas and platypus in turn, and same-type packets.
  const lr = random(seed).fork(set).fork('scripted-later');
  for (const type of DOC_TYPES) {
    const families = laterFamiliesOf(type);
    if (families.length === 0) continue;
    for (let k = 0; k < (counts.later ?? 0); k++) {
      const id = `${tag}-rlx-${type}-${String(k + 1).padStart(2, '0')}`;
      const dr = lr.fork(id);
      const look: Look = {
        family: families[k % families.length] as Family,
        producer: 'reportlab',
        ctxSeed: dr.int(1, 2 ** 31),
      };
      const out = join(dir, `${id}.pdf`);
      const job = plan(id, set, type, look, factsFor(type, dr.fork('facts')), out);
      jobs.push({ job, python: pythonFor(job, look, out, k % 2 === 0 ? 'canvas' : 'platypus') });
    }
  }
  const laterThemes = sameType.filter((t) =>
    t.members(random(0)).every((m) => laterFamiliesOf(m.type).length > 0),
  );
  for (let k = 0; k < (counts.laterPackets ?? 0) && laterThemes.length > 0; k++) {
    const id = `${tag}-rlx-packet-${String(k + 1).padStart(2, '0')}`;
    const theme = laterThemes[(k * 2) % laterThemes.length] as Theme;
    packet(id, lr.fork(id), theme, laterFamiliesOf, (n) => (n % 2 === 0 ? 'canvas' : 'platypus'));
  }
  const file = join(work, `${set}-jobs.json`);
  writeFileSync(file, JSON.stringify(jobs.map((j) => j.python)));
  console.log(
    `${set}: producing ${jobs.length} documents with ReportLab, python-docx and openpyxl`,
  );
  pythonProducers(
    file,
    jobs.map((j) => j.job.pdf),
  );
  const documents: CorpusDocument[] = [];
  for (const { job, rotate } of jobs) {
    if (/-rlx?-packet-/.test(job.id)) continue;
    if (rotate) qpdfRotate(job.pdf, rotate);
    const pdf = job.pdf.endsWith('.pdf');
    documents.push({
      id: job.id,
      set,
      type: job.type,
      family: job.family.name,
      producer: job.producer,
      file: job.pdf.slice(root.length + 1),
      ...(rotate ? { rotatedPages: rotate } : {}),
      ...(pdf ? { pages: pageCount(job.pdf) } : {}),
      truth: printedTruth(job.facts, job.layout),
    });
  }
  const packets = packetJobs.map((p) => {
    const file = join(dir, `${p.id}.pdf`);
    qpdfJoin(
      p.members.map((m) => m.pdf),
      file,
    );
    const docs = packetDocuments(p.members);
    return {
      id: p.id,
      set,
      file: file.slice(root.length + 1),
      joinedWith: 'qpdf' as const,
      pages: pageCount(file),
      theme: p.theme,
      documents: docs,
    };
  });
  return { documents, packets };
}

/**
 * A wave of development-only families added after the corpus above (one module per wave): its
 * documents are drawn from the wave's own random stream and carry its own id tag
 * (`dev-<tag>-…`), so no document made before moves.
 */
export interface Wave {
  readonly tag: string;
  /** The wave's families, each with facts of its own shape when it needs them. */
  readonly families: readonly (Family & { facts?: (f: Facts, r: Random) => Facts })[];
  /** Documents per family. */
  readonly perFamily: number;
  /** Producers the documents go through, in turn. */
  readonly producers: readonly Producer[];
  /** qpdf packets: a theme and its members' types (each drawn from the wave's families). */
  readonly packets: readonly { readonly theme: string; readonly types: readonly DocType[] }[];
}

/** Makes a wave's documents and packets in the development half (`root` is the corpus). */
function waveHalf(
  seed: number,
  wave: Wave,
  root: string,
): { documents: CorpusDocument[]; packets: CorpusPacket[] } {
  const set: CorpusSet = 'development';
  const dir = join(root, set);
  const work = join(root, 'work', `wave-${wave.tag}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const r = random(seed).fork(set).fork(`wave-${wave.tag}`);
  const python: { job: Job; python: PythonJob }[] = [];
  const others: Job[] = [];
  let turn = 0;
  const make = (
    id: string,
    type: DocType,
    family: Wave['families'][number],
    dr: Random,
    pdf: string,
  ) => {
    const producer = fitProducer(wave.producers[turn++ % wave.producers.length] as Producer, type);
    const ctxSeed = dr.int(1, 2 ** 31);
    const drawn = factsFor(type, dr.fork('facts'));
    const facts = family.facts ? family.facts(drawn, dr.fork('shape')) : drawn;
    const job = plan(id, set, type, { family, producer, ctxSeed }, facts, pdf);
    if (producer === 'reportlab')
      python.push({
        job,
        python: pythonJob(
          'reportlab',
          job.layout,
          facts.locale,
          set,
          random(ctxSeed).fork('python'),
          pdf,
        ),
      });
    else others.push(job);
    return job;
  };
  const singles: Job[] = [];
  const count = new Map<DocType, number>();
  for (const family of wave.families)
    for (let k = 0; k < wave.perFamily; k++) {
      const n = (count.get(family.type) ?? 0) + 1;
      count.set(family.type, n);
      const id = `dev-${wave.tag}-${family.type}-${String(n).padStart(2, '0')}`;
      singles.push(make(id, family.type, family, r.fork(id), join(dir, `${id}.pdf`)));
    }
  const packetJobs = wave.packets.map((p, k) => {
    const id = `dev-${wave.tag}-packet-${String(k + 1).padStart(2, '0')}`;
    const pr = r.fork(id);
    const members = p.types.map((type, n) => {
      const mr = pr.fork(`m${n}`);
      const family = mr.pick(wave.families.filter((f) => f.type === type));
      return make(`${id}-m${n + 1}`, type, family, mr, join(work, `${id}-m${n + 1}.pdf`));
    });
    return { id, theme: p.theme, members };
  });
  console.log(
    `${set}: producing wave ${wave.tag}, ${singles.length} documents, ${packetJobs.length} packets`,
  );
  produce(others, work);
  checkCalcTexts(others);
  if (python.length > 0) {
    const file = join(work, 'jobs.json');
    writeFileSync(file, JSON.stringify(python.map((j) => j.python)));
    pythonProducers(
      file,
      python.map((j) => j.job.pdf),
    );
  }
  const documents = singles.map((job) => documentOf(job, root));
  const packets = packetJobs.map((p): CorpusPacket => {
    const file = join(dir, `${p.id}.pdf`);
    qpdfJoin(
      p.members.map((m) => m.pdf),
      file,
    );
    return {
      id: p.id,
      set,
      file: file.slice(root.length + 1),
      joinedWith: 'qpdf',
      pages: pageCount(file),
      theme: p.theme,
      documents: packetDocuments(p.members),
    };
  });
  return { documents, packets };
}

/**
 * A report of about 60 pages by ReportLab (numbered headings, justified paragraphs, a ruled table
 * every third section, a running title and page numbers), as the issue's own trial had: for text
 * recall and PARSE speed on a long document from another producer. Its text is drawn from the
 * letter sentences and products; it is in neither half and has no type.
 */
function longReport(seed: number, root: string): CorpusReport {
  const r = random(seed).fork('report');
  const file = join(root, 'report-reportlab.pdf');
  const sections = Array.from({ length: 105 }, (_, k) => ({
    heading: `${k + 1}. ${r.pick(LETTER_SUBJECTS)}`,
    paragraphs: Array.from({ length: r.int(3, 5) }, () =>
      Array.from({ length: r.int(4, 8) }, () => r.pick(LETTER_SENTENCES)).join(' '),
    ),
    ...(k % 3 === 2
      ? {
          table: {
            header: ['Item', 'Region', 'Units', 'Revenue'],
            rows: Array.from({ length: r.int(6, 14) }, () => [
              r.pick(PRODUCTS),
              r.pick(CITIES),
              String(r.int(1, 900)),
              (r.int(1000, 9_000_000) / 100).toFixed(2),
            ]),
          },
        }
      : {}),
  }));
  const job = {
    producer: 'report',
    out: file,
    title: 'Annual operations review',
    page: { width: 595.28, height: 841.89, margin: 56 },
    look: { font: r.pick(['Times-Roman', 'DejaVuSerif', 'Helvetica']), size: 10 },
    sections,
  };
  const jobs = join(root, 'work', 'report-job.json');
  mkdirSync(dirname(jobs), { recursive: true });
  writeFileSync(jobs, JSON.stringify([job]));
  pythonProducers(jobs, [file]);
  return { file: file.slice(root.length + 1), producer: 'reportlab', pages: pageCount(file) };
}

/**
 * Replaces the ReportLab, python-docx and openpyxl documents of an existing corpus (the others,
 * their files and manifest entries stay as they are); returns the new manifest.
 */
export function regenerateScripted(options: GenerateOptions = DEFAULT_OPTIONS): CorpusManifest {
  ensurePackages();
  const root = corpusDir(options.seed);
  const file = join(root, 'manifest.json');
  const old = JSON.parse(readFileSync(file, 'utf8')) as CorpusManifest;
  // A later wave's ReportLab documents are the wave's (regenerateWave), not this part's.
  const inWave = (id: string) => WAVES.some((w) => id.startsWith(`dev-${w.tag}-`));
  const scripted = (d: { id: string; producer: Producer }) =>
    PYTHON_PRODUCERS.includes(d.producer) && !inWave(d.id);
  const documents = old.documents.filter((d) => !scripted(d));
  const packets = old.packets.filter((p) => inWave(p.id) || !p.documents.every((d) => scripted(d)));
  for (const gone of [
    ...old.documents.filter((d) => scripted(d)),
    ...old.packets.filter((p) => !packets.includes(p)),
  ])
    rmSync(join(root, gone.file), { force: true });
  rmSync(join(root, 'work', 'scripted'), { recursive: true, force: true });
  for (const set of ['development', 'held-out'] as const) {
    const half = scriptedHalf(options.seed, set, options.scripted[set], root);
    documents.push(...half.documents);
    packets.push(...half.packets);
  }
  const manifest: CorpusManifest = {
    ...old,
    generatedAt: new Date().toISOString(),
    tools: toolVersions(),
    documents,
    packets,
    reports: [longReport(options.seed, root)],
  };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * A wave of development families added after everything else: its own ids (`dev-<tag>-…`) and
 * random stream, so that no document made before moves; its documents go through LibreOffice
 * Writer and Calc, Chromium, Ghostscript and ReportLab in turn.
 */
interface TypeWave {
  readonly tag: string;
  readonly familiesOf: (type: DocType) => Family[];
  /** Documents per type that has families in the wave. */
  readonly perType: number;
}

const W3F: TypeWave = { tag: 'w3f', familiesOf: wave3FieldFamiliesOf, perType: 7 };

const WAVE_PRODUCERS: readonly Producer[] = [
  'writer-odt',
  'calc',
  'chromium',
  'ghostscript',
  'reportlab',
  'writer-html',
  'ghostscript-redistill',
];

function waveDocuments(seed: number, root: string, wave: TypeWave): CorpusDocument[] {
  const set: CorpusSet = 'development';
  const dir = join(root, set);
  const work = join(root, 'work', `wave-${wave.tag}`);
  mkdirSync(dir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const r = random(seed).fork(set).fork(`wave-${wave.tag}`);
  const entries: WaveJob[] = [];
  DOC_TYPES.forEach((type, t) => {
    const families = wave.familiesOf(type);
    for (let k = 0; k < (families.length > 0 ? wave.perType : 0); k++) {
      const id = `dev-${wave.tag}-${type}-${String(k + 1).padStart(2, '0')}`;
      const dr = r.fork(id);
      const look: Look = {
        family: families[k % families.length] as Family,
        producer: WAVE_PRODUCERS[(k + t) % WAVE_PRODUCERS.length] as Producer,
        ctxSeed: dr.int(1, 2 ** 31),
      };
      const job = plan(
        id,
        set,
        type,
        look,
        factsFor(type, dr.fork('facts')),
        join(dir, `${id}.pdf`),
      );
      entries.push({ job, ctxSeed: look.ctxSeed, drawing: k % 2 === 0 ? 'canvas' : 'platypus' });
    }
  });
  console.log(`${set}: producing ${entries.length} documents of wave ${wave.tag}`);
  return produceWave(entries, work, root);
}

/** A document of a later wave: its job, the seed of its look, and ReportLab's drawing mode. */
export interface WaveJob {
  readonly job: Job;
  readonly ctxSeed: number;
  /** How ReportLab draws it, when ReportLab is its producer. */
  readonly drawing: 'canvas' | 'platypus';
}

/**
 * Makes the documents of a later wave (LibreOffice, Chromium and Ghostscript through
 * {@link produce}, ReportLab through the Python producers) and returns their manifest entries.
 */
export function produceWave(
  entries: readonly WaveJob[],
  work: string,
  root: string,
): CorpusDocument[] {
  const jobs = entries.map((e) => e.job);
  const python = entries
    .filter((e) => e.job.producer === 'reportlab')
    .map((e) =>
      pythonJob(
        'reportlab',
        e.job.layout,
        e.job.facts.locale,
        e.job.set,
        random(e.ctxSeed).fork('python'),
        e.job.pdf,
        e.drawing,
      ),
    );
  const others = jobs.filter((j) => j.producer !== 'reportlab');
  produce(others, work);
  checkCalcTexts(others);
  if (python.length > 0) {
    const file = join(work, 'python-jobs.json');
    writeFileSync(file, JSON.stringify(python));
    pythonProducers(
      file,
      python.map((p) => p.out),
    );
  }
  return jobs.map((j) => documentOf(j, root));
}

/** A later wave: its tag (ids `dev-<tag>-…`) and what makes its documents and packets. */
interface WaveSource {
  readonly tag: string;
  readonly make: (
    seed: number,
    root: string,
  ) => { documents: CorpusDocument[]; packets: CorpusPacket[] };
}

/**
 * The later waves, in the order they were added. Each draws from its own random stream, so a wave
 * added or made again moves no document of another.
 */
const WAVES: readonly WaveSource[] = [
  {
    tag: W3F.tag,
    make: (seed, root) => ({ documents: waveDocuments(seed, root, W3F), packets: [] }),
  },
  {
    tag: 'w3i',
    make: (seed, root) => ({ documents: wave3ItemDocuments(seed, root), packets: [] }),
  },
  { tag: WAVE3_CLASS.tag, make: (seed, root) => waveHalf(seed, WAVE3_CLASS, root) },
  { tag: WAVE3_AMBIGUOUS.tag, make: (seed, root) => waveHalf(seed, WAVE3_AMBIGUOUS, root) },
];

/**
 * Makes the documents and packets of the wave `tag` again in an existing corpus, replacing that
 * wave's manifest entries (every other entry and file stays as it is); returns the new manifest.
 */
export function regenerateWave(
  tag: string,
  options: GenerateOptions = DEFAULT_OPTIONS,
): CorpusManifest {
  const wave = WAVES.find((w) => w.tag === tag);
  if (!wave) throw new Error(`no wave ${tag}: the waves are ${WAVES.map((w) => w.tag).join(', ')}`);
  ensurePackages();
  const root = corpusDir(options.seed);
  const file = join(root, 'manifest.json');
  const old = JSON.parse(readFileSync(file, 'utf8')) as CorpusManifest;
  const mine = (entry: { id: string }) => entry.id.startsWith(`dev-${tag}-`);
  for (const gone of [...old.documents.filter(mine), ...old.packets.filter(mine)])
    rmSync(join(root, gone.file), { force: true });
  rmSync(join(root, 'work', `wave-${tag}`), { recursive: true, force: true });
  const made = wave.make(options.seed, root);
  const manifest: CorpusManifest = {
    ...old,
    documents: [...old.documents.filter((d) => !mine(d)), ...made.documents],
    packets: [...old.packets.filter((p) => !mine(p)), ...made.packets],
  };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Generates the corpus and returns its manifest (also written as `manifest.json`). */
export function generateCorpus(options: GenerateOptions = DEFAULT_OPTIONS): CorpusManifest {
  ensurePackages();
  const root = corpusDir(options.seed);
  rmSync(root, { recursive: true, force: true });
  const work = join(root, 'work');
  const master = random(options.seed);
  const documents: CorpusDocument[] = [];
  const packets: CorpusPacket[] = [];
  for (const set of ['development', 'held-out'] as const) {
    const tag = set === 'development' ? 'dev' : 'held';
    const dir = join(root, set);
    mkdirSync(dir, { recursive: true });
    const r = master.fork(set);
    const singles: Job[] = [];
    for (const type of DOC_TYPES) {
      const families = familiesOf(type, set);
      const producers = producerCycle(r.fork(type), set);
      for (let k = 0; k < options.perType[set]; k++) {
        const id = `${tag}-${type}-${String(k + 1).padStart(2, '0')}`;
        const dr = r.fork(id);
        const look: Look = {
          family: families[k % families.length] as Family,
          producer: producers[k % producers.length] as Producer,
          ctxSeed: dr.int(1, 2 ** 31),
        };
        singles.push(
          plan(id, set, type, look, factsFor(type, dr.fork('facts')), join(dir, `${id}.pdf`)),
        );
      }
    }
    // Scans: extra documents printed by the set's producers, then scanned.
    const scanJobs: Job[] = [];
    const scanTypes: DocType[] = [
      'invoice',
      'receipt',
      'bank_statement',
      'purchase_order',
      'letter',
    ];
    for (let k = 0; k < options.scans[set]; k++) {
      const id = `${tag}-scan-${String(k + 1).padStart(2, '0')}`;
      const type = scanTypes[k % scanTypes.length] as DocType;
      const dr = r.fork(id);
      const families = familiesOf(type, set);
      const look: Look = {
        family: dr.pick(families),
        producer: fitProducer(dr.pick(MIX[set].map(([p]) => p)), type),
        ctxSeed: dr.int(1, 2 ** 31),
      };
      scanJobs.push(
        plan(
          id,
          set,
          type,
          look,
          factsFor(type, dr.fork('facts'), { items: dr.int(3, 12) }),
          join(work, `${id}.printed.pdf`),
        ),
      );
    }
    // Packets.
    const packetJobs: {
      id: string;
      theme: string;
      members: Job[];
      joinedWith: 'qpdf' | 'ghostscript';
    }[] = [];
    for (let k = 0; k < options.packets[set]; k++) {
      const id = `${tag}-packet-${String(k + 1).padStart(2, '0')}`;
      const pr = r.fork(id);
      const theme = THEMES[k % THEMES.length] as Theme;
      const members: Job[] = [];
      const facts: Facts[] = [];
      const looks: Look[] = [];
      theme.members(pr).forEach((m, n) => {
        const mr = pr.fork(`m${n}`);
        const hints = memberHints(m, facts);
        const f = factsFor(m.type, mr.fork('facts'), hints);
        const look: Look =
          m.like !== undefined && looks[m.like]
            ? (looks[m.like] as Look)
            : {
                family: mr.pick(familiesOf(m.type, set)),
                producer: fitProducer(mr.pick(MIX[set].map(([p]) => p)), m.type),
                ctxSeed: mr.int(1, 2 ** 31),
              };
        facts.push(f);
        looks.push(look);
        members.push(
          plan(`${id}-m${n + 1}`, set, m.type, look, f, join(work, `${id}-m${n + 1}.pdf`)),
        );
      });
      packetJobs.push({
        id,
        theme: theme.name,
        members,
        joinedWith: pr.chance(set === 'development' ? 0.4 : 0.6) ? 'ghostscript' : 'qpdf',
      });
    }
    mkdirSync(work, { recursive: true });
    console.log(
      `${set}: producing ${singles.length} documents, ${scanJobs.length} scans, ${packetJobs.length} packets`,
    );
    const jobs = [...singles, ...scanJobs, ...packetJobs.flatMap((p) => p.members)];
    produce(jobs, work);
    checkCalcTexts(jobs);
    for (const job of singles) documents.push(documentOf(job, root));
    for (const job of scanJobs) {
      const pdf = join(dir, `${job.id}.pdf`);
      scanPdf(job.pdf, pdf, join(work, `${job.id}-pages`), r.fork(`${job.id}-scan`));
      documents.push({
        ...documentOf({ ...job, pdf }, root),
        producer: 'scan',
        scannedFrom: job.producer,
      });
    }
    for (const p of packetJobs) {
      const file = join(dir, `${p.id}.pdf`);
      const inputs = p.members.map((m) => m.pdf);
      if (p.joinedWith === 'qpdf') qpdfJoin(inputs, file);
      else ghostscript(inputs, file);
      const docs = packetDocuments(p.members);
      packets.push({
        id: p.id,
        set,
        file: file.slice(root.length + 1),
        joinedWith: p.joinedWith,
        pages: pageCount(file),
        theme: p.theme,
        documents: docs,
      });
    }
  }
  for (const set of ['development', 'held-out'] as const) {
    const half = scriptedHalf(options.seed, set, options.scripted[set], root);
    documents.push(...half.documents);
    packets.push(...half.packets);
  }
  for (const wave of WAVES) {
    const made = wave.make(options.seed, root);
    documents.push(...made.documents);
    packets.push(...made.packets);
  }
  const manifest: CorpusManifest = {
    seed: options.seed,
    generatedAt: new Date().toISOString(),
    tools: toolVersions(),
    documents,
    packets,
    reports: [longReport(options.seed, root)],
  };
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      small: { type: 'boolean' },
      'scripted-only': { type: 'boolean' },
      wave: { type: 'string' },
    },
  });
  const seed = values.seed === undefined ? DEFAULT_OPTIONS.seed : Number(values.seed);
  const options: GenerateOptions = values.small
    ? {
        seed,
        perType: { development: 3, 'held-out': 2 },
        packets: { development: 4, 'held-out': 3 },
        scans: { development: 1, 'held-out': 1 },
        scripted: {
          development: { reportlab: 1, docx: 1, xlsx: 1, packets: 2, rotated: 1 },
          'held-out': { reportlab: 1, docx: 1, xlsx: 1, packets: 1, rotated: 1 },
        },
      }
    : { ...DEFAULT_OPTIONS, seed };
  const started = Date.now();
  // --scripted-only: the Python producers' documents again, in the corpus that exists.
  // --wave <tag>: that wave's documents again, in the corpus that exists.
  const manifest = values.wave
    ? regenerateWave(values.wave, options)
    : values['scripted-only']
      ? regenerateScripted(options)
      : generateCorpus(options);
  console.log(
    `corpus ${corpusDir(seed)}: ${manifest.documents.length} documents, ${manifest.packets.length} packets in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}
