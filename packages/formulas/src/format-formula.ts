import type { FormulaAst } from './ast.ts';
import { Precedence } from './parse-formula.ts';

function precedenceOf(node: FormulaAst): number {
  switch (node.kind) {
    case 'binary':
      switch (node.operator) {
        case 'OR':
          return Precedence.or;
        case 'AND':
          return Precedence.and;
        case '&':
          return Precedence.concat;
        case '+':
        case '-':
          return Precedence.additive;
        case '*':
        case '/':
          return Precedence.multiplicative;
        case '^':
          return Precedence.power;
        default:
          return Precedence.comparison;
      }
    case 'unary':
      return node.operator === 'NOT' ? Precedence.not : Precedence.prefix;
    default:
      return Precedence.atom;
  }
}

function formatNumber(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value);
}

function wrap(node: FormulaAst, parenthesize: boolean): string {
  const text = formatFormula(node);
  return parenthesize ? `(${text})` : text;
}

/**
 * Prints a syntax tree as canonical formula text: upper-case names and keywords, single spaces
 * around infix operators, and only the parentheses precedence needs.
 * `parseFormula(formatFormula(ast))` gives back the same tree (spans aside).
 *
 * @example
 * formatFormula(ast) // 'SUM(extract1.line_items.amount) = extract1.total'
 */
export function formatFormula(ast: FormulaAst): string {
  switch (ast.kind) {
    case 'number':
      return formatNumber(ast.value);
    case 'string':
      return `"${ast.value.replaceAll('"', '""')}"`;
    case 'boolean':
      return ast.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'path':
      return ast.segments.join('.');
    case 'call':
      return `${ast.name}(${ast.args.map(formatFormula).join(', ')})`;
    case 'unary': {
      const { operand } = ast;
      if (ast.operator === 'NOT') {
        // `NOT (…)` reads back as the call NOT(…), so an operand that needs or starts with a
        // parenthesis is printed in call form, which parses to the same node.
        const text = formatFormula(operand);
        return precedenceOf(operand) < Precedence.comparison || text.startsWith('(')
          ? `NOT(${text})`
          : `NOT ${text}`;
      }
      // A sign written before a number literal is folded into the literal by the parser.
      const literal =
        ast.operator === '-' &&
        operand.kind === 'number' &&
        !(operand.value < 0 || Object.is(operand.value, -0));
      return `${ast.operator}${wrap(operand, literal || precedenceOf(operand) < Precedence.prefix)}`;
    }
    case 'binary': {
      const precedence = precedenceOf(ast);
      const left = wrap(ast.left, precedenceOf(ast.left) < precedence);
      const right = wrap(ast.right, precedenceOf(ast.right) <= precedence);
      return `${left} ${ast.operator} ${right}`;
    }
  }
}
