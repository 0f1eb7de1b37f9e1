/** `docflow … | head`: the reader closes the pipe early, and docflow stops without a word. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { workspace } from './run-cli.ts';

const BIN = fileURLToPath(new URL('../bin/docflow.mjs', import.meta.url));

it('stops quietly with exit code 0 when the reader of its output closes the pipe', async () => {
  // About 600 KB of markdown: far more than a pipe holds, so docflow is still writing when the
  // reader goes.
  const line = 'Line item: printer paper, 20 boxes, 240.00 EUR, delivered to the front desk.\n';
  const dir = workspace({ 'big.txt': line.repeat(8000) });
  const child = spawn(process.execPath, [BIN, 'parse', 'big.txt'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let received = 0;
  // Like `head`: read the first chunk, then close the pipe.
  child.stdout.once('data', (chunk: Buffer) => {
    received = chunk.length;
    child.stdout.destroy();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(received).toBeGreaterThan(0);
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
