/**
 * PARSE speed on PDFs other software made (issue 23): docflow's full PARSE (positioned blocks,
 * tables, markdown; the default config) against pdf-parse's text-only extraction, file by file,
 * in interleaved rounds (pdf-parse, docflow, pdf-parse, …) so that both see the same machine
 * load. pdf-parse runs in a worker thread of this script (its pdf.js differs from docflow's);
 * docflow in this thread, with the worker threads it starts itself for long documents. A ratio
 * above 1 means docflow was faster. Also prints each file's word recall against pdftotext, for
 * docflow and for pdf-parse.
 *
 * Files: the PDF manuals Debian packages ship (glpk-doc, asymptote-doc, r-doc-pdf; whatever of
 * them is installed), a 60-page report LibreOffice writes from HTML (when soffice is installed),
 * and any PDF paths given as arguments.
 * What users run is the compiled package: the script builds `@docflow/steps` and runs itself
 * again with the `docflow-compiled` condition (`--sources` measures the TypeScript sources under
 * tsx instead, whose worker threads compile every module again when they start).
 * `--workers auto|always|never` is parseDocument's `pdfWorkers` (default `auto`: further reader
 * processes for documents of 60 pages or more only while the load average leaves a core idle).
 * docflow reads every PDF in a pooled reader process with a bounded heap (issue 21); its CPU
 * time counts this process and its children (Linux: /proc). `--in-thread` adds a third subject to
 * the same rounds: docflow with `limits.workerHeapMb: 0`, pdf.js in this thread as before the
 * reader processes, and the ratio of the two.
 * Run: cd bench && npx tsx src/parse/third-party-pdfs.ts [--rounds 5] [--workers auto] [--only name] [files…]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { parseDocument } from '@docflow/steps';
import { wordRecall } from '../documents/scoring/score.ts';
import { childrenCpuMs, machineLine } from '../harness.ts';

const { values, positionals } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    only: { type: 'string' },
    sources: { type: 'boolean', default: false },
    workers: { type: 'string', default: 'auto' },
    'in-thread': { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
  allowPositionals: true,
});

if (!values.sources && process.env.DOCFLOW_BENCH_COMPILED !== '1') {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-b', join(root, 'packages', 'steps')], {
    stdio: 'inherit',
  });
  const child = spawnSync(
    process.execPath,
    [
      '--conditions=docflow-compiled',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', env: { ...process.env, DOCFLOW_BENCH_COMPILED: '1' } },
  );
  process.exit(child.status ?? 1);
}
const ROUNDS = Number(values.rounds);
const WORKERS = values.workers as 'auto' | 'always' | 'never';

/**
 * Every PDF the three packages ship (the copies under `/usr/share/doc/r-doc-pdf` and
 * `/usr/share/texmf` are the same files; fullrefman.pdf is refman.pdf), and two more manuals.
 */
const MANUALS = [
  '/usr/share/doc/glpk-doc/glpk.pdf',
  '/usr/share/doc/glpk-doc/gmpl.pdf',
  '/usr/share/doc/glpk-doc/gmpl_es.pdf',
  '/usr/share/doc/glpk-doc/gmpl_pt-BR.pdf',
  '/usr/share/doc/glpk-doc/graphs.pdf',
  '/usr/share/doc/glpk-doc/cnfsat.pdf',
  '/usr/share/doc/asymptote/asymptote.pdf',
  '/usr/share/doc/asymptote/asyRefCard.pdf',
  '/usr/share/doc/asymptote/asy-latex.pdf',
  '/usr/share/doc/asymptote/CAD.pdf',
  '/usr/share/doc/asymptote/TeXShopAndAsymptote.pdf',
  '/usr/share/doc/asymptote/examples/pixel.pdf',
  '/usr/share/R/doc/manual/R-intro.pdf',
  '/usr/share/R/doc/manual/R-data.pdf',
  '/usr/share/R/doc/manual/R-admin.pdf',
  '/usr/share/R/doc/manual/R-exts.pdf',
  '/usr/share/R/doc/manual/R-lang.pdf',
  '/usr/share/R/doc/manual/R-FAQ.pdf',
  '/usr/share/R/doc/manual/R-ints.pdf',
  '/usr/share/R/doc/manual/refman.pdf',
  '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf',
  '/usr/share/doc/libtasn1-doc/libtasn1.pdf',
];

/** A 60-page report (headings, paragraphs, a ruled table per section) written by LibreOffice. */
function libreOfficeReport(): string | undefined {
  const dir = join(import.meta.dirname, '..', '..', 'generated', 'parse');
  const pdf = join(dir, 'libreoffice-report.pdf');
  if (existsSync(pdf)) return pdf;
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  mkdirSync(dir, { recursive: true });
  const sentence = (n: number) =>
    `Revenue in region ${n} grew while the margin on delivery contracts held, and the audit of supplier invoices for quarter ${(n % 4) + 1} found no exceptions worth a separate note.`;
  const sections: string[] = [];
  for (let s = 1; s <= 60; s++) {
    const rows = Array.from({ length: 12 }, (_, r) => {
      const qty = ((s * 13 + r * 7) % 90) + 1;
      const price = ((s * 31 + r * 17) % 900) / 10 + 1;
      return `<tr><td>SKU-${s}-${r + 1}</td><td>${['North', 'South', 'East', 'West'][(s + r) % 4]}</td><td>${qty}</td><td>${price.toFixed(2)}</td><td>${(qty * price).toFixed(2)}</td></tr>`;
    }).join('');
    sections.push(
      `<h1>Section ${s}: quarterly review</h1>${[0, 1, 2, 3].map((p) => `<p>${sentence(s + p)} ${sentence(s * 3 + p)} ${sentence(s * 7 + p)}</p>`).join('')}<table border="1" cellspacing="0"><tr><th>Item</th><th>Region</th><th>Qty</th><th>Price</th><th>Total</th></tr>${rows}</table><p style="page-break-after: always">End of section ${s}.</p>`,
    );
  }
  const html = join(dir, 'libreoffice-report.html');
  writeFileSync(html, `<!doctype html><html><body>${sections.join('')}</body></html>`);
  execFileSync(
    'soffice',
    ['--headless', '--convert-to', 'pdf:writer_pdf_Export', '--outdir', dir, html],
    {
      stdio: 'ignore',
      timeout: 180_000,
    },
  );
  return existsSync(pdf) ? pdf : undefined;
}

function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function recall(reference: string, candidate: string): number {
  const { found, total } = wordRecall(reference, candidate);
  return total === 0 ? 1 : found / total;
}

interface PeerReply {
  ms: number;
  pages: number;
  chars: number;
  text?: string;
}
const peer = new Worker(new URL('./pdf-parse-worker.mjs', import.meta.url));
let pending: { resolve: (reply: PeerReply) => void; reject: (error: unknown) => void } | undefined;
peer.on('message', (reply: PeerReply) => pending?.resolve(reply));
peer.on('error', (error) => pending?.reject(error));
/** pdf-parse's text of the first `pages` pages (all of them when absent). */
function peerParse(bytes: Uint8Array, pages?: number, withText = false): Promise<PeerReply> {
  return new Promise((resolve, reject) => {
    pending = { resolve, reject };
    peer.postMessage({ bytes, first: pages, withText });
  });
}

/**
 * CPU milliseconds of the whole process (every thread) and of its children while `fn` runs, the
 * other subject idle.
 */
async function cpu<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const k0 = childrenCpuMs();
  const value = await fn();
  const used = process.cpuUsage(c0);
  return { value, cpuMs: (used.user + used.system) / 1000 + childrenCpuMs() - k0 };
}

/** The baseline's `parseDocument` (`--baseline`): its compiled `index.js`. */
async function baselineParse(dir: string): Promise<typeof parseDocument> {
  const own = join(resolve(dir), 'index.js');
  const entry = existsSync(own) ? own : join(resolve(dir), 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as { parseDocument: typeof parseDocument })
    .parseDocument;
}
const baseline = values.baseline ? await baselineParse(values.baseline) : undefined;

async function docflow(bytes: Uint8Array, name: string, inThread = false, parse = parseDocument) {
  const t0 = performance.now();
  const result = await parse(bytes, {
    fileName: name,
    pdfWorkers: WORKERS,
    ...(inThread ? { limits: { workerHeapMb: 0 } } : {}),
  });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error(`${name}: ${result.failureMessage}`);
  return { ms, pages: result.usage.pages, output: result.output };
}

const files = [
  ...(positionals.length > 0 ? positionals : MANUALS.filter((f) => existsSync(f))),
  ...(positionals.length > 0 ? [] : [libreOfficeReport()].filter((f) => f !== undefined)),
].filter((f) => !values.only || basename(f).includes(values.only));

console.log(
  `${machineLine()}\n${baseline ? `baseline: ${values.baseline}\n` : ''}${values.sources ? 'TypeScript sources under tsx' : 'compiled @docflow/steps (dist/)'}; pdfWorkers: '${WORKERS}'; ${ROUNDS} interleaved rounds per file after one warm-up round`,
);
const rows: string[] = [];
const loads: number[] = [];
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const name = basename(file);
  // Warm-up: both subjects once (JIT, fonts, worker threads), and the texts for recall. Both
  // read the pages docflow's default page range holds (the first 750).
  const first = await docflow(bytes, name);
  const pages = first.pages;
  const firstPeer = await peerParse(bytes, pages, true);
  const reference = execFileSync('pdftotext', ['-l', String(pages), file, '-'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ours = first.output.chunks.map((c) => c.content).join('\n');
  const peerMs: number[] = [];
  const oursMs: number[] = [];
  const peerCpu: number[] = [];
  const oursCpu: number[] = [];
  const roundRatios: number[] = [];
  const threadMs: number[] = [];
  const baseMs: number[] = [];
  const baseCpu: number[] = [];
  const baseRatios: number[] = [];
  if (values['in-thread']) await docflow(bytes, name, true);
  if (baseline) await docflow(bytes, name, false, baseline);
  let previousPeer = (await peerParse(bytes, pages)).ms;
  for (let round = 0; round < ROUNDS; round++) {
    if (values['in-thread']) threadMs.push((await docflow(bytes, name, true)).ms);
    if (baseline) {
      const b = await cpu(() => docflow(bytes, name, false, baseline));
      baseMs.push(b.value.ms);
      baseCpu.push(b.cpuMs);
    }
    const d = await cpu(() => docflow(bytes, name));
    const q = await cpu(() => peerParse(bytes, pages));
    const p = q.value.ms;
    oursMs.push(d.value.ms);
    peerMs.push(p);
    oursCpu.push(d.cpuMs);
    peerCpu.push(q.cpuMs);
    // Each docflow run against the mean of the pdf-parse runs around it.
    roundRatios.push((previousPeer + p) / 2 / d.value.ms);
    if (baseline) baseRatios.push((baseCpu[round] ?? Number.NaN) / d.cpuMs);
    previousPeer = p;
    loads.push(loadavg()[0] ?? Number.NaN);
  }
  const ratio = median(peerMs) / median(oursMs);
  const cpuRatio = median(peerCpu) / median(oursCpu);
  const row = `| ${name} | ${first.pages} | ${median(oursMs).toFixed(0)} | ${median(peerMs).toFixed(0)} | **${ratio.toFixed(2)}** | ${roundRatios.map((r) => r.toFixed(2)).join(', ')} | ${median(oursCpu).toFixed(0)} | ${median(peerCpu).toFixed(0)} | ${cpuRatio.toFixed(2)} | ${recall(reference, ours).toFixed(4)} | ${recall(reference, firstPeer.text ?? '').toFixed(4)} |${values['in-thread'] ? ` ${median(threadMs).toFixed(0)} | ${(median(threadMs) / median(oursMs)).toFixed(2)} |` : ''}${baseline ? ` ${median(baseMs).toFixed(0)} | ${median(baseCpu).toFixed(0)} | ${(median(baseMs) / median(oursMs)).toFixed(2)} | **${(median(baseCpu) / median(oursCpu)).toFixed(2)}** | ${baseRatios.map((r) => r.toFixed(2)).join(', ')} |` : ''}`;
  console.log(row);
  rows.push(row);
}
await peer.terminate();
console.log(`
| file | pages | docflow full PARSE ms (median) | pdf-parse text ms (median) | ratio pdf-parse ms / docflow ms | per-round ratios | docflow CPU ms (all threads and readers) | pdf-parse CPU ms | CPU ratio | word recall vs pdftotext, docflow | pdf-parse |${values['in-thread'] ? ' docflow in-thread ms (median) | ratio in-thread ms / reader ms |' : ''}${baseline ? ' baseline ms (median) | baseline CPU ms | ratio baseline ms / this ms | ratio baseline CPU / this CPU | per-round CPU ratios |' : ''}
|---|---|---|---|---|---|---|---|---|---|---|${values['in-thread'] ? '---|---|' : ''}${baseline ? '---|---|---|---|---|' : ''}
${rows.join('\n')}

load average (1 min) during the rounds: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`);
process.exit(0);
