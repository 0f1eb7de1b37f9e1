/**
 * One engine per SQLite file: a writer adapter holds the file's lock from open() to close(); a
 * second writer, in this process or another, is refused with DATABASE_IN_USE naming the file and
 * the holder; a read-only adapter works beside it; the lock does not survive its holder's death.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isStorageError, type StorageError } from '../../src/index.ts';
import { sqliteStorage } from '../../src/sqlite/index.ts';

const holderScript = fileURLToPath(new URL('../fixtures/lock-holder.ts', import.meta.url));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'docflow.db');
}

async function refusal(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isStorageError(error, 'DATABASE_IN_USE'), String(error)).toBe(true);
  return error as StorageError;
}

function startHolder(path: string): Promise<{ child: ChildProcess; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) resolve({ child, pid: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
  });
}

describe('one writer per SQLite file', () => {
  it('refuses a second writer in this process, naming the file and the holder, until the first closes', async () => {
    const path = tempPath();
    const first = sqliteStorage({ path });
    await first.open();
    const second = sqliteStorage({ path, writerThread: true });
    const error = await refusal(second.open());
    expect(error.message).toContain(`${path} is in use by process ${process.pid} on ${hostname()}`);
    expect(error.message).toContain('this process');
    expect(error.details).toMatchObject({ path, holder: { pid: process.pid, host: hostname() } });
    // The refused adapter stays closed; the holder is unharmed.
    await expect(second.listWork()).rejects.toSatisfy((e) => isStorageError(e, 'NOT_OPEN'));
    await first.commit({ documents: [{ collection: 'files', id: 'f', data: { a: 1 } }] });
    await first.close();
    await second.open();
    expect((await second.getDocument('files', 'f'))?.data).toEqual({ a: 1 });
    await second.close();
  });

  it('refuses a writer while another process holds the file; a read-only adapter reads beside it; SIGKILL frees it', async () => {
    const path = tempPath();
    const { child, pid } = await startHolder(path);
    const writer = sqliteStorage({ path });
    const error = await refusal(writer.open());
    expect(error.message).toMatch(
      new RegExp(`is in use by process ${pid} on ${hostname()} \\(since \\d{4}-\\d\\d-\\d\\dT`),
    );
    expect(error.message).not.toContain('this process');

    const reader = sqliteStorage({ path, readOnly: true });
    await reader.open();
    expect((await reader.getRun('run_held'))?.snapshot).toEqual({ by: pid });
    expect((await reader.listRuns({ status: 'PROCESSING' })).items).toHaveLength(1);
    await expect(
      reader.commit({ documents: [{ collection: 'files', id: 'f', data: {} }] }),
    ).rejects.toSatisfy((e) => isStorageError(e, 'READ_ONLY'));
    await expect(reader.blobs.put('k', new Uint8Array([1]))).rejects.toSatisfy((e) =>
      isStorageError(e, 'READ_ONLY'),
    );

    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await writer.open();
    expect((await writer.getRun('run_held'))?.status).toBe('PROCESSING');
    await writer.close();
    await reader.close();
  });

  it('opens read-only without creating anything: a missing file is an error', async () => {
    const reader = sqliteStorage({ path: tempPath(), readOnly: true });
    await expect(reader.open()).rejects.toSatisfy((e) => isStorageError(e, 'DATABASE_ERROR'));
  });
});
