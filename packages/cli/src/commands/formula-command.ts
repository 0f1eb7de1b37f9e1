/** `docflow formula "<formula>" --data data.json`: evaluates a validation formula. */
import { resolve } from 'node:path';
import {
  type Diagnostic,
  evaluateFormula,
  type FormulaScope,
  type FormulaValue,
} from '@docflow/formulas';
import type { CliContext } from '../cli-context.ts';
import { CliError, ExitCode } from '../cli-error.ts';
import { loadJsonFile } from '../load-json-file.ts';

/** Options of `docflow formula`. */
export interface FormulaOptions {
  readonly data?: string;
  readonly json?: boolean;
}

/** A formula value as the formula language writes it: TRUE, FALSE, NULL, numbers, text. */
export function showValue(value: FormulaValue): string {
  if (value === null) return 'NULL';
  if (value === true) return 'TRUE';
  if (value === false) return 'FALSE';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function pointAt(formula: string, diagnostic: Diagnostic): string {
  const { start, end } = diagnostic.span;
  return `  ${formula}\n  ${' '.repeat(start)}${'^'.repeat(Math.max(1, end - start))}`;
}

/** Runs the command; resolves with 1 on a parse or value error. */
export async function formulaCommand(
  context: CliContext,
  formula: string,
  options: FormulaOptions,
): Promise<number> {
  let scope: FormulaScope = {};
  if (options.data !== undefined) {
    const data = await loadJsonFile(resolve(context.cwd, options.data), 'data file');
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new CliError(
        `data file ${options.data} must hold a JSON object (the formula's variables)`,
      );
    }
    scope = data as FormulaScope;
  }
  const result = evaluateFormula(formula, scope);
  if (options.json) {
    context.print(JSON.stringify(result, null, 2));
    return result.ok ? ExitCode.OK : ExitCode.FAILURE;
  }
  if (result.ok) {
    context.print(showValue(result.value));
    return ExitCode.OK;
  }
  const { err } = context;
  context.warn(`${err.red(result.failureReason)}: ${result.error}`);
  for (const diagnostic of result.diagnostics) {
    context.warn(err.dim(pointAt(formula, diagnostic)));
  }
  return ExitCode.FAILURE;
}
