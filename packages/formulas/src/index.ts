export type {
  BinaryExpression,
  BinaryOperator,
  BooleanLiteral,
  CallExpression,
  FormulaAst,
  NullLiteral,
  NumberLiteral,
  PathExpression,
  Span,
  StringLiteral,
  UnaryExpression,
  UnaryOperator,
} from './ast.ts';
export { builtinFunctionDocs, type FunctionDoc } from './builtin-function-docs.ts';
export { type CompiledFormula, type CompileResult, compileFormula } from './compile-formula.ts';
export { defineFunction, type FunctionDefinition } from './define-function.ts';
export type { Diagnostic } from './diagnostic.ts';
export { evaluateFormula, evaluateFormulaAsync } from './evaluate-formula.ts';
export {
  evaluateRules,
  evaluateRulesAsync,
  type FormulaRule,
  type RuleFailureReason,
  type RuleResult,
  type RulesResult,
} from './evaluate-rules.ts';
export { formatFormula } from './format-formula.ts';
export { FormulaError, type FormulaErrorOptions, isFormulaError } from './formula-error.ts';
export { FormulaErrorCode } from './formula-error-code.ts';
export type {
  BroadcastMode,
  FormulaFunction,
  FormulaJudge,
  FunctionContext,
} from './formula-function.ts';
export type { FormulaOptions } from './formula-options.ts';
export type { FunctionCategory, FunctionExample } from './functions/builtin-function.ts';
export { fuzzySimilarity } from './fuzzy-similarity.ts';
export { type Token, type TokenizeResult, type TokenType, tokenize } from './lexer.ts';
export {
  compileNumberFormat,
  formatCellValue,
  formatGeneral,
  isDateFormat,
  type NumberFormatter,
} from './number-format.ts';
export { type ParseResult, parseFormula } from './parse-formula.ts';
export type { FormulaEvaluation } from './run-program.ts';
export type { FormulaCurrency, FormulaRecord, FormulaScope, FormulaValue } from './values.ts';
