/**
 * Builds bench/README.md from the per-area result files in bench/results/: the README is the
 * header (`results/_header.md`) followed by the summary of each area, the part of
 * `results/<area>.md` above its `## History` heading, with a link to the rest. The figures live
 * next to their history, and the README cannot drift from them (a repository test compares).
 *
 *   cd bench && npx tsx src/_build-readme.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bench folder. */
export const benchRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Most lines an area's summary may take in the README, its heading and history link included. */
export const SUMMARY_MAX_LINES = 40;

/** Areas in README order; areas not listed follow in name order. */
const ORDER = [
  'engine',
  'storage',
  'postgres',
  'formulas',
  'parse',
  'processors',
  'documents',
  'webhooks',
  'definitions',
  'processors-resources',
];

const HISTORY = /^## History\s*$/m;

/**
 * A summary's relative links are written for `results/<area>.md`; in the README, one folder up,
 * they need `results/` in front (`../../docs/x.md` becomes `../docs/x.md`).
 */
function rebaseLinks(markdown: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (whole, target: string) =>
    /^([a-z]+:|#|\/)/i.test(target) ? whole : `](${posix.normalize(`results/${target}`)})`,
  );
}

/** The summary of one area file (its text above `## History`), with the heading one level down. */
function summaryOf(file: string, text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('# ')) {
    throw new Error(`bench/results/${file}: must start with a "# " heading (the area's title)`);
  }
  const match = HISTORY.exec(trimmed);
  const summary = rebaseLinks((match ? trimmed.slice(0, match.index) : trimmed).trim()).replace(
    /^# /,
    '## ',
  );
  const section = match ? `${summary}\n\nHistory: [results/${file}](results/${file}).` : summary;
  const lines = section.split('\n').length;
  if (lines > SUMMARY_MAX_LINES) {
    throw new Error(
      `bench/results/${file}: the summary above "## History" has ${lines} lines in the README, at most ${SUMMARY_MAX_LINES}; move older tables below "## History"`,
    );
  }
  return section;
}

/** The text of bench/README.md as the result files give it. */
export function buildReadme(root: string = benchRoot): string {
  const dir = join(root, 'results');
  const rank = (file: string) => {
    const i = ORDER.indexOf(file.replace(/\.md$/, ''));
    return i === -1 ? ORDER.length : i;
  };
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('_'))
    .map((e) => e.name)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const header = readFileSync(join(dir, '_header.md'), 'utf8').trim();
  const sections = files.map((f) => summaryOf(f, readFileSync(join(dir, f), 'utf8')));
  return `${header}\n\n${sections.join('\n\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = buildReadme();
  writeFileSync(join(benchRoot, 'README.md'), text);
  console.log(`bench/README.md: ${text.split('\n').length - 1} lines`);
}
