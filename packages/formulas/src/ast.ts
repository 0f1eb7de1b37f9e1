/** A half-open range of UTF-16 offsets into the formula source: `source.slice(start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Binary operators, in the spelling the printer uses. `AND`/`OR` are the infix words. */
export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '^'
  | '&'
  | '='
  | '<>'
  | '<'
  | '<='
  | '>'
  | '>='
  | 'AND'
  | 'OR';

/** Prefix operators. `NOT x` and the call `NOT(x)` both parse to a `NOT` unary node. */
export type UnaryOperator = '-' | '+' | 'NOT';

/** A number literal. A minus sign written directly before a number is folded into it. */
export interface NumberLiteral {
  readonly kind: 'number';
  readonly value: number;
  readonly span: Span;
}

/** A double-quoted text literal (`""` inside it is one quote). */
export interface StringLiteral {
  readonly kind: 'string';
  readonly value: string;
  readonly span: Span;
}

/** `TRUE` or `FALSE`. */
export interface BooleanLiteral {
  readonly kind: 'boolean';
  readonly value: boolean;
  readonly span: Span;
}

/** `NULL`. */
export interface NullLiteral {
  readonly kind: 'null';
  readonly span: Span;
}

/** A dotted variable path into the scope, e.g. `extract1.line_items.amount`. */
export interface PathExpression {
  readonly kind: 'path';
  readonly segments: readonly string[];
  readonly span: Span;
}

/** A prefix operator applied to an operand. */
export interface UnaryExpression {
  readonly kind: 'unary';
  readonly operator: UnaryOperator;
  readonly operand: FormulaAst;
  readonly span: Span;
}

/** An infix operator applied to two operands. */
export interface BinaryExpression {
  readonly kind: 'binary';
  readonly operator: BinaryOperator;
  readonly left: FormulaAst;
  readonly right: FormulaAst;
  readonly span: Span;
}

/** A function call; `name` is upper-cased (function names are case-insensitive). */
export interface CallExpression {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly FormulaAst[];
  readonly span: Span;
}

/** The syntax tree of a formula: a discriminated union on `kind`, every node with its span. */
export type FormulaAst =
  | NumberLiteral
  | StringLiteral
  | BooleanLiteral
  | NullLiteral
  | PathExpression
  | UnaryExpression
  | BinaryExpression
  | CallExpression;
