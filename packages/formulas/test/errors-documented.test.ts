import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { FormulaErrorCode } from '../src/index.ts';

const doc = readFileSync(
  fileURLToPath(new URL('../../../docs/errors/formulas.md', import.meta.url)),
  'utf8',
);
const documented = new Set([...doc.matchAll(/^\|\s*`(FORMULA_[A-Z_]+)`\s*\|/gm)].map((m) => m[1]));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every error code is documented in docs/errors/formulas.md and the README, and nothing else is', () => {
  const codes = new Set<string>(Object.values(FormulaErrorCode));
  expect([...documented].sort()).toEqual([...codes].sort());
  for (const code of codes) expect(readme.includes(`\`${code}\``), code).toBe(true);
});
