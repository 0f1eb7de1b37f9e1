import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Durability } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const writer = join(here, '..', 'fixtures', 'crash-writer.ts');
const dir = mkdtempSync(join(tmpdir(), 'docflow-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the writer, SIGKILLs it after `killAfter` acknowledgements and returns every
 * acknowledgement it printed before it died (highest revision per run).
 */
function writeAndKill(
  path: string,
  durability: Durability,
  killAfter: number,
  thread: boolean,
): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', writer, path, durability, ...(thread ? ['thread'] : [])];
    const child = spawn(process.execPath, args, {
      cwd: join(here, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked = new Map<string, number>();
    let count = 0;
    let buffered = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [id, revision] = line.split(' ');
        if (id === undefined || revision === undefined) continue;
        acked.set(id, Math.max(acked.get(id) ?? 0, Number(revision)));
        if (++count === killAfter) child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited with ${code}: ${stderr}`));
      else resolve(acked);
    });
  });
}

describe('crash safety (SIGKILL mid-stream)', () => {
  const cases = [
    ['normal', false],
    ['full', false],
    ['batched', false],
    ['normal', true],
    ['batched', true],
  ] as const;
  for (const [durability, thread] of cases) {
    const name = `${durability}${thread ? ', writer thread' : ''}`;
    it(`${name}: every acknowledged write survives and the file is intact`, {
      timeout: 60_000,
    }, async () => {
      const path = join(dir, `${durability}${thread ? '-thread' : ''}.db`);
      const killAfter = 150 + Math.floor(Math.random() * 100);
      const acked = await writeAndKill(path, durability, killAfter, thread);
      expect(acked.size).toBeGreaterThan(killAfter / 2 - 1);

      const raw = new BetterSqlite3(path);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();

      const storage = sqliteStorage({ path, durability });
      await storage.open();
      for (const [id, revision] of acked) {
        const run = await storage.getRun(id);
        expect(run?.revision ?? 0, id).toBeGreaterThanOrEqual(revision);
        const events = await storage.listRunEvents(id);
        expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i + 1));
        expect(events.length).toBe(run?.revision);
        // A run and its queue item commit together: processed runs have no work left, new ones do.
        const work = await storage.listWork({ runId: id });
        expect(work.length).toBe(run?.revision === 1 ? 1 : 0);
      }
      // The database is usable after the crash.
      await storage.commit({
        runs: [
          {
            id: 'after',
            kind: 'k',
            status: 'S',
            active: true,
            priority: 1,
            snapshot: {},
            expectedRevision: 0,
          },
        ],
      });
      await storage.close();
    });
  }
});
