import type {
  BinaryExpression,
  BinaryOperator,
  CallExpression,
  FormulaAst,
  PathExpression,
  UnaryExpression,
  UnaryOperator,
} from '../ast.ts';
import { toLogical } from '../coerce.ts';
import { FormulaErrorCode } from '../formula-error-code.ts';
import { builtinFunctions } from '../functions/builtin-functions.ts';
import { type Site, valueError } from '../site.ts';
import type { FormulaValue } from '../values.ts';
import { applyBuiltin, applyHost } from './apply-function.ts';
import { broadcast1, broadcast2, broadcastNumbers } from './broadcast.ts';
import type { Compiled } from './compiled.ts';
import { negate, not, numberFastPaths, scalarOperators } from './operators.ts';
import { compilePathSegments, getField, resolvePath, toFormulaValue } from './path.ts';
import { generatePathReader, type PathReader, TIER_UP_AFTER } from './path-codegen.ts';

function compilePath(node: PathExpression): Compiled {
  const { segments } = node;
  const site: Site = { name: segments.join('.'), span: node.span };
  const path = compilePathSegments(segments);
  const first = segments[0] as string;
  const guardFirst = path.guarded[0] as boolean;
  const generic: Compiled =
    segments.length === 1
      ? (scope) =>
          Array.isArray(scope)
            ? resolvePath(scope, path, 0, site)
            : toFormulaValue(getField(scope, first, guardFirst))
      : (scope) => resolvePath(scope, path, 0, site);
  let calls = 0;
  let read: PathReader | undefined;
  return (scope, context) => {
    if (read !== undefined) return read(scope);
    if (++calls === TIER_UP_AFTER) {
      read = generatePathReader(path, (array, index) => resolvePath(array, path, index, site));
    }
    return generic(scope, context);
  };
}

// Operator names as error messages quote them, built once rather than per compiled node.
const OPERATOR_NAMES: Readonly<Record<BinaryOperator | UnaryOperator, string>> = {
  '+': "'+'",
  '-': "'-'",
  '*': "'*'",
  '/': "'/'",
  '^': "'^'",
  '&': "'&'",
  '=': "'='",
  '<>': "'<>'",
  '<': "'<'",
  '<=': "'<='",
  '>': "'>'",
  '>=': "'>='",
  AND: "'AND'",
  OR: "'OR'",
  NOT: "'NOT'",
};

function isNull(value: FormulaValue): FormulaValue {
  return value === null || value === undefined;
}

function isNotNull(value: FormulaValue): FormulaValue {
  return value !== null && value !== undefined;
}

function minus(value: FormulaValue, site: Site): FormulaValue {
  return negate(value, site, -1);
}

function plus(value: FormulaValue, site: Site): FormulaValue {
  return negate(value, site, 1);
}

function isNullLiteral(node: FormulaAst): boolean {
  return node.kind === 'null';
}

function compileBinary(node: BinaryExpression): Compiled {
  const site: Site = { name: OPERATOR_NAMES[node.operator], span: node.span };
  const left = compileAst(node.left);
  const right = compileAst(node.right);
  const operator = node.operator;
  if (
    (operator === '=' || operator === '<>') &&
    (isNullLiteral(node.left) || isNullLiteral(node.right))
  ) {
    // `x = NULL` is a null test, the one comparison with NULL that is not NULL.
    const other = isNullLiteral(node.left) ? right : left;
    const test = operator === '=' ? isNull : isNotNull;
    return (scope, context) => broadcast1(other(scope, context), site, test);
  }
  const scalar = scalarOperators[operator];
  if (operator === 'AND' || operator === 'OR') {
    // Short-circuit on a scalar left operand that decides the result (left to right).
    const decisive = operator === 'OR';
    return (scope, context) => {
      const a = left(scope, context);
      if (!Array.isArray(a) && toLogical(a, site, 'the left operand') === decisive) return decisive;
      return broadcast2(a, right(scope, context), site, scalar);
    };
  }
  const fast = numberFastPaths[operator];
  if (fast !== undefined) {
    return (scope, context) => {
      const a = left(scope, context);
      const b = right(scope, context);
      if (typeof a === 'number' && typeof b === 'number') return fast(a, b, site);
      return broadcastNumbers(a, b, site, fast) ?? broadcast2(a, b, site, scalar);
    };
  }
  return (scope, context) => broadcast2(left(scope, context), right(scope, context), site, scalar);
}

function compileUnary(node: UnaryExpression): Compiled {
  const operand = compileAst(node.operand);
  const site: Site = { name: OPERATOR_NAMES[node.operator], span: node.span };
  if (node.operator === 'NOT')
    return (scope, context) => broadcast1(operand(scope, context), site, not);
  if (node.operator === '-') {
    return (scope, context) => {
      const value = operand(scope, context);
      return typeof value === 'number' ? -value : broadcast1(value, site, minus);
    };
  }
  return (scope, context) => {
    const value = operand(scope, context);
    return typeof value === 'number' ? value : broadcast1(value, site, plus);
  };
}

function compileCall(node: CallExpression): Compiled {
  const site: Site = { name: node.name, span: node.span };
  const args = node.args.map(compileAst);
  const fn = builtinFunctions.get(node.name);
  if (fn !== undefined) {
    if (fn.compile !== undefined) return fn.compile(args, site, node.args);
    if (args.length === 1) {
      const only = args[0] as Compiled;
      return (scope, context) => applyBuiltin(fn, [only(scope, context)], site, context);
    }
    if (args.length === 2) {
      const a = args[0] as Compiled;
      const b = args[1] as Compiled;
      return (scope, context) =>
        applyBuiltin(fn, [a(scope, context), b(scope, context)], site, context);
    }
    return (scope, context) =>
      applyBuiltin(
        fn,
        args.map((arg) => arg(scope, context)),
        site,
        context,
      );
  }
  const name = node.name;
  return (scope, context) => {
    const host = context.functions.get(name);
    if (host === undefined) {
      return valueError(
        site,
        FormulaErrorCode.UnknownFunction,
        'is not a built-in function and no host function of that name was provided (options.functions)',
      );
    }
    return applyHost(
      host,
      args.map((arg) => arg(scope, context)),
      site,
      context,
    );
  };
}

/**
 * Compiles a syntax tree to a closure. The closure does no parsing or dispatch on node kinds at
 * evaluation; built-ins are bound at compile time, host functions looked up in the context.
 */
export function compileAst(node: FormulaAst): Compiled {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean': {
      const value = node.value;
      return () => value;
    }
    case 'null':
      return () => null;
    case 'path':
      return compilePath(node);
    case 'unary':
      return compileUnary(node);
    case 'binary':
      return compileBinary(node);
    case 'call':
      return compileCall(node);
  }
}
