import type { FormulaAst } from '../ast.ts';
import type { Diagnostic } from '../diagnostic.ts';
import { parseFormula } from '../parse-formula.ts';
import { compileAst } from './compile-ast.ts';
import type { Compiled } from './compiled.ts';

/** A parsed and compiled formula, independent of options (so it can be cached by source). */
export interface Program {
  readonly ast: FormulaAst;
  readonly run: Compiled;
  /** Upper-case names of the functions called. */
  readonly calls: readonly string[];
}

/** A program, or the diagnostics of a formula that does not parse. */
export type ProgramResult =
  | { readonly ok: true; readonly program: Program }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

function collectCalls(ast: FormulaAst, calls: string[]): void {
  switch (ast.kind) {
    case 'unary':
      collectCalls(ast.operand, calls);
      return;
    case 'binary':
      collectCalls(ast.left, calls);
      collectCalls(ast.right, calls);
      return;
    case 'call':
      if (!calls.includes(ast.name)) calls.push(ast.name);
      for (const arg of ast.args) collectCalls(arg, calls);
      return;
    default:
      return;
  }
}

/** The variable paths a formula reads, in order of first appearance (`extract1.total`). */
export function dependenciesOf(ast: FormulaAst, paths: string[] = []): string[] {
  switch (ast.kind) {
    case 'path': {
      const path = ast.segments.join('.');
      if (!paths.includes(path)) paths.push(path);
      break;
    }
    case 'unary':
      dependenciesOf(ast.operand, paths);
      break;
    case 'binary':
      dependenciesOf(ast.left, paths);
      dependenciesOf(ast.right, paths);
      break;
    case 'call':
      for (const arg of ast.args) dependenciesOf(arg, paths);
      break;
  }
  return paths;
}

/** Compiles a syntax tree into a {@link Program}. */
export function programFromAst(ast: FormulaAst): Program {
  const calls: string[] = [];
  collectCalls(ast, calls);
  return { ast, run: compileAst(ast), calls };
}

const CACHE_LIMIT = 1000;
const cache = new Map<string, ProgramResult>();

/** Parses and compiles a formula without the cache (for callers that keep the result). */
export function compileProgram(source: string): ProgramResult {
  const parsed = parseFormula(source);
  return parsed.ok
    ? { ok: true, program: programFromAst(parsed.ast) }
    : { ok: false, diagnostics: parsed.diagnostics };
}

/**
 * Parses and compiles a formula, remembering the result by source text (the engine evaluates
 * the same rules for every document). The cache is bounded; the oldest entry goes first.
 */
export function programFor(source: string): ProgramResult {
  const known = typeof source === 'string' ? cache.get(source) : undefined;
  if (known !== undefined) return known;
  const result = compileProgram(source);
  if (typeof source === 'string') {
    if (cache.size >= CACHE_LIMIT) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(source, result);
  }
  return result;
}
