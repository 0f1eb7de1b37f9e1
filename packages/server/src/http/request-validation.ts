/**
 * One Ajv instance validates every request part; the same JSON Schemas make `GET /openapi.json`.
 * Query strings arrive as text: before validation each value is turned into the type its
 * schema declares (`maxPageSize=5` → 5, `convertToPdf=true` → true), and nothing else is
 * coerced: a JSON body with `"priority": "5"` is refused, not guessed at.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ApiError, type ApiIssue } from './api-error.ts';

/** A JSON Schema as plain data (the server writes them as literals). */
export type JsonSchema = { readonly [key: string]: unknown };

/** The part of a request a schema checks; it prefixes the paths of issues. */
export type RequestPart = 'body' | 'query' | 'params';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
// OpenAPI keywords the documents carry beside the validation keywords.
ajv.addVocabulary(['example']);

function propertyPath(part: RequestPart, error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path: string = part;
  for (const s of segments) path += /^\d+$/.test(s) ? `[${s}]` : `.${s}`;
  return path;
}

type Branch = { readonly required?: readonly string[] };

/**
 * Errors inside `oneOf` alternatives say little on their own (every alternative fails). When the
 * value has the required keys of exactly one alternative, that alternative's errors are kept;
 * otherwise one issue lists the alternatives.
 */
function resolveAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const out: ErrorObject[] = [];
  const dropped: string[] = [];
  const kept: string[] = [];
  for (const error of errors) {
    if (error.keyword !== 'oneOf') continue;
    const branches = ((error.parentSchema as { oneOf?: Branch[] } | undefined)?.oneOf ??
      []) as Branch[];
    const data = error.data;
    const present = (b: Branch) =>
      typeof data === 'object' && data !== null && (b.required ?? []).every((k) => k in data);
    const matching = branches.flatMap((b, i) => (present(b) ? [i] : []));
    if (matching.length === 1) kept.push(`${error.schemaPath}/${matching[0]}/`);
    else {
      dropped.push(`${error.schemaPath}/`);
      const shapes = branches.map((b) => `{ ${(b.required ?? []).join(', ')} }`).join(', ');
      out.push({ ...error, message: `must be one of ${shapes}` });
    }
  }
  for (const error of errors) {
    if (error.keyword === 'oneOf') continue;
    if (dropped.some((p) => error.schemaPath.startsWith(p))) continue;
    const inBranch = /\/oneOf\/\d+\//.test(error.schemaPath);
    if (inBranch && !kept.some((p) => error.schemaPath.startsWith(p))) continue;
    out.push(error);
  }
  return out;
}

/** Turns Ajv's errors into issues that name the offending path and, for unknown keys, the key. */
export function ajvIssues(part: RequestPart, errors: readonly ErrorObject[]): ApiIssue[] {
  const issues: ApiIssue[] = [];
  const seen = new Set<string>();
  for (const error of resolveAlternatives(errors)) {
    const at = propertyPath(part, error);
    let issue: ApiIssue;
    if (error.keyword === 'additionalProperties') {
      const name = String((error.params as { additionalProperty: string }).additionalProperty);
      issue =
        part === 'query'
          ? {
              code: 'UNKNOWN_PARAMETER',
              path: `query.${name}`,
              message: `unknown query parameter "${name}"`,
            }
          : { code: 'UNKNOWN_KEY', path: `${at}.${name}`, message: `unknown key "${name}"` };
    } else if (error.keyword === 'required') {
      const name = String((error.params as { missingProperty: string }).missingProperty);
      issue = { code: 'REQUIRED', path: `${at}.${name}`, message: 'is required' };
    } else if (error.keyword === 'enum') {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      issue = {
        code: 'INVALID_VALUE',
        path: at,
        message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
      };
    } else if (error.keyword === 'const') {
      const allowed = (error.params as { allowedValue: unknown }).allowedValue;
      issue = { code: 'INVALID_VALUE', path: at, message: `must be ${JSON.stringify(allowed)}` };
    } else if (error.keyword === 'oneOf') {
      issue = { code: 'INVALID_SHAPE', path: at, message: error.message ?? 'has the wrong shape' };
    } else {
      issue = {
        code: `INVALID_${error.keyword.toUpperCase()}`,
        path: at,
        message: error.message ?? 'is invalid',
      };
    }
    const key = `${issue.path}\0${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

/** The 400 of a request whose `part` failed its schema. */
export function validationError(part: RequestPart, errors: readonly ErrorObject[]): ApiError {
  const issues = ajvIssues(part, errors);
  const first = issues[0];
  const summary =
    issues.length === 1 && first
      ? `${first.path}: ${first.message}`
      : `${issues.length} problems, first ${first?.path}: ${first?.message}`;
  return new ApiError('INVALID_REQUEST', `Invalid request: ${summary}`, { issues });
}

function declaredType(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const type = (schema as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** Query values typed by their schema; text that is no such value stays text and fails validation. */
function coerceQuery(schema: JsonSchema, query: Record<string, unknown>): void {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') continue;
    const type = declaredType(properties[name]);
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) {
      query[name] = Number(value);
    } else if (type === 'boolean' && (value === 'true' || value === 'false')) {
      query[name] = value === 'true';
    }
  }
}

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The validator of `schema` (compiled once per schema object). */
export function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Checks one request part; throws the 400 naming every offending path. */
export function checkPart(part: RequestPart, schema: JsonSchema, data: unknown): void {
  if (part === 'query' && typeof data === 'object' && data !== null) {
    coerceQuery(schema, data as Record<string, unknown>);
  }
  const validate = validatorOf(schema);
  if (!validate(data ?? (part === 'body' ? undefined : {}))) {
    throw validationError(part, validate.errors ?? []);
  }
}

/** Fastify's validator compiler over the one Ajv instance. */
export function fastifyValidatorCompiler({
  schema,
  httpPart,
}: {
  schema: JsonSchema;
  httpPart?: string;
}): (data: unknown) => { error?: Error; value?: unknown } {
  const part: RequestPart =
    httpPart === 'querystring' ? 'query' : httpPart === 'params' ? 'params' : 'body';
  validatorOf(schema);
  return (data) => {
    try {
      checkPart(part, schema, data);
      return { value: data };
    } catch (error) {
      return { error: error as Error };
    }
  };
}
