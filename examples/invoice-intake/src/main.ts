/**
 * `pnpm --filter @docflow/example-invoice-intake start [db path]`: the intake on SQLite at
 * `docflow-invoice-intake.db` (or the path given), logging each stage.
 */
import { join } from 'node:path';
import { closeOcrPool } from '@docflow/steps';
import { runInvoiceIntake } from './run-invoice-intake.ts';

const db = process.argv[2] ?? join(process.cwd(), 'docflow-invoice-intake.db');
await runInvoiceIntake(db)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => closeOcrPool());
