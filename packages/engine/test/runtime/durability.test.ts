import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createEngine, defineStep, type StepExecutor } from '@docflow/engine';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it } from 'vitest';
import { linear, tempDir } from '../helpers.ts';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');

function recorder(type: 'PARSE' | 'EXTRACT', keys: string[]): StepExecutor {
  return defineStep({
    type,
    async execute(input, ctx) {
      keys.push(`${ctx.idempotencyKey}:${input.stepName}`);
      return { output: { step: input.stepName } };
    },
  });
}

/**
 * What the file at `path` holds of the runs `ids` (each must be stored): the ids of their
 * PROCESSED step runs, and how many of the runs have not finished.
 */
async function storedProgress(
  path: string,
  ids: readonly string[],
): Promise<{ processed: Set<string>; unfinished: number }> {
  const processed = new Set<string>();
  let unfinished = 0;
  const inspect = sqliteStorage({ path });
  await inspect.open();
  for (const id of ids) {
    const record = await inspect.getRun(id);
    expect(record, `run ${id} is stored`).toBeDefined();
    const snapshot = record?.snapshot as unknown as {
      status: string;
      stepRuns: { id: string; status: string }[];
    };
    if (snapshot.status !== 'PROCESSED') unfinished++;
    for (const sr of snapshot.stepRuns) if (sr.status === 'PROCESSED') processed.add(sr.id);
  }
  await inspect.close();
  return { processed, unfinished };
}

describe('durability', () => {
  it('finishes on the next start() a run whose reserved executor was interrupted by stop()', async () => {
    const path = join(tempDir(), 'stop.db');
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    const firstKeys: string[] = [];
    const blocking = defineStep({
      type: 'PARSE',
      execute: (_input, ctx) =>
        new Promise<never>((_resolve, reject) => {
          firstKeys.push(ctx.idempotencyKey);
          entered();
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        }),
    });
    const a = createEngine({ storage: sqliteStorage({ path }), steps: [blocking] });
    await a.start();
    const wf = await a.workflows.create({ name: 'w', steps: linear('PARSE') });
    await a.workflows.deploy(wf.id);
    const run = await a.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    await inside;
    // It started on a slot reserved by the commit that created it: no queue row, only the
    // PROCESSING step run in the stored snapshot, from which the next start() queues it again.
    expect(await a.storage.listWork()).toEqual([]);
    await a.stop();
    const inspect = sqliteStorage({ path });
    await inspect.open();
    expect(await inspect.listWork()).toEqual([]);
    await inspect.close();

    const keys: string[] = [];
    const b = createEngine({ storage: sqliteStorage({ path }), steps: [recorder('PARSE', keys)] });
    await b.start();
    const done = await b.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    await b.stop();
    expect(done.status).toBe('PROCESSED');
    // The same step run executed again, with the same idempotency key.
    expect(keys).toEqual([`${firstKeys[0]}:parse1`]);
  });

  it('finishes on the next start() the steps stop() found waiting for the next turn of the loop', async () => {
    // Steps that settle at once chain without I/O; past its turn's budget the engine starts the
    // next ones in a later turn of the event loop. A stop() in between leaves them PROCESSING
    // in the file, with no queue row, and the next start() runs them.
    const path = join(tempDir(), 'turns.db');
    const firstKeys: string[] = [];
    const a = createEngine({
      storage: sqliteStorage({ path }),
      steps: [recorder('PARSE', firstKeys)],
    });
    await a.start();
    const wf = await a.workflows.create({ name: 'w', steps: linear('PARSE', 'PARSE', 'PARSE') });
    await a.workflows.deploy(wf.id);
    const file = await a.files.upload({ name: 'a.txt', data: 'x' });
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      ids.push(
        (await a.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } })).id,
      );
    }
    // The first turn of the loop that lets a timer run: the engine is mid-way through the runs.
    await new Promise((r) => setTimeout(r, 0));
    await a.stop();

    const { processed: processedAtStop, unfinished } = await storedProgress(path, ids);
    expect(unfinished).toBeGreaterThan(0);

    const keys: string[] = [];
    const b = createEngine({ storage: sqliteStorage({ path }), steps: [recorder('PARSE', keys)] });
    await b.start();
    for (const id of ids) {
      const run = await b.workflowRuns.waitFor(id, { timeoutMs: 20_000 });
      expect(run.status, id).toBe('PROCESSED');
      expect(run.stepRuns.map((s) => s.status)).toEqual(Array(4).fill('PROCESSED'));
    }
    await b.stop();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(processedAtStop.has(key.split(':')[0] as string), `${key} ran again`).toBe(false);
    }
  }, 30_000);

  it('settles on the next start() a step left executing when a run being cancelled was killed', async () => {
    const path = join(tempDir(), 'cancelling.db');
    const child = spawn(
      process.execPath,
      ['--import', tsxLoader, join(import.meta.dirname, '../fixtures/cancelling-child.ts'), path],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const runId = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const match = /cancelling (\S+)\n/.exec(buffer);
        if (match) {
          child.kill('SIGKILL');
          resolve(match[1] as string);
        }
      });
      child.on('exit', () => reject(new Error(`child ended before cancelling: ${buffer}`)));
    });
    await new Promise((r) => child.once('close', r));

    const keys: string[] = [];
    const b = createEngine({ storage: sqliteStorage({ path }), steps: [recorder('PARSE', keys)] });
    await b.start();
    const done = await b.workflowRuns.waitFor(runId, { timeoutMs: 10_000 });
    await b.stop();
    expect(done.status).toBe('CANCELLED');
    expect(done.stepRuns.map((s) => s.status)).toEqual(['PROCESSED', 'CANCELLED']);
    // Nothing ran again: the run was being cancelled.
    expect(keys).toEqual([]);
  }, 30_000);

  it.each(['normal', 'full'] as const)(
    'loses no accepted run when the process is SIGKILLed (%s)',
    async (durability) => {
      const path = join(tempDir(), `kill-${durability}.db`);
      const child = spawn(
        process.execPath,
        [
          '--import',
          tsxLoader,
          join(import.meta.dirname, '../fixtures/crash-child.ts'),
          path,
          durability,
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const accepted: string[] = [];
      const executed: string[] = [];
      let buffer = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          for (const line of lines) {
            if (line.startsWith('accepted ')) accepted.push(line.slice(9));
            if (line.startsWith('executed ')) executed.push(line.slice(9));
          }
          if (accepted.length >= 40 && child.exitCode === null && !child.killed) {
            child.kill('SIGKILL');
          }
        });
        child.on('exit', () => resolve());
      });
      expect(accepted.length).toBeGreaterThanOrEqual(40);

      // What was PROCESSED when the process died, read straight from the file.
      const { processed: processedAtKill } = await storedProgress(path, accepted);

      const keys: string[] = [];
      const engine = createEngine({
        storage: sqliteStorage({ path }),
        steps: [recorder('PARSE', keys), recorder('EXTRACT', keys)],
      });
      await engine.start();
      for (const id of accepted) {
        const run = await engine.workflowRuns.waitFor(id, { timeoutMs: 20_000 });
        expect(run.status, id).toBe('PROCESSED');
        expect(run.stepRuns.map((s) => s.status)).toEqual(['PROCESSED', 'PROCESSED', 'PROCESSED']);
      }
      await engine.stop();
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const stepRunId = key.split(':')[0] as string;
        expect(processedAtKill.has(stepRunId), `PROCESSED step ${key} ran again`).toBe(false);
      }
    },
    60_000,
  );
});
