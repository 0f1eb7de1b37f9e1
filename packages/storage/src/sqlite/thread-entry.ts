import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { StorageError } from '../errors.ts';

/**
 * Starts the worker thread whose entry is `name` (a module next to this one): the compiled
 * module, or, when running from the TypeScript sources (tsx, vitest), the `.ts` entry behind
 * tsx's loader registered inside the thread (on Node 20 a loader given to the parent with
 * `--import` does not reach workers). Throws `INVALID_ARGUMENT`, naming `option`, when neither
 * can start here.
 */
export function startThread(
  name: 'writer-thread' | 'checkpoint-thread',
  option: string,
  options: WorkerOptions = {},
): Worker {
  const self = import.meta.url;
  if (self.endsWith('.js')) return new Worker(new URL(`./${name}.js`, self), options);
  let tsx: string | undefined;
  if (self.endsWith('.ts')) {
    try {
      tsx = createRequire(self)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs');
    } catch {
      tsx = undefined;
    }
  }
  if (tsx === undefined || !existsSync(tsx)) {
    throw new StorageError('INVALID_ARGUMENT', `${option}: worker threads cannot start here`);
  }
  const api = JSON.stringify(pathToFileURL(tsx).href);
  const url = JSON.stringify(new URL(`./${name}.ts`, self).href);
  return new Worker(`import(${api}).then((tsx) => { tsx.register(); return import(${url}); });`, {
    ...options,
    eval: true,
  });
}
