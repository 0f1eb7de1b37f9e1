import type { FormulaAst } from '@docflow/formulas';
import type { ValidationIssue } from '../errors.ts';
import { closestName } from './closest-name.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import { formulaRoots } from './formula-roots.ts';
import { type FormulaProblem, safeParseFormula } from './safe-parse-formula.ts';

/** The message of a FORMULA_PARSE_ERROR (the parser's own when it names the column). */
export function parseErrorMessage(problem: FormulaProblem): string {
  const where = /\bcolumn\b/.test(problem.message) ? '' : ` (column ${problem.offset + 1})`;
  return `does not parse: ${problem.message}${where}`;
}

/** Parses formulas and checks that their variables name a step or `metadata`. */
export interface FormulaChecker {
  /** Checks a formula of step `step` (an index); its syntax tree when it parses. */
  source(step: number, source: unknown, path: string): FormulaAst | undefined;
  /** Checks the variables of a parsed formula of step `step`. */
  variables(step: number, ast: FormulaAst, path: string): void;
}

/**
 * A {@link FormulaChecker} that appends its issues to `issues`. `upstream(step)` gives the names
 * of the steps that can run before step `step` on some path (undefined: not known, no check).
 */
export function formulaChecker(
  issues: ValidationIssue[],
  stepNames: ReadonlySet<string>,
  upstream: (step: number) => ReadonlySet<string> | undefined,
): FormulaChecker {
  const variables = (step: number, ast: FormulaAst, path: string) => {
    const reported = new Set<string>();
    for (const root of formulaRoots(ast)) {
      if (root === 'metadata' || reported.has(root)) continue;
      reported.add(root);
      if (stepNames.has(root)) {
        const before = upstream(step);
        if (before === undefined || before.has(root)) continue;
        issues.push({
          code: Code.VARIABLE_NOT_UPSTREAM,
          path,
          message: `refers to "${root}", which never runs before this step: its value would always be NULL`,
        });
        continue;
      }
      const hint = closestName(root, [...stepNames, 'metadata']);
      issues.push({
        code: Code.UNKNOWN_VARIABLE,
        path,
        message: `refers to "${root}", which is neither a step nor metadata${hint === undefined ? '' : `; did you mean "${hint}"?`}`,
      });
    }
  };
  return {
    variables,
    source(step, source, path) {
      if (typeof source !== 'string' || source.trim() === '') return undefined;
      const parsed = safeParseFormula(source);
      if (parsed.ok) {
        variables(step, parsed.ast, path);
        return parsed.ast;
      }
      for (const e of parsed.errors) {
        issues.push({ code: Code.FORMULA_PARSE_ERROR, path, message: parseErrorMessage(e) });
      }
      return undefined;
    },
  };
}
