import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { newRecordId } from './record-ids.ts';
import type {
  ApiKeyRecord,
  ApiKeyScope,
  Organization,
  ServerRegistry,
  Workspace,
} from './registry.ts';

/** Options of {@link sqliteRegistry}. */
export interface SqliteRegistryOptions {
  /** The registry's database file; `':memory:'` for one that lives as long as the process. */
  readonly path: string;
  /** Time source of `createdAt`; default the wall clock. */
  readonly now?: () => Date;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS server_settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS organizations (
  id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS workspaces (
  id TEXT PRIMARY KEY, organization_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (organization_id, name));
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, hint TEXT NOT NULL, name TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('workspace', 'organization')),
  organization_id TEXT NOT NULL REFERENCES organizations(id),
  workspace_id TEXT REFERENCES workspaces(id),
  created_at TEXT NOT NULL, revoked_at TEXT);
`;

interface KeyRow {
  id: string;
  hint: string;
  name: string;
  scope: ApiKeyScope;
  organization_id: string;
  workspace_id: string | null;
  created_at: string;
  revoked_at: string | null;
}

const toKey = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  scope: row.scope,
  organizationId: row.organization_id,
  workspaceId: row.workspace_id,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

interface WorkspaceRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: string;
}

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  organizationId: row.organization_id,
  createdAt: row.created_at,
});

/**
 * The registry in a SQLite file (WAL): the server reads it on every request while
 * `docflow api-keys` writes to it from another process, so a new or revoked key counts at once.
 *
 * @example
 * const registry = sqliteRegistry({ path: 'docflow.db' });
 * await registry.open();
 */
export function sqliteRegistry(options: SqliteRegistryOptions): ServerRegistry {
  const now = () => (options.now?.() ?? new Date()).toISOString();
  let db: Database.Database | undefined;
  let statements: ReturnType<typeof prepare> | undefined;

  function prepare(d: Database.Database) {
    return {
      orgByName: d.prepare<[string], { id: string; name: string; created_at: string }>(
        'SELECT id, name, created_at FROM organizations WHERE name = ?',
      ),
      orgById: d.prepare<[string], { id: string; name: string; created_at: string }>(
        'SELECT id, name, created_at FROM organizations WHERE id = ?',
      ),
      insertOrg: d.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)'),
      workspaceByName: d.prepare<[string, string], WorkspaceRow>(
        'SELECT * FROM workspaces WHERE organization_id = ? AND name = ?',
      ),
      workspaceById: d.prepare<[string], WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?'),
      workspaces: d.prepare<[], WorkspaceRow>('SELECT * FROM workspaces ORDER BY created_at, id'),
      insertWorkspace: d.prepare(
        'INSERT INTO workspaces (id, organization_id, name, created_at) VALUES (?, ?, ?, ?)',
      ),
      insertKey: d.prepare(
        `INSERT INTO api_keys (id, key_hash, hint, name, scope, organization_id, workspace_id, created_at, revoked_at)
         VALUES (@id, @keyHash, @hint, @name, @scope, @organizationId, @workspaceId, @createdAt, @revokedAt)`,
      ),
      keyByHash: d.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
      keys: d.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
      revokeKey: d.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
      dataVersion: d.prepare<[], number>('PRAGMA data_version').pluck(),
      setting: d.prepare<[string], { value: Buffer }>(
        'SELECT value FROM server_settings WHERE name = ?',
      ),
      insertSetting: d.prepare('INSERT OR IGNORE INTO server_settings (name, value) VALUES (?, ?)'),
    };
  }

  const s = () => {
    if (!statements) throw new Error('The registry is not open: call open() first');
    return statements;
  };

  let secret: Buffer | undefined;
  // Every request reads its key and workspace. Both are kept in memory until the database
  // changes: `PRAGMA data_version` moves when another connection (`docflow api-keys` in another
  // process) commits, and this connection's own writes clear the memory themselves, so a new or
  // revoked key counts from the next request on.
  const keys = new Map<string, ApiKeyRecord | null>();
  const workspaces = new Map<string, Workspace | null>();
  let seenVersion = -1;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const fresh = (st: ReturnType<typeof prepare>) => {
    // A request reads a key and a workspace: one look at data_version serves both.
    const now = performance.now();
    if (now - checkedAt < 1) return;
    checkedAt = now;
    const version = st.dataVersion.get() as number;
    if (version !== seenVersion) {
      seenVersion = version;
      forget();
    }
  };
  const forget = () => {
    keys.clear();
    workspaces.clear();
  };

  return {
    async open() {
      if (db) return;
      db = new Database(options.path);
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      db.pragma('foreign_keys = ON');
      db.exec(SCHEMA);
      statements = prepare(db);
      // Two processes may open a new registry at once: the first secret written wins.
      statements.insertSetting.run('secret', randomBytes(32));
      secret = statements.setting.get('secret')?.value;
    },
    async close() {
      db?.close();
      db = undefined;
      statements = undefined;
    },
    ensureOrganization(name) {
      const st = s();
      const existing = st.orgByName.get(name);
      if (existing) return { id: existing.id, name: existing.name, createdAt: existing.created_at };
      const org: Organization = { id: newRecordId('org_'), name, createdAt: now() };
      st.insertOrg.run(org.id, org.name, org.createdAt);
      forget();
      return org;
    },
    ensureWorkspace(organizationId, name) {
      const st = s();
      const existing = st.workspaceByName.get(organizationId, name);
      if (existing) return toWorkspace(existing);
      const workspace: Workspace = {
        id: newRecordId('ws_'),
        name,
        organizationId,
        createdAt: now(),
      };
      st.insertWorkspace.run(workspace.id, organizationId, name, workspace.createdAt);
      forget();
      return workspace;
    },
    getWorkspace(id) {
      const st = s();
      fresh(st);
      let workspace = workspaces.get(id);
      if (workspace === undefined) {
        const row = st.workspaceById.get(id);
        workspace = row ? toWorkspace(row) : null;
        if (workspaces.size > 10_000) workspaces.clear();
        workspaces.set(id, workspace);
      }
      return workspace ?? undefined;
    },
    getOrganization(id) {
      const row = s().orgById.get(id);
      return row ? { id: row.id, name: row.name, createdAt: row.created_at } : undefined;
    },
    listWorkspaces: () => s().workspaces.all().map(toWorkspace),
    insertApiKey(record, keyHash) {
      s().insertKey.run({ ...record, keyHash });
      forget();
    },
    findApiKeyByHash(keyHash) {
      const st = s();
      fresh(st);
      let key = keys.get(keyHash);
      if (key === undefined) {
        const row = st.keyByHash.get(keyHash);
        key = row ? toKey(row) : null;
        // Unknown hashes are remembered too (a client retrying a bad key), within a bound.
        if (keys.size > 10_000) keys.clear();
        keys.set(keyHash, key);
      }
      return key ?? undefined;
    },
    listApiKeys: () => s().keys.all().map(toKey),
    revokeApiKey(id, at) {
      const changed = s().revokeKey.run(at, id).changes > 0;
      forget();
      return changed;
    },
    serverSecret() {
      if (!secret) throw new Error('The registry is not open: call open() first');
      return secret;
    },
  };
}
