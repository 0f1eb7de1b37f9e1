import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../errors.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Converts a JSON pointer (`/steps/3/next/0/classificationId`) to the JS-like path of
 * ValidationIssue (`steps[3].next[0].classificationId`), appended to `base`.
 */
export function pointerToPath(pointer: string, base = ''): string {
  let path = base;
  if (pointer === '') return path;
  for (const raw of pointer.slice(1).split('/')) {
    path = appendPath(path, raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return path;
}

/** Appends one property name or array index to a JS-like path. */
export function appendPath(path: string, segment: string | number): string {
  if (typeof segment === 'number' || /^(?:0|[1-9][0-9]*)$/.test(segment)) {
    return `${path}[${segment}]`;
  }
  if (IDENTIFIER.test(segment)) return path === '' ? segment : `${path}.${segment}`;
  return `${path}[${JSON.stringify(segment)}]`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function describeType(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ');
}

const COMPARISONS: Record<string, string> = {
  '>=': 'at least',
  '<=': 'at most',
  '>': 'greater than',
  '<': 'less than',
};

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describe(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const description = (schema as { description?: unknown }).description;
  return typeof description === 'string' ? description : undefined;
}

/** The keys one branch of an `exactlyOne` oneOf requires. */
function branchKeys(schema: unknown): string[] {
  if (!Array.isArray(schema)) return [];
  return schema.flatMap((branch: unknown) => {
    const required = (branch as { required?: unknown } | null)?.required;
    return Array.isArray(required) ? required.map(String) : [];
  });
}

/** Options of {@link ajvErrorsToIssues}. */
export interface AjvIssueOptions {
  /**
   * The code of every issue (SCHEMA for the definition, CONFIG_INVALID for executor configs).
   * Without one, each issue gets the code of its kind: REQUIRED, UNKNOWN_PROPERTY, INVALID_TYPE
   * or INVALID_VALUE (request input of the resource services).
   */
  readonly code?: string;
  /** The path the ajv instance paths are relative to (`steps[2].config`). */
  readonly basePath?: string;
  /** Turns a "not allowed here" path into a reason (`on a TRIGGER step`). */
  readonly context?: (path: string) => string | undefined;
}

/**
 * Maps ajv errors (compiled with `allErrors` and `verbose`) to ValidationIssues with readable
 * messages. Drops the noise of combinators: `if` echoes, and the branch errors of a `oneOf`
 * that is reported as a whole.
 */
export function ajvErrorsToIssues(
  errors: readonly ErrorObject[] | null | undefined,
  options: AjvIssueOptions,
): ValidationIssue[] {
  if (!errors) return [];
  const combinators = errors
    .filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')
    .map((e) => `${e.schemaPath}/`);
  const kept = errors.filter(
    (e) => e.keyword !== 'if' && !combinators.some((prefix) => e.schemaPath.startsWith(prefix)),
  );
  // An anyOf whose branch errors went through a $ref (other schema paths) already has a more
  // precise error at the same place ("must be one of …"); its own "must match a schema in
  // anyOf" adds nothing.
  const precise = new Set(kept.filter((e) => e.keyword !== 'anyOf').map((e) => e.instancePath));
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    if (error.keyword === 'anyOf' && precise.has(error.instancePath)) continue;
    const issue = toIssue(error, options);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** The code of an issue of `keyword` when the caller gives none. */
function keywordCode(keyword: string): string {
  switch (keyword) {
    case 'required':
      return 'REQUIRED';
    case 'additionalProperties':
    case 'false schema':
      return 'UNKNOWN_PROPERTY';
    case 'type':
      return 'INVALID_TYPE';
    default:
      return 'INVALID_VALUE';
  }
}

function toIssue(error: ErrorObject, options: AjvIssueOptions): ValidationIssue {
  const issue = describeError(error, options);
  return options.code === undefined ? { ...issue, code: keywordCode(error.keyword) } : issue;
}

function describeError(error: ErrorObject, options: AjvIssueOptions): ValidationIssue {
  const code = options.code ?? '';
  const path = pointerToPath(error.instancePath, options.basePath ?? '');
  const params = error.params as Record<string, unknown>;
  const where = (p: string) => {
    const reason = options.context?.(p);
    return reason ? ` ${reason}` : '';
  };
  switch (error.keyword) {
    case 'required': {
      const missing = appendPath(path, String(params.missingProperty));
      return { code, path: missing, message: 'is required' };
    }
    case 'additionalProperties': {
      const extra = appendPath(path, String(params.additionalProperty));
      return { code, path: extra, message: `is not allowed${where(extra)}` };
    }
    case 'false schema':
      return { code, path, message: `is not allowed${where(path)}` };
    case 'type':
      return { code, path, message: `must be ${describeType(params.type)}` };
    case 'enum':
      return {
        code,
        path,
        message: `must be one of ${quoteList((params.allowedValues as unknown[]) ?? [])}`,
      };
    case 'const':
      return {
        code,
        path,
        message: `must be ${JSON.stringify(params.allowedValue)}`,
      };
    case 'pattern':
    case 'format':
      return {
        code,
        path,
        message: `must be ${describe(error.parentSchema) ?? `matching ${String(params.pattern ?? params.format)}`}`,
      };
    case 'not':
      return { code, path, message: `must be ${describe(error.parentSchema) ?? 'different'}` };
    case 'minLength':
      return {
        code,
        path,
        message:
          params.limit === 1
            ? 'must not be empty'
            : `must have at least ${plural(Number(params.limit), 'character')}`,
      };
    case 'maxLength':
      return {
        code,
        path,
        message: `must have at most ${plural(Number(params.limit), 'character')}`,
      };
    case 'minItems':
      return {
        code,
        path,
        message: `must have at least ${plural(Number(params.limit), 'item')}`,
      };
    case 'maxItems': {
      const description = describe(error.parentSchema);
      return {
        code,
        path,
        message: description
          ? `must be ${description}`
          : `must have at most ${plural(Number(params.limit), 'item')}`,
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        code,
        path,
        message: `must be ${COMPARISONS[String(params.comparison)] ?? String(params.comparison)} ${String(params.limit)}`,
      };
    case 'oneOf': {
      const keys = branchKeys(error.schema);
      return {
        code,
        path,
        message:
          keys.length > 0
            ? `must have exactly one of ${keys.join(', ')}`
            : 'must match exactly one allowed shape',
      };
    }
    default:
      return { code, path, message: error.message ?? `fails ${error.keyword}` };
  }
}
