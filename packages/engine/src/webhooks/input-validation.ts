/**
 * JSON Schema validation of webhook service input (ajv), turning ajv's errors into
 * {@link ValidationIssue}s with JS-like paths (`enabledEvents[2]`), plus the list helpers the
 * three services share.
 */

import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { EngineError, EngineErrorCode, type ValidationIssue } from '../errors.ts';
import { checkUrl, urlPolicy } from '../net/url-policy.ts';
import type { PageParams } from '../resources/list-result.ts';

const ajv = new Ajv({ allErrors: true, strict: true });

/** Compiles a schema once; the returned function lists issues (empty when valid). */
export function compileInputSchema(schema: object): (input: unknown) => ValidationIssue[] {
  const validate: ValidateFunction = ajv.compile(schema);
  return (input) => (validate(input) ? [] : (validate.errors ?? []).map(toIssue));
}

function jsPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

function join(base: string, child: string): string {
  return base === '' ? child : `${base}.${child}`;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const base = jsPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        code: 'REQUIRED',
        path: join(base, String(params.missingProperty)),
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        code: 'UNKNOWN_PROPERTY',
        path: join(base, String(params.additionalProperty)),
        message: 'is not a known property',
      };
    case 'type':
      return { code: 'INVALID_TYPE', path: base || '(input)', message: `must be ${params.type}` };
    case 'enum':
      return {
        code: 'INVALID_VALUE',
        path: base || '(input)',
        message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    default:
      return {
        code: 'INVALID_VALUE',
        path: base || '(input)',
        message: error.message ?? 'is invalid',
      };
  }
}

// What no delivery policy can allow: credentials in the URL, other schemes, link-local and cloud
// metadata addresses. Loopback and private addresses are decided when delivering, by the
// dispatcher's urlPolicy (a test receiver on 127.0.0.1 is a valid endpoint to create).
const CREATION_POLICY = urlPolicy('workflow', { allowLoopback: true, allowPrivate: true });

/** Issues for a webhook URL: absolute, http or https, no credentials, no link-local or metadata address. */
export function urlIssues(url: unknown, path: string): ValidationIssue[] {
  if (typeof url !== 'string') return [];
  const checked = checkUrl(url, CREATION_POLICY);
  if (checked.ok) return [];
  return [{ code: 'INVALID_URL', path, message: `is refused: it ${checked.reason}` }];
}

/** Throws NOT_FOUND for a missing resource, naming it and, when given, the input path. */
export function notFound(what: string, id: string, path?: string): EngineError {
  return new EngineError(EngineErrorCode.NOT_FOUND, `No ${what} with id ${id}`, {
    details:
      path === undefined
        ? { id }
        : { id, issues: [{ code: 'NOT_FOUND', path, message: `no ${what} with id ${id}` }] },
  });
}

/** Pagination input and list responses are the engine's own (`resources/list-result.ts`). */
export type {
  ListResult as ListResponse,
  PageParams as PageInput,
} from '../resources/list-result.ts';
export { toListResult as toList } from '../resources/list-result.ts';

/** Issues of pagination input. */
export function pageIssues(input: PageParams): ValidationIssue[] {
  const size = input.maxPageSize;
  if (size === undefined) return [];
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    return [
      { code: 'INVALID_VALUE', path: 'maxPageSize', message: 'must be an integer from 1 to 1000' },
    ];
  }
  return [];
}
