import jsonata from 'jsonata';
import { EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';
import type { GraphAnalysis } from './analyze-graph.ts';
import { checkConditional } from './check-conditions.ts';
import { checkJsonSchema } from './check-json-schema.ts';
import { checkRouting } from './check-routing.ts';
import { DefinitionIssueCode as Code } from './definition-issue-code.ts';
import { type FormulaChecker, formulaChecker } from './formula-checker.ts';
import { safeParseFormula } from './safe-parse-formula.ts';
import { asArray, asRecord, asString, type StepView } from './step-view.ts';
import type { ProcessorKind } from './workflow-definition.ts';

/**
 * What a processor resolver says about a saved processor reference. `{ status: 'ok',
 * classificationIds }` also lets CLASSIFY and SPLIT routing be checked against a saved
 * classifier's or splitter's classifications.
 */
export type ProcessorResolution =
  | 'ok'
  | 'not_found'
  | 'not_pinned'
  | { readonly status: 'ok'; readonly classificationIds?: readonly string[] };

/** Looks up saved processors during validation (synchronous: preload what it needs). */
export interface ProcessorResolver {
  resolve?(kind: ProcessorKind, id: string, version: string): ProcessorResolution;
}

type Issues = ValidationIssue[];

function checkReference(
  issues: Issues,
  kind: ProcessorKind,
  reference: unknown,
  path: string,
  pinned: boolean,
  resolver: ProcessorResolver | undefined,
): readonly string[] | undefined {
  const ref = asRecord(reference);
  const id = asString(ref?.id);
  const version = asString(ref?.version);
  if (id === undefined || version === undefined) return undefined;
  if (pinned && version === 'latest') {
    issues.push({
      code: Code.VERSION_NOT_PINNED,
      path: `${path}.version`,
      message: `must pin a version ("draft" or a published one such as "1.0"), not "latest": routing ids belong to one ${kind} version`,
    });
    return undefined;
  }
  const resolution = resolver?.resolve?.(kind, id, version);
  if (typeof (resolution as { then?: unknown } | undefined)?.then === 'function') {
    throw new EngineError(
      EngineErrorCode.INVALID_CONFIGURATION,
      'processors.resolve must return its answer synchronously (preload what it needs)',
    );
  }
  if (resolution === 'not_found') {
    issues.push({
      code: Code.PROCESSOR_NOT_FOUND,
      path,
      message: `no ${kind} "${id}" at version "${version}"`,
    });
  } else if (resolution === 'not_pinned') {
    issues.push({
      code: Code.VERSION_NOT_PINNED,
      path: `${path}.version`,
      message: `"${version}" is not a pinned version of ${kind} "${id}"`,
    });
  } else if (typeof resolution === 'object') {
    return resolution.classificationIds;
  }
  return undefined;
}
function checkClassifications(issues: Issues, list: unknown, path: string): string[] {
  const ids: string[] = [];
  const firstIndex = new Map<string, number>();
  let others = 0;
  asArray(list).forEach((raw, k) => {
    const item = asRecord(raw);
    const id = asString(item?.id);
    if (asString(item?.type) === 'other') others++;
    if (id === undefined) return;
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, k);
      ids.push(id);
    } else {
      issues.push({
        code: Code.DUPLICATE_CLASSIFICATION_ID,
        path: `${path}[${k}].id`,
        message: `"${id}" is already the id of ${path}[${first}]`,
      });
    }
  });
  if (Array.isArray(list) && list.length > 0 && others !== 1) {
    issues.push({
      code: Code.OTHER_CLASSIFICATION_COUNT,
      path,
      message: `must have exactly one classification of type "other" (the fallback), found ${others}`,
    });
  }
  return ids;
}
function checkRoutingStep(
  issues: Issues,
  step: StepView,
  kind: 'classifier' | 'splitter',
  resolver: ProcessorResolver | undefined,
): void {
  const base = `steps[${step.index}].config`;
  const config = asRecord(step.config);
  if (!config) return;
  const inlineKey = kind === 'classifier' ? 'classifierConfig' : 'splitterConfig';
  const listKey = kind === 'classifier' ? 'classifications' : 'splitClassifications';
  const inline = asRecord(config[inlineKey]);
  let ids: readonly string[] | undefined;
  if (config[kind] !== undefined && inline === undefined) {
    ids = checkReference(issues, kind, config[kind], `${base}.${kind}`, true, resolver);
  } else if (inline && config[kind] === undefined) {
    ids = checkClassifications(issues, inline[listKey], `${base}.${inlineKey}.${listKey}`);
  }
  checkRouting(issues, step, 'classificationId', ids, 'classifications');
}
function checkRuleValidation(issues: Issues, step: StepView, formulas: FormulaChecker): void {
  const base = `steps[${step.index}].config.rules`;
  const firstIndex = new Map<string, number>();
  asArray(asRecord(step.config)?.rules).forEach((raw, k) => {
    const rule = asRecord(raw);
    const name = asString(rule?.name);
    if (name !== undefined) {
      const first = firstIndex.get(name);
      if (first === undefined) {
        firstIndex.set(name, k);
      } else {
        issues.push({
          code: Code.DUPLICATE_RULE_NAME,
          path: `${base}[${k}].name`,
          message: `"${name}" is already the name of ${base}[${first}]; results are reported by name`,
        });
      }
    }
    formulas.source(step.index, rule?.formula, `${base}[${k}].formula`);
  });
}

function checkConditionalExtract(
  issues: Issues,
  step: StepView,
  resolver: ProcessorResolver | undefined,
  formulas: FormulaChecker,
): void {
  const base = `steps[${step.index}].config.rules`;
  const rules = asArray(asRecord(step.config)?.rules);
  rules.forEach((raw, k) => {
    const rule = asRecord(raw);
    formulas.source(step.index, rule?.formula, `${base}[${k}].formula`);
    checkReference(
      issues,
      'extractor',
      rule?.extractor,
      `${base}[${k}].extractor`,
      false,
      resolver,
    );
  });
  const lastIndex = rules.length - 1;
  const formula = asString(asRecord(rules[lastIndex])?.formula);
  if (formula === undefined) return;
  const parsed = safeParseFormula(formula);
  const isTrue = parsed.ok && parsed.ast.kind === 'boolean' && parsed.ast.value;
  if (!isTrue) {
    issues.push({
      code: Code.LAST_RULE_NOT_TRUE,
      path: `${base}[${lastIndex}].formula`,
      message: `the last rule is the catch-all and its formula must be TRUE, found ${JSON.stringify(formula)}`,
    });
  }
}

// Parsing JSONata costs about 0.3 ms; a workflow's body is checked again on every update and
// deploy, so remember recent answers (bounded: cleared when full).
const jsonataProblems = new Map<string, string | null>();
const JSONATA_CACHE_SIZE = 256;

function jsonataProblem(body: string): string | null {
  const known = jsonataProblems.get(body);
  if (known !== undefined) return known;
  let problem: string | null = null;
  try {
    jsonata(body);
  } catch (error) {
    const e = asRecord(error);
    const position = typeof e?.position === 'number' ? ` at position ${e.position}` : '';
    const code = asString(e?.code);
    problem = `is not a valid JSONata expression${position}: ${asString(e?.message) ?? String(error)}${code ? ` (${code})` : ''}`;
  }
  if (jsonataProblems.size >= JSONATA_CACHE_SIZE) jsonataProblems.clear();
  jsonataProblems.set(body, problem);
  return problem;
}

function checkWebhookResponse(issues: Issues, step: StepView): void {
  const body = asString(asRecord(step.config)?.body);
  if (body === undefined || body.trim() === '') return;
  const problem = jsonataProblem(body);
  if (problem !== null) {
    issues.push({
      code: Code.JSONATA_PARSE_ERROR,
      path: `steps[${step.index}].config.body`,
      message: problem,
    });
  }
}

const EXTRACTING: ReadonlySet<string> = new Set([
  'EXTRACT',
  'CONDITIONAL_EXTRACT',
  'MERGE_EXTRACT',
]);

interface UpstreamIndex {
  readonly predecessors: readonly (readonly number[])[];
  readonly names: Map<number, ReadonlySet<string>>;
}

const upstreamIndexes = new WeakMap<GraphAnalysis, UpstreamIndex>();

/** Names of the steps with a route to step `index` (its ancestors), computed once per step. */
function upstreamNames(
  steps: readonly StepView[],
  graph: GraphAnalysis,
  index: number,
): ReadonlySet<string> {
  let upstream = upstreamIndexes.get(graph);
  if (!upstream) {
    const predecessors: number[][] = steps.map(() => []);
    graph.successors.forEach((targets, from) => {
      for (const to of targets) predecessors[to]?.push(from);
    });
    upstream = { predecessors, names: new Map() };
    upstreamIndexes.set(graph, upstream);
  }
  const known = upstream.names.get(index);
  if (known) return known;
  const seen = new Set<number>([index]);
  const names = new Set<string>();
  const queue = [index];
  for (let head = 0; head < queue.length; head++) {
    for (const from of upstream.predecessors[queue[head] ?? 0] ?? []) {
      if (seen.has(from)) continue;
      seen.add(from);
      queue.push(from);
      const name = steps[from]?.name;
      if (name !== undefined) names.add(name);
    }
  }
  upstream.names.set(index, names);
  return names;
}

function checkMergeExtract(
  issues: Issues,
  step: StepView,
  steps: readonly StepView[],
  graph: GraphAnalysis,
): void {
  if (!graph.acyclic || !graph.reachable?.[step.index]) return;
  for (const name of upstreamNames(steps, graph, step.index)) {
    const index = graph.indexByName.get(name);
    if (index !== undefined && EXTRACTING.has(steps[index]?.type ?? '')) return;
  }
  issues.push({
    code: Code.NOTHING_TO_MERGE,
    path: `steps[${step.index}]`,
    message: `"${step.name}" merges extractions, but no EXTRACT, CONDITIONAL_EXTRACT or MERGE_EXTRACT step is upstream`,
  });
}

function checkRetry(issues: Issues, step: StepView): void {
  const retry = asRecord(step.retry);
  const initial = retry?.initialIntervalMs;
  const max = retry?.maxIntervalMs;
  if (typeof initial === 'number' && typeof max === 'number' && max < initial) {
    issues.push({
      code: Code.RETRY_INVALID,
      path: `steps[${step.index}].retry.maxIntervalMs`,
      message: `must be at least initialIntervalMs (${initial})`,
    });
  }
}

/**
 * The checks of one step's own config: processor references, classifications, conditions,
 * rules, formulas, the webhook body, merge inputs and retry settings.
 */
export function checkStepConfigs(
  steps: readonly StepView[],
  graph: GraphAnalysis,
  resolver: ProcessorResolver | undefined,
): ValidationIssue[] {
  const issues: Issues = [];
  const formulas = formulaChecker(issues, new Set(graph.indexByName.keys()), (index) =>
    upstreamNames(steps, graph, index),
  );
  for (const step of steps) {
    checkRetry(issues, step);
    switch (step.type) {
      case 'EXTRACT':
        issues.push(
          ...checkJsonSchema(
            asRecord(asRecord(step.config)?.extractorConfig)?.schema,
            `steps[${step.index}].config.extractorConfig.schema`,
          ),
        );
        checkReference(
          issues,
          'extractor',
          asRecord(step.config)?.extractor,
          `steps[${step.index}].config.extractor`,
          false,
          resolver,
        );
        break;
      case 'CLASSIFY':
        checkRoutingStep(issues, step, 'classifier', resolver);
        break;
      case 'SPLIT':
        checkRoutingStep(issues, step, 'splitter', resolver);
        break;
      case 'CONDITIONAL':
        checkConditional(issues, step, formulas);
        break;
      case 'RULE_VALIDATION':
        checkRuleValidation(issues, step, formulas);
        break;
      case 'CONDITIONAL_EXTRACT':
        checkConditionalExtract(issues, step, resolver, formulas);
        break;
      case 'WEBHOOK_RESPONSE':
        checkWebhookResponse(issues, step);
        break;
      case 'MERGE_EXTRACT':
        checkMergeExtract(issues, step, steps, graph);
        break;
      default:
        break;
    }
  }
  return issues;
}
