/**
 * Stable error codes of `@docflow/formulas`. Never reuse or rename a published code.
 * `S…`-like syntax codes come back as diagnostics (PARSE_ERROR); the others are evaluation
 * errors (VALUE_ERROR) or, for host misuse, thrown as {@link FormulaError}.
 */
export const FormulaErrorCode = {
  // Syntax (parseFormula diagnostics → PARSE_ERROR)
  UnexpectedCharacter: 'FORMULA_UNEXPECTED_CHARACTER',
  UnterminatedString: 'FORMULA_UNTERMINATED_STRING',
  InvalidNumber: 'FORMULA_INVALID_NUMBER',
  UnexpectedToken: 'FORMULA_UNEXPECTED_TOKEN',
  UnexpectedEnd: 'FORMULA_UNEXPECTED_END',
  WrongArgumentCount: 'FORMULA_WRONG_ARGUMENT_COUNT',
  TooDeep: 'FORMULA_TOO_DEEP',
  Empty: 'FORMULA_EMPTY',
  // Evaluation (VALUE_ERROR)
  TypeMismatch: 'FORMULA_TYPE_MISMATCH',
  DivisionByZero: 'FORMULA_DIVISION_BY_ZERO',
  NumberOutOfRange: 'FORMULA_NUMBER_OUT_OF_RANGE',
  LengthMismatch: 'FORMULA_LENGTH_MISMATCH',
  CurrencyMismatch: 'FORMULA_CURRENCY_MISMATCH',
  NotFound: 'FORMULA_NOT_FOUND',
  InvalidArgument: 'FORMULA_INVALID_ARGUMENT',
  UnknownFunction: 'FORMULA_UNKNOWN_FUNCTION',
  HostFunctionFailed: 'FORMULA_HOST_FUNCTION_FAILED',
  AsyncFunctionInSyncEvaluation: 'FORMULA_ASYNC_IN_SYNC',
  Internal: 'FORMULA_INTERNAL_ERROR',
  TextTooLong: 'FORMULA_TEXT_TOO_LONG',
  ArrayTooLong: 'FORMULA_ARRAY_TOO_LONG',
  BudgetExceeded: 'FORMULA_BUDGET_EXCEEDED',
  // Host misuse (thrown)
  InvalidFunctionDefinition: 'FORMULA_INVALID_FUNCTION_DEFINITION',
  FunctionConflict: 'FORMULA_FUNCTION_CONFLICT',
  InvalidRules: 'FORMULA_INVALID_RULES',
  InvalidOptions: 'FORMULA_INVALID_OPTIONS',
} as const;

/** One of the {@link FormulaErrorCode} values. */
export type FormulaErrorCode = (typeof FormulaErrorCode)[keyof typeof FormulaErrorCode];
