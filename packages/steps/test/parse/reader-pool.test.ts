import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Child } from '../../src/parse/contained-process.ts';
import { type ReaderPool, readerPool } from '../../src/parse/reader-pool.ts';

/** A real child process that does nothing until its parent goes (as a reader waits). */
function idleChild(): Child {
  const process_ = spawn(
    process.execPath,
    ['-e', 'process.on("disconnect", () => process.exit(0)); setInterval(() => {}, 60_000);'],
    { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
  );
  return { process: process_, stderr: '' };
}

describe('readerPool', () => {
  let pool: ReaderPool | undefined;
  afterEach(async () => {
    await pool?.close();
  });

  it('hands out the reader returned last, of the heap size asked', async () => {
    pool = readerPool({ spawn: () => idleChild(), idleKept: 4, idleMs: 30_000 });
    const a = await pool.acquire(512);
    const b = await pool.acquire(512);
    const big = await pool.acquire(1024);
    pool.release(a);
    pool.release(b);
    pool.release(big);
    expect(pool.idle).toBe(3);
    // b came back after a: b serves the next document, then again once returned.
    const first = await pool.acquire(512);
    expect(first).toBe(b);
    pool.release(first);
    expect(await pool.acquire(512)).toBe(b);
    expect(await pool.acquire(512)).toBe(a);
    expect(await pool.acquire(1024)).toBe(big);
    for (const reader of [a, b, big]) pool.release(reader);
  });
});
