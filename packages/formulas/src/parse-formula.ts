import type { BinaryOperator, FormulaAst, Span } from './ast.ts';
import type { Diagnostic } from './diagnostic.ts';
import { FormulaErrorCode } from './formula-error-code.ts';
import { builtinFunctions } from './functions/builtin-functions.ts';
import { type Token, tokenize } from './lexer.ts';

/** The result of {@link parseFormula}. */
export type ParseResult =
  | { readonly ok: true; readonly ast: FormulaAst }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Nesting deeper than this is rejected, so that hostile input cannot exhaust the stack. */
export const MAX_FORMULA_DEPTH = 200;

/**
 * Trees deeper than this are rejected too (a chain `1 + 1 + … + 1` parses without nesting but
 * builds a deep tree), so that compiling, printing and evaluating never exhaust the stack.
 */
export const MAX_TREE_DEPTH = 1000;

/** The depth of a tree, measured without recursion. */
function treeDepth(root: FormulaAst): number {
  let deepest = 0;
  const stack: [FormulaAst, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > deepest) deepest = depth;
    if (node.kind === 'binary') stack.push([node.left, depth + 1], [node.right, depth + 1]);
    else if (node.kind === 'unary') stack.push([node.operand, depth + 1]);
    else if (node.kind === 'call') for (const arg of node.args) stack.push([arg, depth + 1]);
  }
  return deepest;
}

/** Binding powers, lowest first; Excel's order with the infix words below comparisons. */
export const Precedence = {
  or: 1,
  and: 2,
  not: 3,
  comparison: 4,
  concat: 5,
  additive: 6,
  multiplicative: 7,
  power: 8,
  prefix: 9,
  atom: 10,
} as const;

const INFIX: Readonly<Record<string, number>> = {
  OR: Precedence.or,
  AND: Precedence.and,
  '=': Precedence.comparison,
  '<>': Precedence.comparison,
  '<': Precedence.comparison,
  '<=': Precedence.comparison,
  '>': Precedence.comparison,
  '>=': Precedence.comparison,
  '&': Precedence.concat,
  '+': Precedence.additive,
  '-': Precedence.additive,
  '*': Precedence.multiplicative,
  '/': Precedence.multiplicative,
  '^': Precedence.power,
};

const KEYWORDS = new Set(['TRUE', 'FALSE', 'NULL', 'AND', 'OR', 'NOT']);

/** True if `word` is a keyword (case-insensitive) and so cannot start a variable path. */
export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word.toUpperCase());
}

class Failure {
  readonly diagnostic: Diagnostic;
  constructor(diagnostic: Diagnostic) {
    this.diagnostic = diagnostic;
  }
}

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the formula';
    case 'string':
      return `text ${JSON.stringify(token.text)}`;
    case 'number':
      return `number ${token.text}`;
    default:
      return `'${token.text}'`;
  }
}

function fail(token: Token, expected: string): never {
  throw new Failure({
    code: token.type === 'end' ? FormulaErrorCode.UnexpectedEnd : FormulaErrorCode.UnexpectedToken,
    message: `Expected ${expected} but found ${describe(token)} at column ${token.start + 1}`,
    span: { start: token.start, end: Math.max(token.end, token.start) },
  });
}

function arityText(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  if (max === Number.POSITIVE_INFINITY) return `at least ${min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}

class Parser {
  readonly #tokens: readonly Token[];
  #index = 0;
  #depth = 0;

  constructor(tokens: readonly Token[]) {
    this.#tokens = tokens;
  }

  peek(): Token {
    return this.#tokens[this.#index] as Token;
  }

  next(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.#index++;
    return token;
  }

  expression(minBp: number): FormulaAst {
    if (++this.#depth > MAX_FORMULA_DEPTH) {
      const token = this.peek();
      throw new Failure({
        code: FormulaErrorCode.TooDeep,
        message: `The formula nests deeper than ${MAX_FORMULA_DEPTH} levels at column ${token.start + 1}`,
        span: { start: token.start, end: token.end },
      });
    }
    let left = this.prefix();
    for (;;) {
      const token = this.peek();
      // Only AND/OR are infix words: longer identifiers are not upper-cased.
      const word =
        token.type === 'identifier' && token.text.length <= 3
          ? token.text.toUpperCase()
          : token.text;
      const bp =
        token.type === 'operator' ||
        (token.type === 'identifier' && (word === 'AND' || word === 'OR'))
          ? INFIX[word]
          : undefined;
      if (bp === undefined || bp <= minBp) break;
      this.next();
      const right = this.expression(bp);
      left = {
        kind: 'binary',
        operator: word as BinaryOperator,
        left,
        right,
        span: { start: left.span.start, end: right.span.end },
      };
    }
    this.#depth--;
    return left;
  }

  prefix(): FormulaAst {
    const token = this.next();
    switch (token.type) {
      case 'number':
        return { kind: 'number', value: Number(token.text), span: span(token, token) };
      case 'string':
        return { kind: 'string', value: token.text, span: span(token, token) };
      case '(': {
        const inner = this.expression(0);
        const close = this.next();
        if (close.type !== ')') fail(close, "')'");
        return inner;
      }
      case 'operator': {
        if (token.text === '-' || token.text === '+') {
          const following = this.peek();
          if (token.text === '-' && following.type === 'number') {
            this.next();
            return {
              kind: 'number',
              value: -Number(following.text),
              span: span(token, following),
            };
          }
          const operand = this.expression(Precedence.prefix);
          return {
            kind: 'unary',
            operator: token.text,
            operand,
            span: { start: token.start, end: operand.span.end },
          };
        }
        return fail(token, 'a value');
      }
      case 'identifier':
        return this.word(token);
      default:
        return fail(token, 'a value');
    }
  }

  word(token: Token): FormulaAst {
    if (this.peek().type === '(') return this.call(token, token.text.toUpperCase());
    // Keywords have at most 5 letters; longer words are paths and keep their case.
    const upper = token.text.length <= 5 ? token.text.toUpperCase() : '';
    switch (upper) {
      case 'TRUE':
        return { kind: 'boolean', value: true, span: span(token, token) };
      case 'FALSE':
        return { kind: 'boolean', value: false, span: span(token, token) };
      case 'NULL':
        return { kind: 'null', span: span(token, token) };
      case 'NOT': {
        const operand = this.expression(Precedence.not);
        return {
          kind: 'unary',
          operator: 'NOT',
          operand,
          span: { start: token.start, end: operand.span.end },
        };
      }
      case 'AND':
      case 'OR':
        return fail(token, 'a value before AND/OR');
    }
    const segments = [token.text];
    let last = token;
    while (this.peek().type === '.') {
      this.next();
      const segment = this.next();
      if (segment.type !== 'segment') fail(segment, 'a field name after the dot');
      segments.push(segment.text);
      last = segment;
    }
    return { kind: 'path', segments, span: span(token, last) };
  }

  call(nameToken: Token, name: string): FormulaAst {
    this.next();
    const args: FormulaAst[] = [];
    if (this.peek().type !== ')') {
      for (;;) {
        args.push(this.expression(0));
        const separator = this.next();
        if (separator.type === ')') break;
        if (separator.type !== ',') fail(separator, "',' or ')'");
      }
    } else {
      this.next();
    }
    const close = this.#tokens[this.#index - 1] as Token;
    const callSpan = span(nameToken, close);
    const builtin = name === 'NOT' ? { minArgs: 1, maxArgs: 1 } : builtinFunctions.get(name);
    if (builtin !== undefined && (args.length < builtin.minArgs || args.length > builtin.maxArgs)) {
      throw new Failure({
        code: FormulaErrorCode.WrongArgumentCount,
        message: `${name} takes ${arityText(builtin.minArgs, builtin.maxArgs)} but was given ${args.length} at column ${nameToken.start + 1}`,
        span: callSpan,
      });
    }
    if (name === 'NOT') {
      return { kind: 'unary', operator: 'NOT', operand: args[0] as FormulaAst, span: callSpan };
    }
    return { kind: 'call', name, args, span: callSpan };
  }
}

function span(first: Token, last: Token): Span {
  return { start: first.start, end: last.end };
}

/**
 * Parses a formula into its syntax tree. Never throws, whatever the input: problems come back
 * as diagnostics with a stable code, a message and the source span. Calls to built-in functions
 * are checked for their number of arguments; other names are host functions, resolved at
 * evaluation.
 *
 * @example
 * parseFormula('SUM(extract1.line_items.amount) = extract1.total') // { ok: true, ast }
 */
export function parseFormula(source: string): ParseResult {
  try {
    if (typeof source !== 'string') {
      return {
        ok: false,
        diagnostics: [
          {
            code: FormulaErrorCode.Empty,
            message: `A formula must be text, got ${source === null ? 'null' : typeof source}`,
            span: { start: 0, end: 0 },
          },
        ],
      };
    }
    const lexed = tokenize(source);
    if (!lexed.ok) return { ok: false, diagnostics: [lexed.diagnostic] };
    const parser = new Parser(lexed.tokens);
    if (parser.peek().type === 'end') {
      return {
        ok: false,
        diagnostics: [
          {
            code: FormulaErrorCode.Empty,
            message: 'The formula is empty',
            span: { start: 0, end: source.length },
          },
        ],
      };
    }
    const ast = parser.expression(0);
    const rest = parser.peek();
    if (rest.type !== 'end') fail(rest, 'an operator or the end of the formula');
    // Only long formulas can be that deep; short ones skip the walk.
    if (source.length > MAX_TREE_DEPTH && treeDepth(ast) > MAX_TREE_DEPTH) {
      return {
        ok: false,
        diagnostics: [
          {
            code: FormulaErrorCode.TooDeep,
            message: `The formula's operators nest deeper than ${MAX_TREE_DEPTH} levels; split it into several rules`,
            span: { start: 0, end: source.length },
          },
        ],
      };
    }
    return { ok: true, ast };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, diagnostics: [error.diagnostic] };
    // A stack overflow on pathological input must still be a diagnostic, never a throw.
    return {
      ok: false,
      diagnostics: [
        {
          code: FormulaErrorCode.TooDeep,
          message: `The formula could not be parsed: ${error instanceof Error ? error.message : String(error)}`,
          span: { start: 0, end: typeof source === 'string' ? source.length : 0 },
        },
      ],
    };
  }
}
