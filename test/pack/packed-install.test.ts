/**
 * The packages as a user gets them: `pnpm pack` of each (its `prepack` builds dist/), `npm install`
 * of the tarballs into an empty project outside the workspace (no tsx, no TypeScript, no
 * workspace links), then the README's quick start with plain `node`.
 *
 * What it downloads: npm installs the packages' third-party dependencies from the npm cache, and
 * from the registry what the cache lacks (on a clean machine about 350 packages, 60 MB of
 * tarballs, and 30 more with the CLI's OCR parts). Install scripts are skipped: the one that
 * matters, better-sqlite3's compile, is replaced by a copy of the workspace's build of the same
 * version (same Node, same machine), which saves a minute.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePacket } from '../../examples/invoice-intake/src/make-packet.ts';
import { makeReportPdf } from '../../packages/steps/test/fixtures/parse/make-pdf.ts';
import { makeScannedPdf, makeScanPng } from '../../packages/steps/test/fixtures/parse/make-scan.ts';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const pnpm = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string }
).packageManager;

/** The library packages, installed first; the CLI comes last, with its OCR parts. */
const LIBRARY = ['formulas', 'storage', 'engine', 'steps', 'server'] as const;
const PACKAGES = [...LIBRARY, 'cli'] as const;
/** The parts of @docflow/steps a user may leave out (its optional peer dependencies). */
const OPTIONAL = [
  'sharp',
  'tesseract.js',
  '@tesseract.js-data/eng',
  '@tesseract.js-data/deu',
  '@tesseract.js-data/osd',
  'zxing-wasm',
];

interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  engines?: { node?: string };
  exports: Record<string, null | string | { types: string; default: string }>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

interface QuickStartLine {
  file: string;
  status: string;
  failureReason: string | null;
  failureMessage: string | null;
  chunks: number | null;
  lastChunk: string | null;
  extracted: { invoice_number: string | null; total: number | null } | null;
}

let dir = '';
let project = '';
let cliTarball = '';
/** Durations (ms) and installed sizes (MB), printed at the end: figures for the README. */
const figures: Record<string, number> = {};

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    figures[`${name} (ms)`] = Math.round(performance.now() - started);
  }
}

/**
 * The environment of a user's shell: this one without what the test runner and the package
 * manager running it add (vitest's NODE_PATH into the workspace's packages, which `require`
 * would search; npm's notion of the current project).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  const leaks =
    /^(NODE_PATH|NODE_OPTIONS|NODE_ENV|INIT_CWD|VITEST.*|PNPM_.*|npm_(package|lifecycle)_.*|npm_(execpath|node_execpath|command)|npm_config_(local_prefix|user_agent))$/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !leaks.test(name)));
}

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return run(command, args, {
    cwd,
    env: { ...userEnvironment(), ...env },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 240_000,
  });
}

function installed(name: string): Manifest {
  return JSON.parse(
    readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'),
  ) as Manifest;
}

async function installedMegabytes(): Promise<number> {
  const { stdout } = await sh('du', ['-sm', 'node_modules'], project);
  return Number.parseInt(stdout, 10);
}

/** Replaces better-sqlite3's install script (a compile) by the workspace's build of that version. */
function copySqliteBinding(): void {
  const workspace = dirname(
    createRequire(join(root, 'packages', 'storage', 'package.json')).resolve(
      'better-sqlite3/package.json',
    ),
  );
  const target = join(project, 'node_modules', 'better-sqlite3');
  const version = (path: string) =>
    (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version: string }).version;
  expect(version(target), 'the installed better-sqlite3 is the workspace one').toBe(
    version(workspace),
  );
  mkdirSync(join(target, 'build', 'Release'), { recursive: true });
  copyFileSync(
    join(workspace, 'build', 'Release', 'better_sqlite3.node'),
    join(target, 'build', 'Release', 'better_sqlite3.node'),
  );
}

async function quickStart(
  files: string[],
): Promise<{ lines: QuickStartLine[]; workers: string[] }> {
  const log = join(project, 'workers.log');
  rmSync(log, { force: true });
  for (const suffix of ['', '-wal', '-shm'])
    rmSync(join(project, `docflow.db${suffix}`), { force: true });
  const { stdout } = await sh(
    process.execPath,
    ['--import', './test-hooks.mjs', 'quick-start.mjs', ...files],
    project,
    { DOCFLOW_WORKER_LOG: log },
  );
  const lines = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as QuickStartLine);
  const workers = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { lines, workers };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docflow-packed-'));
  const tarballs = join(dir, 'tarballs');
  project = join(dir, 'app');
  mkdirSync(project);
  await timed('pack', () =>
    sh(
      'npx',
      // One at a time, in dependency order: each prepack empties its own dist/ and builds.
      [
        '-y',
        pnpm,
        '-r',
        '--workspace-concurrency=1',
        '--filter',
        './packages/*',
        'pack',
        '--pack-destination',
        tarballs,
      ],
      root,
    ),
  );
  const tarball = (name: string) => {
    const file = readdirSync(tarballs).find((f) => f.startsWith(`docflow-${name}-`));
    if (!file)
      throw new Error(`no tarball for @docflow/${name} in ${readdirSync(tarballs).join(', ')}`);
    return join(tarballs, file);
  };
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'packed-install',
      private: true,
      type: 'module',
      dependencies: Object.fromEntries(LIBRARY.map((p) => [`@docflow/${p}`, `file:${tarball(p)}`])),
    }),
  );
  for (const file of ['quick-start.mjs', 'test-hooks.mjs']) {
    copyFileSync(join(here, file), join(project, file));
  }
  await timed('npm install (library)', () =>
    sh(
      'npm',
      ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      project,
    ),
  );
  copySqliteBinding();
  await timed('fixtures', async () => {
    writeFileSync(join(project, 'packet.pdf'), await makePacket());
    writeFileSync(join(project, 'report.pdf'), (await makeReportPdf({ pages: 64 })).bytes);
    writeFileSync(join(project, 'totals.csv'), 'invoice_number,total\nINV-7,12.50\n');
    writeFileSync(join(project, 'scan.png'), (await makeScanPng({ dpi: 150 })).png);
    writeFileSync(join(project, 'scan.pdf'), (await makeScannedPdf()).bytes);
  });
  cliTarball = tarball('cli');
}, 600_000);

afterAll(async () => {
  await timed('clean-up', async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  console.log('packed install:', JSON.stringify(figures));
}, 120_000);

describe('the packed packages, installed with npm into an empty project', () => {
  it('carry dist/ with types, version 0.1.0, real version ranges and node >= 20.19', () => {
    for (const name of PACKAGES.slice(0, LIBRARY.length)) {
      const manifest = installed(`@docflow/${name}`);
      expect(manifest.version).toBe('0.1.0');
      expect(manifest.engines?.node).toBe('>=20.19');
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
      for (const [dependency, range] of Object.entries(ranges)) {
        expect(range, `${manifest.name} → ${dependency}`).toMatch(/^[\^~]?\d+\.\d+\.\d+$/);
        if (dependency.startsWith('@docflow/')) expect(range).toBe('^0.1.0');
      }
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (target === null || typeof target === 'string') continue;
        for (const file of [target.types, target.default]) {
          expect(file, `${manifest.name} ${subpath}`).toMatch(/^\.\/dist\//);
          expect(existsSync(join(project, 'node_modules', manifest.name, file)), file).toBe(true);
        }
      }
    }
    expect(existsSync(join(project, 'node_modules', 'tsx')), 'tsx is not installed').toBe(false);
    expect(existsSync(join(project, 'node_modules', 'typescript'))).toBe(false);
  });

  it('leave the OCR parts out unless asked for, and say which they are', async () => {
    const steps = installed('@docflow/steps');
    for (const name of OPTIONAL) {
      expect(steps.peerDependencies?.[name], name).toBeDefined();
      expect(steps.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(existsSync(join(project, 'node_modules', name)), name).toBe(false);
    }
    figures['node_modules without the OCR parts (MB)'] = await installedMegabytes();
  });

  it('import every published subpath with plain node', async () => {
    const imports: string[] = [];
    for (const name of LIBRARY) {
      const { exports } = installed(`@docflow/${name}`);
      for (const [subpath, target] of Object.entries(exports)) {
        // The storage test suites need vitest, an optional peer the project did not install.
        if (target === null || typeof target === 'string' || subpath.startsWith('./testing')) {
          continue;
        }
        imports.push(`@docflow/${name}${subpath.slice(1)}`);
      }
    }
    expect(imports).toContain('@docflow/storage/postgres');
    const script = `for (const m of ${JSON.stringify(imports)}) console.log(m, Object.keys(await import(m)).length);`;
    const { stdout } = await sh(process.execPath, ['--input-type=module', '-e', script], project);
    for (const specifier of imports) expect(stdout).toMatch(new RegExp(`^${specifier} [1-9]`, 'm'));
  });

  it('run the quick start: SQLite with its writer thread, PDFs and a CSV in reader processes, an extraction', async () => {
    const { lines, workers } = await timed('quick start', () =>
      quickStart(['packet.pdf', 'report.pdf', 'totals.csv']),
    );
    expect(lines.map(({ file, status }) => [file, status])).toEqual([
      ['packet.pdf', 'PROCESSED'],
      ['report.pdf', 'PROCESSED'],
      ['totals.csv', 'PROCESSED'],
    ]);
    expect(lines[2]?.lastChunk).toContain('INV-7');
    expect(lines[0]?.extracted).toEqual({ invoice_number: 'INV-1001', total: 833 });
    expect(lines[1]?.chunks).toBe(64);
    expect(lines[1]?.lastChunk).toContain('Section 64 quarterly report');
    // Every thread and process runs compiled JavaScript from the installed packages.
    const entry = (path: string) => `${join(project, 'node_modules', '@docflow', path)}`;
    expect(workers).toContain(`file://${entry('storage/dist/sqlite/writer-thread.js')}`);
    expect(workers).toContain(`file://${entry('steps/dist/parse/formats/pdf/read-worker.js')}`);
    expect(workers).toContain(`file://${entry('steps/dist/parse/format-worker.js')}`);
    for (const worker of workers) expect(worker).toMatch(/^file:\/\/.*\.js$/);
  });

  it('give spans to the OpenTelemetry SDK the host registers, and records to its logger', async () => {
    // As docs/observability.md says: the host adds an SDK; npm resolves the one copy of
    // @opentelemetry/api that the engine (a peer) and the SDK share.
    await timed('npm install (OpenTelemetry SDK)', () =>
      sh(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '@opentelemetry/sdk-trace-base@2.12.1',
        ],
        project,
      ),
    );
    copyFileSync(join(here, 'observe.mjs'), join(project, 'observe.mjs'));
    const { stdout } = await sh(process.execPath, ['observe.mjs'], project);
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
      runId: string;
      status: string;
      spans: {
        name: string;
        spanId: string;
        parentId: string | null;
        error: boolean;
        attributes: Record<string, unknown>;
      }[];
      records: { level: string; event: string; runId?: string }[];
    };
    expect(seen.status).toBe('FAILED');
    const runSpan = seen.spans.find((s) => s.name === 'docflow.workflow_run');
    expect(runSpan?.attributes).toMatchObject({
      'docflow.workflow_run.id': seen.runId,
      'docflow.workflow_run.status': 'FAILED',
    });
    expect(runSpan?.error).toBe(true);
    const steps = seen.spans.filter((s) => s.name.startsWith('docflow.step_run '));
    expect(steps.map((s) => [s.name, s.attributes['docflow.step_run.status'], s.error])).toEqual([
      ['docflow.step_run trigger', 'PROCESSED', false],
      ['docflow.step_run parse', 'PROCESSED', false],
      ['docflow.step_run check', 'FAILED', true],
    ]);
    for (const step of steps) expect(step.parentId).toBe(runSpan?.spanId);
    expect(seen.records).toEqual(
      expect.arrayContaining([
        { level: 'info', event: 'engine.started' },
        { level: 'info', event: 'workflow_run.created', runId: seen.runId },
        { level: 'warn', event: 'step_run.failed', runId: seen.runId },
        { level: 'warn', event: 'workflow_run.failed', runId: seen.runId },
        { level: 'info', event: 'engine.stopped' },
      ]),
    );
  });

  it('fail OCR without its packages with OCR_ERROR, naming them and how to add them', async () => {
    const { lines } = await quickStart(['scan.png', 'scan.pdf']);
    const install =
      'npm install "tesseract.js@^7.0.0" "@tesseract.js-data/eng@^1.0.0" "sharp@^0.35.5" "@tesseract.js-data/osd@^1.0.0"';
    expect(lines).toMatchObject([
      { file: 'scan.png', status: 'FAILED', failureReason: 'OCR_ERROR' },
      { file: 'scan.pdf', status: 'FAILED', failureReason: 'OCR_ERROR' },
    ]);
    expect(lines[0]?.failureMessage).toContain(
      `Parsing images (OCR) needs the optional packages tesseract.js, @tesseract.js-data/eng, sharp and @tesseract.js-data/osd, which are not installed: ${install}`,
    );
    expect(lines[1]?.failureMessage).toContain(
      `OCR of scanned PDF pages needs the optional packages`,
    );
    expect(lines[1]?.failureMessage).toContain(install);
  });

  it('type-check a TypeScript consumer against the shipped declarations', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2023',
          strict: true,
          noEmit: true,
          // TypeScript's default: the shipped declarations are checked too, and the types they
          // import must come with the packages.
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    copyFileSync(join(here, 'consumer', 'consumer.ts'), join(project, 'consumer.ts'));
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await timed('tsc', () =>
      sh(process.execPath, [tsc, '-p', 'tsconfig.json'], project).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
      ),
    );
    expect(result.stdout).toBe('');
  });

  it('install the CLI with its OCR parts, and parse a scan with the docflow bin', async () => {
    await timed('npm install (CLI)', () =>
      sh(
        'npm',
        ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', cliTarball],
        project,
      ),
    );
    for (const name of OPTIONAL)
      expect(existsSync(join(project, 'node_modules', name)), name).toBe(true);
    figures['node_modules with the CLI and its OCR parts (MB)'] = await installedMegabytes();
    expect(installed('@docflow/cli').bin).toEqual({ docflow: './dist/bin.js' });
    const { stdout } = await timed('docflow parse scan.pdf', () =>
      sh(join(project, 'node_modules', '.bin', 'docflow'), ['parse', 'scan.pdf'], project),
    );
    expect(stdout).toContain('Section 1 quarterly report');
  });
});
