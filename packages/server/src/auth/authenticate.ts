import { ApiError, invalidRequest } from '../http/api-error.ts';
import { API_VERSION, type RequestHeaderNames } from '../http/header-names.ts';
import type { ApiKeyRecord, ServerRegistry, Workspace } from '../registry/registry.ts';
import { hashApiKey, isWellFormedApiKey } from './api-keys.ts';

/** Who is asking and for which workspace. */
export interface Caller {
  readonly key: ApiKeyRecord;
  readonly workspace: Workspace;
}

type Headers = { readonly [name: string]: string | string[] | undefined };

function single(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message);

/**
 * The caller of a request (the interface's Authentication): `Authorization: Bearer <key>`; a workspace
 * key reaches its own workspace, an organization key the workspace its header names. Throws
 * 401 for a missing, malformed, unknown or revoked key, 400 for an organization key without the
 * workspace header, 403 for a workspace the key cannot reach.
 */
export function authenticate(
  registry: ServerRegistry,
  names: RequestHeaderNames,
  headers: Headers,
): Caller {
  const authorization = single(headers, 'authorization');
  if (authorization === undefined || authorization.trim() === '') {
    throw unauthorized('Missing Authorization header: send "Authorization: Bearer <API key>"');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('Malformed Authorization header: expected "Bearer <API key>"');
  const token = match[1] as string;
  if (!isWellFormedApiKey(token)) {
    throw unauthorized('Malformed API key: docflow keys are "dfk_" and 43 characters');
  }
  const key = registry.findApiKeyByHash(hashApiKey(token));
  if (!key) throw unauthorized('Unknown API key');
  if (key.revokedAt !== null) throw unauthorized('The API key was revoked');
  const requested = single(headers, names.workspaceId)?.trim() || undefined;
  if (key.scope === 'workspace') {
    if (requested !== undefined && requested !== key.workspaceId) {
      throw new ApiError(
        'FORBIDDEN',
        `This key works for its own workspace only, not ${JSON.stringify(requested)}`,
      );
    }
    const workspace = registry.getWorkspace(key.workspaceId as string);
    if (!workspace) throw unauthorized('The workspace of this key no longer exists');
    return { key, workspace };
  }
  if (requested === undefined) {
    throw invalidRequest(
      `header.${names.workspaceId}`,
      'is required with an organization key: name the workspace to act in',
      'REQUIRED',
    );
  }
  const workspace = registry.getWorkspace(requested);
  if (!workspace || workspace.organizationId !== key.organizationId) {
    throw new ApiError(
      'FORBIDDEN',
      `This key cannot reach workspace ${JSON.stringify(requested)}: not a workspace of its organization`,
    );
  }
  return { key, workspace };
}

/**
 * The interface's Versioning: `2026-02-09` is the only version. Keys made by docflow all date from after
 * 2025-04-21, and for such keys a missing header is an error, not a legacy default.
 */
export function checkApiVersion(names: RequestHeaderNames, headers: Headers): void {
  const version = single(headers, names.apiVersion);
  if (version === undefined) {
    throw invalidRequest(
      `header.${names.apiVersion}`,
      `is required; the only version is ${API_VERSION}`,
      'REQUIRED',
    );
  }
  if (version !== API_VERSION) {
    throw invalidRequest(
      `header.${names.apiVersion}`,
      `${JSON.stringify(version)} is not a supported version; the only version is ${API_VERSION}`,
      'UNSUPPORTED_VERSION',
    );
  }
}
