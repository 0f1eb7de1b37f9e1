import * as api from '@docflow/formulas';
import { expect, test } from 'vitest';

test('the public surface', () => {
  expect(Object.keys(api).sort()).toEqual([
    'FormulaError',
    'FormulaErrorCode',
    'builtinFunctionDocs',
    'compileFormula',
    'compileNumberFormat',
    'defineFunction',
    'evaluateFormula',
    'evaluateFormulaAsync',
    'evaluateRules',
    'evaluateRulesAsync',
    'formatCellValue',
    'formatFormula',
    'formatGeneral',
    'fuzzySimilarity',
    'isDateFormat',
    'isFormulaError',
    'parseFormula',
    'tokenize',
  ]);
});
