/** `docflow api-keys create|list|revoke`: the keys of a server's registry. */
import type { CliContext } from '../cli-context.ts';
import { CliError, ExitCode } from '../cli-error.ts';
import { formatTable } from '../output/table.ts';
import { chooseServerStorage, type ServerStorageOptions } from '../server-storage-choice.ts';

async function withRegistry<T>(
  context: CliContext,
  options: ServerStorageOptions,
  work: (registry: Awaited<ReturnType<typeof chooseServerStorage>>['storage']['registry']) => T,
): Promise<T> {
  const { storage } = await chooseServerStorage(context, options);
  await storage.registry.open();
  try {
    return work(storage.registry);
  } finally {
    await storage.registry.close();
  }
}

/** Options of `api-keys create`. */
export interface CreateKeyOptions extends ServerStorageOptions {
  readonly workspace?: string;
  readonly organization: string;
  readonly scope: 'workspace' | 'organization';
  readonly name?: string;
  readonly json?: boolean;
}

/**
 * Makes a key (and the organization and workspace it names, when new) and prints it: the only
 * time it is shown, since the registry keeps its hash only.
 */
export async function apiKeysCreateCommand(
  context: CliContext,
  options: CreateKeyOptions,
): Promise<number> {
  if (options.scope === 'workspace' && options.workspace === undefined) {
    throw new CliError('--workspace is required for a workspace key', ExitCode.USAGE);
  }
  const { createApiKey } = await import('@docflow/server/registry');
  const made = await withRegistry(context, options, (registry) => {
    const organization = registry.ensureOrganization(options.organization);
    const workspace =
      options.workspace === undefined
        ? undefined
        : registry.ensureWorkspace(organization.id, options.workspace);
    const { key, record } = createApiKey(registry, {
      scope: options.scope,
      organizationId: organization.id,
      workspaceId: workspace?.id,
      name: options.name ?? (workspace ? `${workspace.name} key` : `${organization.name} key`),
    });
    return { key, record, organization, workspace };
  });
  if (options.json) {
    context.print(
      JSON.stringify({
        key: made.key,
        ...(made.workspace ? { workspaceId: made.workspace.id } : {}),
        ...(made.record.scope === 'organization' ? { organizationId: made.organization.id } : {}),
        keyId: made.record.id,
      }),
    );
    return ExitCode.OK;
  }
  context.print(made.key);
  context.warn(
    `${made.record.scope} key ${made.record.id} for ${
      made.workspace
        ? `workspace ${made.workspace.name} (${made.workspace.id})`
        : `organization ${made.organization.name} (${made.organization.id})`
    }. It is shown once: store it now.`,
  );
  return ExitCode.OK;
}

/** `api-keys list`: every key, revoked ones too, without the keys themselves. */
export async function apiKeysListCommand(
  context: CliContext,
  options: ServerStorageOptions & { json?: boolean },
): Promise<number> {
  const rows = await withRegistry(context, options, (registry) =>
    registry.listApiKeys().map((key) => ({
      ...key,
      workspace: key.workspaceId ? registry.getWorkspace(key.workspaceId) : undefined,
      organization: registry.getOrganization(key.organizationId),
    })),
  );
  if (options.json) {
    context.print(
      JSON.stringify(
        rows.map(({ workspace: _w, organization: _o, ...key }) => key),
        null,
        2,
      ),
    );
    return ExitCode.OK;
  }
  const { out } = context;
  context.print(
    formatTable(
      ['ID', 'KEY', 'NAME', 'SCOPE', 'WORKSPACE', 'ORGANIZATION', 'CREATED', 'REVOKED'].map((h) =>
        out.bold(h),
      ),
      rows.map((k) => [
        k.id,
        k.hint,
        k.name,
        k.scope,
        k.workspace ? `${k.workspace.name} (${k.workspace.id})` : '-',
        k.organization?.name ?? k.organizationId,
        k.createdAt,
        k.revokedAt ?? '-',
      ]),
    ),
  );
  return ExitCode.OK;
}

/** `api-keys revoke <id>`: the key stops working at once, in a running server too. */
export async function apiKeysRevokeCommand(
  context: CliContext,
  id: string,
  options: ServerStorageOptions,
): Promise<number> {
  const revoked = await withRegistry(context, options, (registry) =>
    registry.revokeApiKey(id, new Date().toISOString()),
  );
  if (!revoked) throw new CliError(`no API key ${JSON.stringify(id)} (see docflow api-keys list)`);
  context.print(`revoked ${id}`);
  return ExitCode.OK;
}
