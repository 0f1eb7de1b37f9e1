import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { README, withFunctionReference } from '../scripts/function-reference.ts';
import { builtinFunctionDocs, evaluateFormula } from '../src/index.ts';

describe('builtinFunctionDocs', () => {
  const docs = builtinFunctionDocs();

  test('documents every function the issue requires', () => {
    const names = new Set(docs.map((doc) => doc.name));
    for (const name of `ISPRESENT ISBLANK ISNUMBER ISTEXT IF IFS AND OR NOT XOR SUM COUNT COUNTA MIN MAX AVERAGE ROUND
      ROUNDUP ROUNDDOWN ABS MOD POWER SQRT LEN LOWER UPPER TRIM LEFT RIGHT MID CONCAT SUBSTITUTE FIND SEARCH REGEXMATCH
      TEXT VALUE DATE DATEVALUE YEAR MONTH DAY TODAY DATEDIF DAYS UNIQUE FIRST LAST INCLUDES INCLUDESANY CONTAINS
      CONTAINSALL FUZZYMATCH LLMJUDGE`.split(/\s+/)) {
      expect(names.has(name), name).toBe(true);
    }
  });

  test('every function has a signature, a summary, and examples (except LLMJUDGE, which needs a judge)', () => {
    for (const doc of docs) {
      expect(doc.signature.startsWith(`${doc.name}(`), doc.name).toBe(true);
      expect(doc.summary.length, doc.name).toBeGreaterThan(10);
      if (doc.name !== 'LLMJUDGE') expect(doc.examples.length, doc.name).toBeGreaterThan(0);
    }
  });

  for (const doc of docs) {
    for (const example of doc.examples) {
      test(`${doc.name} example ${example.formula} gives its documented result`, () => {
        const now = () => new Date('2024-01-15T00:00:00Z');
        expect(evaluateFormula(example.formula, example.scope ?? {}, { now })).toEqual({
          ok: true,
          value: example.result,
        });
      });
    }
  }
});

// Biome formats markdown tables (padding cells, lengthening rules), so compare them normalised.
function normalizeTables(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      line.startsWith('|') ? line.replace(/\s*\|\s*/g, '|').replace(/-{3,}/g, '---') : line,
    )
    .join('\n');
}

test('the README function reference is up to date (run scripts/function-reference.ts)', () => {
  const readme = readFileSync(README, 'utf8');
  expect(normalizeTables(withFunctionReference(readme))).toBe(normalizeTables(readme));
});
