/**
 * The README's "Over HTTP" section (and docs/http-api.md's first one), as a new user follows
 * it: its commands make a key and serve, and its program runs against that server with the
 * service's SDK.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { workspace } from './run-cli.ts';
import { createKey, serve } from './serve-process.ts';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf("## Over HTTP, with the service's SDK"));

it('makes a key, serves, and runs its SDK program to PROCESSED', async () => {
  const commands = (/```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? '')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim());
  // What the test runs below (serve-process.ts), with port 0 for the README's 8080.
  expect(commands).toEqual([
    'docflow api-keys create --db docflow.db --workspace dev --json',
    'docflow serve --db docflow.db --port 8080',
  ]);
  const program = /```js\n([\s\S]*?)\n```/.exec(section)?.[1];
  expect(program).toContain("from 'extend-ai'");
  // docs/http-api.md shows the same commands and program.
  const guide = readFileSync(new URL('../../../docs/http-api.md', import.meta.url), 'utf8');
  expect(/```sh\n([\s\S]*?)\n```/.exec(guide)?.[1]).toBe(
    /```sh\n([\s\S]*?)\n```/.exec(section)?.[1],
  );
  expect(/```js\n([\s\S]*?)\n```/.exec(guide)?.[1]).toBe(program);

  const cwd = workspace();
  const { key } = await createKey(cwd, 'docflow.db', 'dev');
  const server = await serve(cwd, 'docflow.db');
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '--eval', program as string],
      {
        // This package's node_modules has extend-ai, as the user's project would.
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: { ...process.env, DOCFLOW_KEY: key, DOCFLOW_URL: server.origin },
        timeout: 60_000,
      },
      (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out }),
    );
  });
  expect(stdout.trim()).toBe('PROCESSED Invoice 42\nTotal: 99.50 EUR');
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
});
