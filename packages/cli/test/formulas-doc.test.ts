/** docs/formulas.md is generated from the function registry: it must match the code. */
import { readFileSync } from 'node:fs';
import { builtinFunctionDocs, evaluateFormula, FormulaErrorCode } from '@docflow/formulas';
import { describe, expect, it } from 'vitest';
import { FORMULAS_DOC, formulasDocMarkdown, GROUPED_ERROR_KEYS } from '../scripts/formulas-doc.ts';

describe('docs/formulas.md', () => {
  it('is up to date (run `npx tsx packages/cli/scripts/formulas-doc.ts` to regenerate)', () => {
    expect(readFileSync(FORMULAS_DOC, 'utf8')).toBe(formulasDocMarkdown());
  });

  it('documents every built-in function and every error code', () => {
    const doc = formulasDocMarkdown();
    for (const fn of builtinFunctionDocs()) expect(doc).toContain(`#### ${fn.name}\n`);
    expect([...GROUPED_ERROR_KEYS].sort()).toEqual(Object.keys(FormulaErrorCode).sort());
  });

  it('shows examples that give the results it claims', () => {
    for (const fn of builtinFunctionDocs()) {
      if (fn.async) continue;
      for (const example of fn.examples) {
        const result = evaluateFormula(example.formula, example.scope ?? {});
        expect(result, `${fn.name}: ${example.formula}`).toEqual({
          ok: true,
          value: example.result,
        });
      }
    }
  });
});
