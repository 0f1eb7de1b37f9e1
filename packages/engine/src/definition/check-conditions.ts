import type { ValidationIssue } from '../errors.ts';
import { checkRouting } from './check-routing.ts';
import { parseOperand } from './conditional-operand.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import { type FormulaChecker, parseErrorMessage } from './formula-checker.ts';
import { asArray, asRecord, asString, type StepView } from './step-view.ts';
import { BINARY_CONDITION_OPERATIONS, UNARY_CONDITION_OPERATIONS } from './workflow-definition.ts';

const BINARY: ReadonlySet<string> = new Set(BINARY_CONDITION_OPERATIONS);
const UNARY: ReadonlySet<string> = new Set(UNARY_CONDITION_OPERATIONS);

type Issues = ValidationIssue[];

/** The checks of a CONDITIONAL step: ids, branch order, operations, operands, routing. */
export function checkConditional(issues: Issues, step: StepView, formulas: FormulaChecker): void {
  const base = `steps[${step.index}].config.conditions`;
  const conditions = asArray(asRecord(step.config)?.conditions);
  const ids: string[] = [];
  const firstIndex = new Map<string, number>();
  conditions.forEach((raw, k) => {
    const condition = asRecord(raw);
    if (!condition) return;
    const path = `${base}[${k}]`;
    const id = asString(condition.id);
    if (id !== undefined) {
      const first = firstIndex.get(id);
      if (first === undefined) {
        firstIndex.set(id, k);
        ids.push(id);
      } else {
        issues.push({
          code: Code.DUPLICATE_CONDITION_ID,
          path: `${path}.id`,
          message: `"${id}" is already the id of ${base}[${first}]`,
        });
      }
    }
    const type = asString(condition.type);
    const last = k === conditions.length - 1;
    if (k === 0 && type !== undefined && type !== 'IF') {
      issues.push({
        code: Code.CONDITION_ORDER,
        path: `${path}.type`,
        message: `the first condition must be IF, found ${type}`,
      });
    } else if (k > 0 && type === 'IF') {
      issues.push({
        code: Code.CONDITION_ORDER,
        path: `${path}.type`,
        message: 'IF is only the first condition; use ELSE_IF for later branches',
      });
    }
    if (type === 'ELSE' && !last) {
      issues.push({
        code: Code.CONDITION_ORDER,
        path: `${path}.type`,
        message: 'ELSE is the fallback and must be the last condition (at most one)',
      });
    }
    checkOperands(issues, step.index, condition, type, path, formulas);
  });
  checkRouting(issues, step, 'conditionId', ids, 'conditions');
}

function checkOperands(
  issues: Issues,
  stepIndex: number,
  condition: Readonly<Record<string, unknown>>,
  type: string | undefined,
  path: string,
  formulas: FormulaChecker,
): void {
  const operation = asString(condition.operation);
  const left = condition.leftOperand;
  const right = condition.rightOperand;
  const problem = (field: string, message: string) =>
    issues.push({ code: Code.CONDITION_OPERANDS, path: `${path}.${field}`, message });

  if (type === 'ELSE') {
    if (operation !== undefined && operation !== 'NO_OP') {
      problem('operation', `an ELSE condition has no operation (or NO_OP), found ${operation}`);
    }
    if (left !== undefined) problem('leftOperand', 'is not used by an ELSE condition');
    if (right !== undefined) problem('rightOperand', 'is not used by an ELSE condition');
    return;
  }
  if (type !== 'IF' && type !== 'ELSE_IF') return;
  if (operation === undefined) {
    if (condition.operation === undefined)
      problem('operation', `is required on ${type} conditions`);
    return;
  }
  if (operation === 'NO_OP') {
    problem('operation', `NO_OP is only for ELSE; an ${type} condition needs a test`);
    return;
  }
  if (!BINARY.has(operation) && !UNARY.has(operation)) return;
  if (left === undefined) problem('leftOperand', `is required by ${operation}`);
  if (BINARY.has(operation) && right === undefined) {
    problem('rightOperand', `is required by ${operation}`);
  }
  if (UNARY.has(operation) && right !== undefined) {
    problem('rightOperand', `is not used by ${operation}`);
  }
  if (operation === 'FORMULA') {
    formulas.source(stepIndex, left, `${path}.leftOperand`);
    return;
  }
  for (const [field, value] of [
    ['leftOperand', left],
    ['rightOperand', right],
  ] as const) {
    if (typeof value !== 'string') continue;
    const parsed = parseOperand(value);
    if (parsed.ok) {
      const operand = parsed.operand;
      const parts = operand.kind === 'template' ? operand.parts : [operand];
      for (const part of parts) {
        if (part.kind === 'formula') formulas.variables(stepIndex, part.ast, `${path}.${field}`);
      }
      continue;
    }
    for (const e of parsed.errors) {
      issues.push({
        code: Code.FORMULA_PARSE_ERROR,
        path: `${path}.${field}`,
        message: parseErrorMessage(e),
      });
    }
  }
}
