/** fast-check generators of syntax trees, formulas and scopes shared by the property tests. */
import fc from 'fast-check';
import type { BinaryOperator, FormulaAst, Span } from '../src/index.ts';

const SPAN: Span = { start: 0, end: 0 };

/** Removes spans (and only spans), so trees from different texts can be compared. */
export function stripSpans(ast: FormulaAst): unknown {
  switch (ast.kind) {
    case 'unary':
      return { kind: ast.kind, operator: ast.operator, operand: stripSpans(ast.operand) };
    case 'binary':
      return {
        kind: ast.kind,
        operator: ast.operator,
        left: stripSpans(ast.left),
        right: stripSpans(ast.right),
      };
    case 'call':
      return { kind: ast.kind, name: ast.name, args: ast.args.map(stripSpans) };
    case 'path':
      return { kind: ast.kind, segments: ast.segments };
    case 'null':
      return { kind: ast.kind };
    default:
      return { kind: ast.kind, value: ast.value };
  }
}

const KEYWORDS = new Set(['TRUE', 'FALSE', 'NULL', 'AND', 'OR', 'NOT']);
const BINARY: readonly BinaryOperator[] = [
  '+',
  '-',
  '*',
  '/',
  '^',
  '&',
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'AND',
  'OR',
];

const firstSegment = fc
  .stringMatching(/^[a-zA-Z_ßéü][a-zA-Z0-9_ßéü]{0,6}$/)
  .filter((s) => !KEYWORDS.has(s.toUpperCase()));
const laterSegment = fc.stringMatching(/^[a-zA-Z0-9_é]{1,6}$/);
const functionName = fc.oneof(
  fc.constantFrom('SUM', 'IF', 'AND', 'OR', 'INCLUDES', 'LEN', 'TRUE', 'CONCAT'),
  fc.stringMatching(/^[A-Z][A-Z0-9_]{0,5}$/).filter((s) => !KEYWORDS.has(s)),
);

/** Any syntax tree the parser can produce (calls to built-ins may have any arity here). */
export const astArbitrary: fc.Arbitrary<FormulaAst> = fc.letrec<{ node: FormulaAst }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((value) => ({ kind: 'number', value, span: SPAN }) as const),
      fc
        .string({ unit: 'grapheme' })
        .map((value) => ({ kind: 'string', value, span: SPAN }) as const),
      fc.boolean().map((value) => ({ kind: 'boolean', value, span: SPAN }) as const),
      fc.constant({ kind: 'null', span: SPAN } as const),
      fc
        .tuple(firstSegment, fc.array(laterSegment, { maxLength: 3 }))
        .map(
          ([first, rest]) => ({ kind: 'path', segments: [first, ...rest], span: SPAN }) as const,
        ),
    ),
    fc
      .record(
        { operator: fc.constantFrom('-', '+', 'NOT'), operand: tie('node') },
        { noNullPrototype: true },
      )
      .map((r) => ({ kind: 'unary', ...r, span: SPAN }) as FormulaAst),
    fc
      .record(
        { operator: fc.constantFrom(...BINARY), left: tie('node'), right: tie('node') },
        { noNullPrototype: true },
      )
      .map((r) => ({ kind: 'binary', ...r, span: SPAN }) as FormulaAst),
    fc
      .record(
        { name: functionName, args: fc.array(tie('node'), { maxLength: 3 }) },
        { noNullPrototype: true },
      )
      .map((r) => ({ kind: 'call', ...r, span: SPAN }) as FormulaAst),
  ),
})).node;

/** Variables of {@link scopeArbitrary}, by type. */
export const NUMBER_PATHS = ['n', 'm', 'd.x', 'items.v', 'z'] as const;
export const TEXT_PATHS = ['s', 'items.t', 'z'] as const;
export const LOGICAL_PATHS = ['b', 'items.ok', 'z'] as const;

const smallNumber = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(0.1, 0.2, 0.3, 2.5, -1.5, 1e9),
);
const word = fc.constantFrom('a', 'B', 'ab', 'Straße', 'STRASSE', '', 'x y', 'ß', 'İ', 'i');
const item = fc.record(
  {
    v: fc.option(smallNumber, { nil: null }),
    t: fc.option(word, { nil: null }),
    ok: fc.option(fc.boolean(), { nil: null }),
  },
  { noNullPrototype: true },
);

/** Scopes with the variables the generated formulas read; arrays of length 2 or 3. */
export const scopeArbitrary = fc.record(
  {
    n: smallNumber,
    m: fc.option(smallNumber, { nil: null }),
    s: word,
    b: fc.boolean(),
    d: fc.record({ x: smallNumber }, { noNullPrototype: true }),
    items: fc.array(item, { minLength: 2, maxLength: 3 }),
    tags: fc.array(fc.option(word, { nil: null }), { maxLength: 4 }),
  },
  { noNullPrototype: true },
);

/** Formula text over the variables of {@link scopeArbitrary}, mixing types to reach errors too. */
export const formulaArbitrary: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.constantFrom(...NUMBER_PATHS, ...TEXT_PATHS, ...LOGICAL_PATHS, 'tags'),
      smallNumber.map(String),
      word.map((w) => `"${w}"`),
      fc.constantFrom('TRUE', 'FALSE', 'NULL'),
    ),
    fc
      .tuple(tie('expr'), fc.constantFrom(...BINARY), tie('expr'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('expr').map((a) => `-${a}`),
    tie('expr').map((a) => `NOT(${a})`),
    fc
      .tuple(
        fc.constantFrom('SUM', 'MAX', 'AND', 'OR', 'CONCAT', 'COUNT', 'XOR', 'COUNTA'),
        fc.array(tie('expr'), { minLength: 1, maxLength: 3 }),
      )
      .map(([name, args]) => `${name}(${args.join(', ')})`),
    fc
      .tuple(fc.constantFrom('ISBLANK', 'ISPRESENT', 'LEN', 'UPPER', 'ABS', 'FIRST'), tie('expr'))
      .map(([name, a]) => `${name}(${a})`),
    fc
      .tuple(
        fc.constantFrom('IFERROR', 'INCLUDES', 'CONTAINS', 'INCLUDESANY'),
        tie('expr'),
        tie('expr'),
      )
      .map(([name, a, b]) => `${name}(${a}, ${b})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => `IF(${c}, ${a}, ${b})`),
    tie('expr').map((a) => `ROUND(${a}, 1)`),
    tie('expr').map((a) => `(${a} = NULL)`),
  ),
})).expr;
