import type { FormulaAst } from '../ast.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { parseFormula } from '../parse-formula.ts';
import { compileAst } from './compile-ast.ts';
import type { Compiled } from './compiled.ts';

/** A parsed and compiled formula, independent of options (so it can be cached by source). */
export interface Program {
  readonly ast: FormulaAst;
  readonly run: Compiled;
  readonly dependencies: readonly string[];
  /** Upper-case names of the functions called. */
  readonly calls: readonly string[];
}

/** A program, or the diagnostics of a formula that does not parse. */
export type ProgramResult =
  | { readonly ok: true; readonly program: Program }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

function collect(ast: FormulaAst, paths: Set<string>, calls: Set<string>): void {
  switch (ast.kind) {
    case 'path':
      paths.add(ast.segments.join('.'));
      return;
    case 'unary':
      collect(ast.operand, paths, calls);
      return;
    case 'binary':
      collect(ast.left, paths, calls);
      collect(ast.right, paths, calls);
      return;
    case 'call':
      calls.add(ast.name);
      for (const arg of ast.args) collect(arg, paths, calls);
      return;
    default:
      return;
  }
}

/** Compiles a syntax tree into a {@link Program}. */
export function programFromAst(ast: FormulaAst): Program {
  const paths = new Set<string>();
  const calls = new Set<string>();
  collect(ast, paths, calls);
  return { ast, run: compileAst(ast), dependencies: [...paths], calls: [...calls] };
}

const CACHE_LIMIT = 1000;
const cache = new Map<string, ProgramResult>();

/**
 * Parses and compiles a formula, remembering the result by source text (the engine evaluates
 * the same rules for every document). The cache is bounded; the oldest entry goes first.
 */
export function programFor(source: string): ProgramResult {
  const known = typeof source === 'string' ? cache.get(source) : undefined;
  if (known !== undefined) return known;
  const parsed = parseFormula(source);
  const result: ProgramResult = parsed.ok
    ? { ok: true, program: programFromAst(parsed.ast) }
    : { ok: false, diagnostics: parsed.diagnostics };
  if (typeof source === 'string') {
    if (cache.size >= CACHE_LIMIT) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(source, result);
  }
  return result;
}
