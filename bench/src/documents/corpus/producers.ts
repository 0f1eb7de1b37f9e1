/**
 * The outside software that turns generated sources into PDFs (and DOCX/XLSX): LibreOffice,
 * Chromium, Ghostscript, poppler and qpdf, installed with apt-get when missing. Only the corpus
 * generator and the evaluation call these; CI never does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command each Debian package provides. */
const PACKAGES: readonly (readonly [string, string])[] = [
  ['soffice', 'libreoffice-writer'],
  ['soffice', 'libreoffice-calc'],
  ['chromium', 'chromium'],
  ['gs', 'ghostscript'],
  ['pdftoppm', 'poppler-utils'],
  ['qpdf', 'qpdf'],
  ['/usr/bin/python3', 'python3-reportlab'],
  ['/usr/bin/python3', 'python3-docx'],
  ['/usr/bin/python3', 'python3-openpyxl'],
  ['fc-list', 'fonts-dejavu-core'],
];

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function installed(pkg: string): boolean {
  const status = spawnSync('dpkg-query', ['-s', pkg], { encoding: 'utf8' }).stdout ?? '';
  return /^Status: install ok installed/m.test(status);
}

/** Installs the Debian packages the corpus needs (and `extra` ones) that are missing. */
export function ensurePackages(extra: readonly string[] = []): void {
  const missing = [
    ...PACKAGES.filter(([command, pkg]) => !has(command) || !installed(pkg)).map(([, pkg]) => pkg),
    ...extra.filter((pkg) => !installed(pkg)),
  ];
  const unique = [...new Set(missing)];
  if (unique.length === 0) return;
  console.log(`installing ${unique.join(' ')} with apt-get`);
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...unique], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Versions of the producers, for the manifest. */
export function toolVersions(): Record<string, string> {
  const first = (cmd: string, args: string[]) =>
    (spawnSync(cmd, args, { encoding: 'utf8' }).stdout ?? '').split('\n')[0]?.trim() ?? '';
  return {
    libreoffice: first('soffice', ['--version']),
    chromium: first('chromium', ['--version']),
    ghostscript: first('gs', ['--version']),
    qpdf: first('qpdf', ['--version']),
    python: first('/usr/bin/python3', [
      '-c',
      'import reportlab, docx, openpyxl; print("reportlab", reportlab.Version, "openpyxl", openpyxl.__version__)',
    ]),
    poppler:
      (spawnSync('pdftoppm', ['-v'], { encoding: 'utf8' }).stderr ?? '').split('\n')[0] ?? '',
  };
}

function run(cmd: string, args: readonly string[], what: string): void {
  const result = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(
      `${what} failed (${cmd} exit ${result.status}): ${result.stderr?.slice(-2000)}`,
    );
}

/**
 * LibreOffice converts `files` (all of one kind) to `format` (`pdf`, `docx`, `xlsx`, or a
 * `pdf:filter` pair) into `outDir`, in one process, in batches.
 */
export function soffice(files: readonly string[], format: string, outDir: string): void {
  if (files.length === 0) return;
  mkdirSync(outDir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'docflow-lo-'));
  try {
    for (let i = 0; i < files.length; i += 40) {
      run(
        'soffice',
        [
          '--headless',
          '--norestore',
          `-env:UserInstallation=file://${profile}`,
          '--convert-to',
          format,
          '--outdir',
          outDir,
          ...files.slice(i, i + 40),
        ],
        `LibreOffice --convert-to ${format}`,
      );
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  for (const f of files) {
    const out = join(outDir, basename(f).replace(/\.[^.]+$/, `.${format.split(':')[0]}`));
    if (!existsSync(out)) throw new Error(`LibreOffice did not write ${out}`);
  }
}

/** Chromium prints `html` to `pdf`. */
export function chromium(html: string, pdf: string): void {
  const profile = mkdtempSync(join(tmpdir(), 'docflow-chromium-'));
  try {
    run(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--no-pdf-header-footer',
        `--print-to-pdf=${pdf}`,
        `file://${html}`,
      ],
      'Chromium print-to-pdf',
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  if (!existsSync(pdf)) throw new Error(`Chromium did not write ${pdf}`);
}

const GS = ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite'];

/** Ghostscript distils PostScript or re-distils PDFs (several inputs are joined in order). */
export function ghostscript(
  inputs: readonly string[],
  pdf: string,
  extra: readonly string[] = [],
): void {
  run('gs', [...GS, ...extra, '-o', pdf, ...inputs], 'Ghostscript pdfwrite');
}

/** qpdf joins PDFs in order. */
export function qpdfJoin(inputs: readonly string[], pdf: string): void {
  run('qpdf', ['--empty', '--pages', ...inputs, '--', pdf], 'qpdf --pages');
}

/** qpdf turns `pages` (1-based) of `pdf` by 90° clockwise with `/Rotate`, in place. */
export function qpdfRotate(pdf: string, pages: readonly number[]): void {
  run('qpdf', ['--replace-input', `--rotate=+90:${pages.join(',')}`, pdf], 'qpdf --rotate');
}

/**
 * Debian's python3 runs `python-producers.py` on a JSON file of jobs (ReportLab, python-docx and
 * openpyxl documents); each job's output exists afterwards.
 */
export function pythonProducers(jobsFile: string, outputs: readonly string[]): void {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'python-producers.py');
  run('/usr/bin/python3', [script, jobsFile], 'python3 python-producers.py');
  for (const out of outputs) if (!existsSync(out)) throw new Error(`python3 did not write ${out}`);
}

export function pageCount(pdf: string): number {
  const out = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const m = /^Pages:\s+(\d+)/m.exec(out);
  if (!m) throw new Error(`pdfinfo gave no page count for ${pdf}`);
  return Number(m[1]);
}

/** pdftoppm renders every page of `pdf` as an 8-bit grey PGM at `dpi`; returns the files. */
export function rasterize(pdf: string, dpi: number, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const prefix = join(dir, 'page');
  run('pdftoppm', ['-r', String(dpi), '-gray', pdf, prefix], 'pdftoppm');
  return readdirSync(dir)
    .filter((f) => f.startsWith('page') && f.endsWith('.pgm'))
    .sort()
    .map((f) => join(dir, f));
}

export function move(from: string, to: string): void {
  renameSync(from, to);
}
