import type { ValidationIssue } from '../errors.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import type { StepView } from './step-view.ts';

/** Reports `next` entries whose routing id is not among `ids` (unknown ids: no check). */
export function checkRouting(
  issues: ValidationIssue[],
  step: StepView,
  field: 'classificationId' | 'conditionId',
  ids: readonly string[] | undefined,
  what: string,
): void {
  if (ids === undefined) return;
  const known = new Set(ids);
  for (const entry of step.next) {
    const value = entry[field];
    if (value === undefined || known.has(value)) continue;
    issues.push({
      code: field === 'classificationId' ? Code.UNKNOWN_CLASSIFICATION : Code.UNKNOWN_CONDITION,
      path: `steps[${step.index}].next[${entry.index}].${field}`,
      message: `"${value}" is not an id of this step's ${what} (${ids.map((i) => `"${i}"`).join(', ') || 'none'})`,
    });
  }
}
