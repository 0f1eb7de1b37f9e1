/** What a run did with each part of the packet: its type, invoice number, total and checks. */
import type { StepRun, WorkflowRun } from '@docflow/engine';
import type { JsonValue } from '@docflow/storage';

/** One part of the packet as the run saw it. */
export interface PartSummary {
  readonly file: string;
  readonly type: string;
  readonly invoiceNumber: string | null;
  readonly total: number | null;
  /** `passed after review`: the rules failed, then passed over the reviewer's corrections. */
  readonly checks: 'passed' | 'failed' | 'passed after review' | '-';
}

/** An EXTRACT step's output: the value and its per-field metadata. */
export type ExtractOutput = { value: Record<string, JsonValue>; metadata?: JsonValue };

/** The parts of a step run's result this example reads. */
export const resultOf = (step: StepRun | undefined) =>
  (step?.result ?? {}) as {
    output?: { id?: string; type?: string; allPassed?: boolean };
    /** A RULE_VALIDATION result a review changed keeps its first evaluation here. */
    initialOutput?: { allPassed?: boolean };
    classifyRun?: { output?: { type?: string } };
    extractRun?: { output?: ExtractOutput };
  };

/** The step run of `stepName` on the same file as `step` (a split part). */
export function onSameFile(run: WorkflowRun, step: StepRun, stepName: string): StepRun | undefined {
  const fileId = step.files[0]?.id;
  return run.stepRuns.find((s) => s.step.name === stepName && s.files[0]?.id === fileId);
}

/** The per-part summary: the CLASSIFY, EXTRACT and RULE_VALIDATION step runs of each file. */
export function summarizeParts(run: WorkflowRun): PartSummary[] {
  const classifies = run.stepRuns.filter((s) => s.step.name === 'classify');
  return classifies.map((classify) => {
    const value = resultOf(onSameFile(run, classify, 'invoice')).extractRun?.output?.value;
    const { output: checks, initialOutput: firstChecks } = resultOf(
      onSameFile(run, classify, 'checks'),
    );
    return {
      file: classify.files[0]?.name ?? '?',
      type: resultOf(classify).classifyRun?.output?.type ?? resultOf(classify).output?.type ?? '?',
      invoiceNumber: typeof value?.invoice_number === 'string' ? value.invoice_number : null,
      total: typeof value?.total === 'number' ? value.total : null,
      checks:
        checks === undefined
          ? '-'
          : !checks.allPassed
            ? 'failed'
            : firstChecks?.allPassed === false
              ? 'passed after review'
              : 'passed',
    };
  });
}
