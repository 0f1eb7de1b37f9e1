/**
 * `pnpm demo [--json] [--db <path>]` from the repository root: the main job on SQLite at
 * `docflow-demo.db` in the working directory (or `--db`).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeOcrPool } from '@docflow/steps';
import { runDemo } from './run-demo.ts';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, db: { type: 'string' } },
});
const db = values.db ?? join(process.cwd(), 'docflow-demo.db');
await runDemo(db, { json: values.json })
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => closeOcrPool());
