import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** How to start a worker thread on a module of this package. */
export type WorkerStart = { readonly url: URL } | { readonly code: string };

/**
 * How to start a worker on the module `name` (without extension) next to `self` (the caller's
 * `import.meta.url`): the compiled `.js` module, or, when running from the TypeScript sources
 * (tsx, vitest), the `.ts` module behind tsx's loader registered inside the thread (on Node 20 a
 * loader from the parent's `--import` does not reach worker threads). `undefined` when neither
 * works: the caller then does the work in its own thread.
 */
export function workerEntry(self: string, name: string): WorkerStart | undefined {
  if (self.endsWith('.js')) return { url: new URL(`./${name}.js`, self) };
  if (!self.endsWith('.ts')) return undefined;
  let tsx: string;
  try {
    // The ESM build of tsx's API: its CommonJS build cannot register hooks from a worker.
    tsx = createRequire(self)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs');
  } catch {
    return undefined;
  }
  if (!existsSync(tsx)) return undefined;
  const api = pathToFileURL(tsx).href;
  const url = new URL(`./${name}.ts`, self).href;
  return {
    code: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`,
  };
}

/** Starts a worker from a {@link WorkerStart}. */
export function startWorker(start: WorkerStart, options: WorkerOptions = {}): Worker {
  return 'url' in start
    ? new Worker(start.url, options)
    : new Worker(start.code, { ...options, eval: true });
}
