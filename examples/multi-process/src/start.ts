/**
 * Starts the example with one command: one API process and three workers on one PostgreSQL
 * database, `DOCFLOW_POSTGRES_URL`, or, when it is not set, a throwaway server started here
 * (PostgreSQL's programs must be installed: Debian's `postgresql` package). Each child's lines
 * are printed with its name; Ctrl-C stops them all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';

const tsx = createRequire(import.meta.url).resolve('tsx');
const here = import.meta.dirname;
const WORKERS = Number(process.env.DOCFLOW_WORKERS ?? 3);

let url = process.env.DOCFLOW_POSTGRES_URL;
const temporary = url ? undefined : await startTemporaryPostgres();
url ??= temporary?.url as string;
const env = { ...process.env, DOCFLOW_POSTGRES_URL: url };

const children = new Set<ChildProcess>();
function start(name: string, script: string, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['--import', tsx, join(here, script), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const prefix = (stream: NodeJS.ReadableStream, out: NodeJS.WritableStream) => {
    let buffer = '';
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout as NodeJS.ReadableStream, process.stdout);
  prefix(child.stderr as NodeJS.ReadableStream, process.stderr);
  child.once('exit', (code, signal) => {
    children.delete(child);
    console.log(`[${name}] exited (${signal ?? code})`);
  });
  return child;
}

start('api', 'api.ts');
for (let n = 1; n <= WORKERS; n++) start(`worker-${n}`, 'worker.ts', [`worker-${n}`]);

async function stop(): Promise<void> {
  const exits = [...children].map((c) => new Promise((r) => c.once('exit', r)));
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(exits);
  await temporary?.stop();
  process.exit(0);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
