/**
 * The data-driven conformance suite: every `cases/<group>/<name>.json` holds an array of cases
 * `{ formula, scope?, value | failure: { failureReason, code } | rule: RuleResult-like, note? }`.
 * TODAY() sees a fixed clock, 2024-01-15T12:00:00Z (serial 45306).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  evaluateFormula,
  evaluateRules,
  type FormulaScope,
  type FormulaValue,
} from '../src/index.ts';

interface Case {
  readonly formula: string;
  readonly scope?: FormulaScope;
  readonly value?: FormulaValue;
  readonly failure?: { readonly failureReason: string; readonly code: string };
  readonly rule?: {
    readonly valid: boolean;
    readonly validArray?: boolean[];
    readonly failureReason?: string;
  };
  readonly note?: string;
}

const root = fileURLToPath(new URL('./cases', import.meta.url));
const options = { now: () => new Date('2024-01-15T12:00:00Z') };

const files = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(root, dir.name))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${dir.name}/${file}`),
  )
  .sort();

test('the suite has at least 300 cases', () => {
  const count = files.reduce(
    (sum, file) => sum + (JSON.parse(readFileSync(join(root, file), 'utf8')) as Case[]).length,
    0,
  );
  expect(count).toBeGreaterThanOrEqual(300);
});

for (const file of files) {
  const cases = JSON.parse(readFileSync(join(root, file), 'utf8')) as Case[];
  describe(file, () => {
    cases.forEach((c, index) => {
      test(`#${index} ${c.formula.length > 60 ? `${c.formula.slice(0, 60)}…` : c.formula}`, () => {
        const scope = c.scope ?? {};
        if (c.rule !== undefined) {
          const [result] = evaluateRules([{ name: 'r', formula: c.formula }], scope, options).rules;
          expect(result?.valid).toBe(c.rule.valid);
          expect(result?.validArray).toEqual(c.rule.validArray);
          expect(result?.failureReason).toBe(c.rule.failureReason);
          return;
        }
        const evaluation = evaluateFormula(c.formula, scope, options);
        if (c.failure !== undefined) {
          expect(evaluation.ok).toBe(false);
          if (evaluation.ok) return;
          expect(evaluation.failureReason).toBe(c.failure.failureReason);
          expect(evaluation.diagnostics[0]?.code).toBe(c.failure.code);
          expect(evaluation.error.length).toBeGreaterThan(0);
          return;
        }
        expect(evaluation).toEqual({ ok: true, value: c.value });
      });
    });
  });
}
