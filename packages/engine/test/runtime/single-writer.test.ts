/**
 * Two engines on one SQLite file once both started, then ran each other's steps and failed each
 * other's runs (issue 21). The second start() is refused now, naming the file and the process
 * that holds it; once the first stops, another engine starts and finishes its work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterEach, expect, it } from 'vitest';
import { createEngine } from '../../src/index.ts';
import { fakeStep, linear } from '../helpers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('refuses a second engine on the same SQLite file at start(), and lets one start after the first stops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-single-writer-'));
  dirs.push(dir);
  const path = join(dir, 'docflow.db');
  const steps = [fakeStep('PARSE', () => ({ chunks: [] }), [])];
  const first = createEngine({ storage: sqliteStorage({ path }), steps });
  await first.start();
  const wf = await first.workflows.create({ name: 'one writer', steps: linear('PARSE') });
  await first.workflows.deploy(wf.id);

  const second = createEngine({ storage: sqliteStorage({ path }), steps });
  const refused = await second.start().then(
    () => undefined,
    (e: unknown) => e as Error & { code?: string },
  );
  expect(refused?.code).toBe('DATABASE_IN_USE');
  expect(refused?.message).toContain(
    `${path} is in use by process ${process.pid} on ${hostname()}`,
  );

  const run = await first.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
  expect((await first.workflowRuns.waitFor(run.id)).status).toBe('PROCESSED');
  await first.stop();

  const third = createEngine({ storage: sqliteStorage({ path }), steps });
  await third.start();
  expect((await third.workflowRuns.get(run.id)).status).toBe('PROCESSED');
  await third.stop();
});
