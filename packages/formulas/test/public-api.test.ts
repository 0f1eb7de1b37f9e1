import * as api from '@docflow/formulas';
import { expect, test } from 'vitest';

test('the public surface', () => {
  expect(Object.keys(api).sort()).toEqual([
    'FormulaError',
    'FormulaErrorCode',
    'builtinFunctionDocs',
    'compileFormula',
    'defineFunction',
    'evaluateFormula',
    'evaluateFormulaAsync',
    'evaluateRules',
    'evaluateRulesAsync',
    'formatFormula',
    'fuzzySimilarity',
    'isFormulaError',
    'parseFormula',
    'tokenize',
  ]);
});
