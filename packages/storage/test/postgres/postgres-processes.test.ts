import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresStorage } from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, '..', 'fixtures', 'postgres-worker.ts');
const pg = postgresForTests();

interface Worker {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves when the worker printed `line`. */
  printed(line: string): Promise<void>;
  readonly exited: Promise<void>;
}

function startWorker(schema: string, name: string, leaseMs: number, stallAfter?: number): Worker {
  const args = ['--import', 'tsx', fixture, pg.url, schema, name, String(leaseMs)];
  if (stallAfter !== undefined) args.push(String(stallAfter));
  const child = spawn(process.execPath, args, {
    cwd: join(here, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting = new Map<string, () => void>();
  let buffered = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      waiting.get(line)?.();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    name,
    child,
    lines,
    exited,
    printed: (line) =>
      lines.includes(line)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.set(line, resolve)),
            exited.then(() => {
              throw new Error(`${name} exited before printing ${line}: ${stderr}`);
            }),
          ]),
  };
}

describe.skipIf(pg.skip)('PostgreSQL shared by separate processes', () => {
  it('three worker processes migrate one schema, share its queue, and take over a killed one’s leases', {
    timeout: 60_000,
  }, async () => {
    const schema = pg.schema();
    // All three open the new schema at once; the one stalling stops after 6 claims. Its leases
    // are short, so that the others take its items over soon; theirs are long, so that a
    // survivor slowed by a loaded machine keeps what it claimed (no completion is refused).
    const workers = [
      startWorker(schema, 'w1', 1000, 6),
      startWorker(schema, 'w2', 15_000),
      startWorker(schema, 'w3', 15_000),
    ];
    onTestFinished(() => {
      for (const w of workers) w.child.kill('SIGKILL');
    });
    await Promise.all(workers.map((w) => w.printed('ready')));
    const [stalling, ...others] = workers as [Worker, Worker, Worker];

    const storage = postgresStorage({ connectionString: pg.url }, { schema });
    await storage.open();
    onTestFinished(() => storage.close());
    const now = Date.now();
    const ids = Array.from({ length: 120 }, (_, i) => `work_${String(i).padStart(3, '0')}`);
    await storage.commit({
      enqueue: ids.map((id, i) => ({
        id,
        runId: `run_${i % 7}`,
        kind: 'step',
        priority: 1 + ((i * 13) % 100),
        // A quarter is delayed, as retries are: found through nextClaimableAt, not by polling.
        availableAt: new Date(now + (i % 4 === 0 ? 500 : 0)).toISOString(),
        payload: { i },
      })),
    });

    // The stalling worker holds the leases of the items it claimed last; it dies with them.
    await stalling.printed('stalled');
    stalling.child.kill('SIGKILL');
    await stalling.exited;

    const doneBy = new Map<string, string>();
    await vi.waitFor(
      async () => {
        const done = await storage.listDocuments('workflows', { pageSize: 1000 });
        for (const d of done.items) doneBy.set(d.id.slice('done_'.length), d.data.by as string);
        expect(doneBy.size).toBe(ids.length);
      },
      { timeout: 30_000, interval: 100 },
    );
    for (const w of others) w.child.kill('SIGTERM');
    await Promise.all(others.map((w) => w.exited));

    // Every item was completed once (its record is written with expectedRevision 0), and no
    // completion was refused: no two workers ever held one item at once.
    expect([...doneBy.keys()].sort()).toEqual(ids);
    expect(others.flatMap((w) => w.lines.filter((l) => l.startsWith('lost ')))).toEqual([]);
    expect(await storage.listWork()).toEqual([]);
    // What the killed worker held and had not completed was taken over (a second attempt) by
    // the others once its leases expired, and completed by them.
    const claimedBy = (w: Worker, attempts?: string) =>
      w.lines
        .filter(
          (l) => l.startsWith('claimed ') && (attempts === undefined || l.endsWith(` ${attempts}`)),
        )
        .map((l) => l.split(' ')[1] as string);
    const held = claimedBy(stalling).filter((id) => doneBy.get(id) !== stalling.name);
    expect(held.length).toBeGreaterThan(0);
    const retaken = others.flatMap((w) => claimedBy(w, '2'));
    expect([...retaken].sort()).toEqual([...held].sort());
    for (const id of held) expect(doneBy.get(id)).not.toBe(stalling.name);
    // Both survivors did work.
    for (const w of others) expect([...doneBy.values()]).toContain(w.name);
  });
});
