import { hash, randomBytes } from 'node:crypto';
import { newRecordId } from '../registry/record-ids.ts';
import type { ApiKeyRecord, CreateApiKeyInput, ServerRegistry } from '../registry/registry.ts';

/** Every key starts with this; what follows is 43 base64url characters (32 random bytes). */
export const API_KEY_PREFIX = 'dfk_';

const KEY_FORMAT = /^dfk_[A-Za-z0-9_-]{43}$/;

/** True when `text` has the shape of a docflow API key (it may still be unknown or revoked). */
export function isWellFormedApiKey(text: string): boolean {
  return KEY_FORMAT.test(text);
}

/**
 * The stored form of a key: its SHA-256, hex. Keys are 256 random bits, so a fast hash is
 * enough: no dictionary or brute force reaches them, and a stolen registry reveals no key.
 */
export function hashApiKey(key: string): string {
  // The one-shot form: a Hash object per request costs several times more.
  return hash('sha256', key, 'hex');
}

/** A key just made: the only time its text exists outside the caller's hands. */
export interface CreatedApiKey {
  /** The key itself (`dfk_…`): shown once, never stored. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

/**
 * Makes a key for a workspace or an organization and stores its hash.
 *
 * @example
 * const org = registry.ensureOrganization('acme');
 * const ws = registry.ensureWorkspace(org.id, 'invoices');
 * const { key } = createApiKey(registry, { scope: 'workspace', organizationId: org.id, workspaceId: ws.id });
 */
export function createApiKey(registry: ServerRegistry, input: CreateApiKeyInput): CreatedApiKey {
  if (input.scope === 'workspace') {
    const workspace =
      input.workspaceId === undefined ? undefined : registry.getWorkspace(input.workspaceId);
    if (!workspace || workspace.organizationId !== input.organizationId) {
      throw new Error(
        `workspace ${String(input.workspaceId)} is not a workspace of the organization`,
      );
    }
  } else if (!registry.getOrganization(input.organizationId)) {
    throw new Error(`organization ${input.organizationId} does not exist`);
  }
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id: newRecordId('key_'),
    name: input.name ?? 'api key',
    hint: `${key.slice(0, API_KEY_PREFIX.length + 6)}…`,
    scope: input.scope,
    organizationId: input.organizationId,
    workspaceId: input.scope === 'workspace' ? (input.workspaceId ?? null) : null,
    createdAt: new Date().toISOString(),
    revokedAt: null,
  };
  registry.insertApiKey(record, hashApiKey(key));
  return { key, record };
}
