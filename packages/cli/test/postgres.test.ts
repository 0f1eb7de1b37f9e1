/**
 * The CLI on PostgreSQL (`--postgres URL`): runs stored in a schema that another invocation
 * lists and reviews, while nothing is written to a SQLite file; bad values are usage errors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it } from 'vitest';
import { docflow, INVOICE_WORKFLOW, workspace } from './run-cli.ts';

const pg = postgresForTests();

describe.skipIf(pg.skip)('docflow --postgres', () => {
  it('runs, lists and reviews runs in a PostgreSQL schema, in separate invocations', async () => {
    const dir = workspace({
      'workflow.json': INVOICE_WORKFLOW,
      'small.txt': 'Invoice number: INV-1\nTotal: 120.00 EUR\n',
      'large.txt': 'Invoice number: INV-2\nTotal: 5400.00 EUR\n',
    });
    const store = ['--postgres', pg.url, '--postgres-schema', pg.schema()];
    const run = await docflow([...store, 'run', 'workflow.json', 'small.txt', 'large.txt'], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/small\.txt\s+workflow_run_\w+\s+PROCESSED/);
    expect(existsSync(join(dir, 'docflow.db'))).toBe(false);

    const waiting = await docflow(
      [...store, 'runs', 'list', '--status', 'NEEDS_REVIEW', '--json'],
      {
        cwd: dir,
      },
    );
    const [held] = (JSON.parse(waiting.stdout) as { data: { id: string }[] }).data;
    expect(held?.id).toMatch(/^workflow_run_/);
    const review = await docflow(
      [...store, 'runs', 'review', held?.id ?? '', '--approve', '--reviewer', 'a@example.com'],
      { cwd: dir },
    );
    expect(review.code, review.stderr).toBe(0);
    const all = await docflow([...store, 'runs', 'list', '--json'], { cwd: dir });
    const statuses = (JSON.parse(all.stdout) as { data: { status: string }[] }).data
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual(['PROCESSED', 'PROCESSED']);
  });

  it('refuses a URL that is not postgres:// and a schema name PostgreSQL would need quoted', async () => {
    const dir = workspace({});
    const url = await docflow(['--postgres', 'mysql://x', 'runs', 'list'], { cwd: dir });
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--postgres must be a postgres:// or postgresql:// URL');
    const schema = await docflow(
      ['--postgres', pg.url, '--postgres-schema', 'Bad-Name', 'runs', 'list'],
      { cwd: dir },
    );
    expect(schema.code).toBe(2);
    expect(schema.stderr).toContain('--postgres-schema "Bad-Name" must be');
  });
});
