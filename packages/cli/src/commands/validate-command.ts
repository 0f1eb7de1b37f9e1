/** `docflow validate <workflow.json>`: every definition issue, with its path. */
import { resolve } from 'node:path';
import type { ValidationIssue } from '@docflow/engine';
import type { CliContext } from '../cli-context.ts';
import { ExitCode } from '../cli-error.ts';
import { loadDefinition } from '../load-definition.ts';
import { formatTable } from '../output/table.ts';

/** Prints definition issues as a table on stderr. */
export function printIssues(
  context: CliContext,
  file: string,
  issues: readonly ValidationIssue[],
): void {
  const { err } = context;
  context.warn(`${err.red('✗')} ${file}: ${issues.length} issue${issues.length === 1 ? '' : 's'}`);
  context.warn(
    formatTable(
      ['PATH', 'CODE', 'MESSAGE'].map((h) => err.bold(h)),
      issues.map((i) => [err.cyan(i.path || '(root)'), err.yellow(i.code), i.message]),
    ),
  );
}

/** Runs the command; resolves with 0 when the definition is valid, 1 otherwise. */
export async function validateCommand(
  context: CliContext,
  workflowPath: string,
  options: { readonly json?: boolean },
): Promise<number> {
  const file = await loadDefinition(resolve(context.cwd, workflowPath));
  const [{ validateWorkflowDefinition }, { builtinSteps }] = await Promise.all([
    import('@docflow/engine'),
    import('@docflow/steps'),
  ]);
  const executors = new Map(builtinSteps().map((s) => [s.type, s]));
  const issues = validateWorkflowDefinition(file.definition, { executors });
  if (options.json) {
    context.print(JSON.stringify({ valid: issues.length === 0, issues }, null, 2));
  } else if (issues.length === 0) {
    context.print(`${context.out.green('✓')} ${workflowPath}: valid (${file.steps.length} steps)`);
  } else {
    printIssues(context, workflowPath, issues);
  }
  return issues.length === 0 ? ExitCode.OK : ExitCode.FAILURE;
}
