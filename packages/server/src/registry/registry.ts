/**
 * The server's own records: organizations, their workspaces, and API keys. Engines hold the
 * resources of one workspace each; the registry holds who may reach which workspace.
 */

/** An organization: the owner of workspaces and of organization-scoped keys. */
export interface Organization {
  /** Prefix `org_`. */
  readonly id: string;
  /** Unique among organizations. */
  readonly name: string;
  readonly createdAt: string;
}

/** A workspace: one engine and everything it stores; invisible to every other workspace. */
export interface Workspace {
  /** Prefix `ws_`; the value of the `x-<word>-workspace-id` header. */
  readonly id: string;
  /** Unique within its organization. */
  readonly name: string;
  readonly organizationId: string;
  readonly createdAt: string;
}

/** Who a key speaks for: one workspace, or every workspace of an organization. */
export type ApiKeyScope = 'workspace' | 'organization';

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  /** Prefix `key_`; what `api-keys revoke` takes. */
  readonly id: string;
  readonly name: string;
  /** The first characters of the key, to recognise it in a list (`dfk_3Fq9…`). */
  readonly hint: string;
  readonly scope: ApiKeyScope;
  readonly organizationId: string;
  /** The workspace of a workspace key; null for organization keys. */
  readonly workspaceId: string | null;
  readonly createdAt: string;
  /** When the key was revoked; null while it works. */
  readonly revokedAt: string | null;
}

/** Input of {@link ServerRegistry.createApiKey}. */
export interface CreateApiKeyInput {
  readonly scope: ApiKeyScope;
  readonly organizationId: string;
  /** Required for workspace keys. */
  readonly workspaceId?: string | undefined;
  /** Shown in lists and as `createdBy.name`; default `"api key"`. */
  readonly name?: string | undefined;
}

/**
 * Where organizations, workspaces and key hashes live. Synchronous methods: the registry is
 * read on every request and its implementations answer from a local database or memory.
 */
export interface ServerRegistry {
  /** Opens the store (creates its tables). Idempotent. */
  open(): Promise<void>;
  close(): Promise<void>;
  /** The organization of that name, created when missing. */
  ensureOrganization(name: string): Organization;
  /** The workspace of that name in the organization, created when missing. */
  ensureWorkspace(organizationId: string, name: string): Workspace;
  getWorkspace(id: string): Workspace | undefined;
  getOrganization(id: string): Organization | undefined;
  listWorkspaces(): readonly Workspace[];
  /** Stores a key's hash with its record; `keyHash` is {@link hashApiKey} of the key. */
  insertApiKey(record: ApiKeyRecord, keyHash: string): void;
  findApiKeyByHash(keyHash: string): ApiKeyRecord | undefined;
  listApiKeys(): readonly ApiKeyRecord[];
  /** Marks the key revoked; false when no key has that id. Revoking twice keeps the first time. */
  revokeApiKey(id: string, at: string): boolean;
  /**
   * A random secret made once per registry and kept: it signs presigned URLs and encrypts run
   * secrets, so both survive a restart.
   */
  serverSecret(): Buffer;
}
