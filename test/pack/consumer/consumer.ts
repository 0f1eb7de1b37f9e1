// A TypeScript user of the installed packages, type-checked by the packed-install test against
// the declarations the tarballs ship (this folder is outside the workspace's own typecheck, where
// these names do not resolve). The `@ts-expect-error` lines fail the check if the types were `any`.
import { createEngine, type Engine, type WorkflowDefinition } from '@docflow/engine';
import { evaluateFormula } from '@docflow/formulas';
import { createServer, type ServerOptions } from '@docflow/server';
import { builtinSteps, type ParseDocumentResult, parseDocument } from '@docflow/steps';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { postgresStorage } from '@docflow/storage/postgres';
import { sqliteStorage } from '@docflow/storage/sqlite';

const storage: StorageAdapter = sqliteStorage({ path: ':memory:' });
const engine: Engine = createEngine({ storage, steps: builtinSteps() });
const definition: WorkflowDefinition = { steps: [{ name: 'trigger', type: 'TRIGGER' }] };
const result: ParseDocumentResult = await parseDocument(new Uint8Array(), { fileName: 'a.txt' });
const chunks: number = result.ok ? result.output.chunks.length : 0;
const formula = evaluateFormula('1 + 1', {});
const options: Pick<ServerOptions, 'workspaceStorage'> = {
  workspaceStorage: () => memoryStorage(),
};

// @ts-expect-error: a path is a string
sqliteStorage({ path: 42 });
// @ts-expect-error: postgresStorage takes a connection string or a pool
postgresStorage({ url: 'postgres://localhost/docflow' });
// @ts-expect-error: createServer needs a registry
createServer({ workspaceStorage: () => memoryStorage() });

export { chunks, definition, engine, formula, options };
