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

/** How {@link askWorker} turns a worker's messages and failures into its result. */
export interface WorkerExchange<Message, Result> {
  /** A final reply's result (or a rejection); undefined for a message that is not the reply. */
  readonly reply: (
    message: Message,
  ) => { readonly value: Result } | { readonly error: unknown } | undefined;
  /** The rejection for a worker that failed (an error, or an exit before its reply). */
  readonly failed: (error: Error & { code?: string }) => unknown;
  /** Told once the worker answered (not after an abort or a failure): keep it or close it. */
  readonly answered: () => void;
}

/**
 * The message listener of one exchange (a worker thread's or a child process's): on the final
 * reply it calls `done` (removing the listeners), tells the exchange it was answered, and settles;
 * other messages (progress) are the exchange's to handle.
 */
export function replyListener<Message, Result>(
  exchange: WorkerExchange<Message, Result>,
  done: () => void,
  resolve: (value: Result) => void,
  reject: (error: unknown) => void,
): (message: Message) => void {
  return (message) => {
    const outcome = exchange.reply(message);
    if (outcome === undefined) return;
    done();
    exchange.answered();
    if ('value' in outcome) resolve(outcome.value);
    else reject(outcome.error);
  };
}

/**
 * Posts `request` to `worker` and settles with its reply. An abort terminates the worker and
 * rejects with the signal's reason; an error or an exit terminates it and rejects with what
 * `exchange.failed` makes of it. Every listener is removed once it settles.
 */
export function askWorker<Message, Result>(
  worker: Worker,
  request: unknown,
  signal: AbortSignal,
  exchange: WorkerExchange<Message, Result>,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onAbort = () => {
      done();
      void worker.terminate();
      reject(signal.reason);
    };
    const onMessage = replyListener(exchange, done, resolve, reject);
    const onError = (error: Error & { code?: string }) => {
      done();
      void worker.terminate();
      reject(exchange.failed(error));
    };
    const onExit = (code: number) => onError(new Error(`its thread exited with code ${code}`));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(request);
  });
}
