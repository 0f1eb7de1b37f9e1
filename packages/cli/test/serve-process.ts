/** `docflow serve` and `docflow api-keys` in subprocesses, for the tests that drive a server. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { docflow } from './run-cli.ts';

const BIN = fileURLToPath(new URL('../bin/docflow.mjs', import.meta.url));
const children = new Set<ChildProcess>();
// A test that fails half-way leaves no server behind.
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `docflow serve` on a free port; resolves once it prints where it listens. */
export function serve(
  cwd: string,
  db: string,
  storage: readonly string[] = [],
  flags: readonly string[] = [],
): Promise<{
  child: ChildProcess;
  origin: string;
  exited: Promise<number | null>;
  stderr: () => string;
}> {
  const child = spawn(
    process.execPath,
    [BIN, '--db', db, ...storage, 'serve', '--port', '0', '--quiet', ...flags],
    { cwd, env: { ...process.env, NO_COLOR: '1' } },
  );
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = /docflow serving (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, origin: match[1] as string, exited, stderr: () => stderr });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

export async function createKey(
  cwd: string,
  db: string,
  ws = 'main',
): Promise<{ key: string; workspaceId: string }> {
  const made = await docflow(['--db', db, 'api-keys', 'create', '--workspace', ws, '--json'], {
    cwd,
  });
  expect(made.code).toBe(0);
  expect(made.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(made.stdout) as { key: string; workspaceId: string };
}

export const TWO_STEPS = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
] as never;
