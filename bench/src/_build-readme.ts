/**
 * Rebuilds bench/README.md from the per-area result files in bench/results/, so that the figures
 * live next to the scripts that produced them and the README cannot drift from them.
 *
 *   cd bench && npx tsx src/_build-readme.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const order = [
  'engine',
  'storage',
  'formulas',
  'parse',
  'processors',
  'documents',
  'webhooks',
  'definitions',
  'processors-resources',
];
const files = readdirSync(join(root, 'results'))
  .filter((f) => f.endsWith('.md'))
  .sort((a, b) => {
    const ia = order.indexOf(a.replace(/\.md$/, ''));
    const ib = order.indexOf(b.replace(/\.md$/, ''));
    return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
  });
const header = readFileSync(join(root, 'results', '_header.md'), 'utf8');
const sections = files
  .filter((f) => !f.startsWith('_'))
  .map((f) =>
    readFileSync(join(root, 'results', f), 'utf8')
      .trim()
      .replace(/^# /, '## '),
  );
writeFileSync(join(root, 'README.md'), `${header.trim()}\n\n${sections.join('\n\n')}\n`);
console.log(`bench/README.md: ${sections.length} sections`);
