import type { WorkflowRun } from '@docflow/engine';
import type { Style } from './style.ts';
import { styleStatus } from './style.ts';
import { formatTable } from './table.ts';

/** Why a run is where it is, in a few words: its failure, its parked review, its failed rules. */
export function runDetail(run: WorkflowRun): string {
  if (run.failureReason) return `${run.failureReason}: ${run.failureMessage ?? ''}`.trim();
  if (run.rejectionNote) return `rejected: ${run.rejectionNote}`;
  const failedRules: string[] = [];
  for (const step of run.stepRuns) {
    const output = (step.result as { output?: unknown } | null)?.output as
      | { allPassed?: boolean; rules?: { name: string; valid: boolean }[] }
      | undefined;
    if (step.stepType !== 'RULE_VALIDATION' || output?.allPassed !== false) continue;
    for (const rule of output.rules ?? []) if (!rule.valid) failedRules.push(rule.name);
  }
  const rules = failedRules.length > 0 ? `failed rules: ${failedRules.join(', ')}` : '';
  if (run.status === 'NEEDS_REVIEW')
    return ['waiting for review', rules].filter(Boolean).join('; ');
  return rules;
}

/** The table `docflow run` prints: one row per run. */
export function runSummaryTable(
  style: Style,
  rows: readonly { readonly label: string; readonly run: WorkflowRun }[],
): string {
  return formatTable(
    ['FILE', 'RUN', 'STATUS', 'STEPS', 'DETAIL'].map((h) => style.bold(h)),
    rows.map(({ label, run }) => [
      label,
      run.id,
      styleStatus(style, run.status),
      String(run.stepRuns.filter((s) => s.status === 'PROCESSED').length),
      runDetail(run),
    ]),
  );
}
