import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * How to start a child process on a module of this package: the module's file and the Node
 * options it needs besides the heap limit (tsx's loader when running from the TypeScript
 * sources; the parent's `--conditions`).
 */
export interface ChildStart {
  readonly modulePath: string;
  readonly execArgv: readonly string[];
}

/**
 * How to start a child process on the module `name` (without extension) next to `self` (the
 * caller's `import.meta.url`): the compiled `.js` module, or, from the TypeScript sources (tsx,
 * vitest), the `.ts` module behind tsx's loader. `undefined` when neither works: the caller then
 * does the work in its own thread.
 */
export function childEntry(self: string, name: string): ChildStart | undefined {
  const conditions = process.execArgv.filter(
    (arg) => arg.startsWith('--conditions=') || arg.startsWith('-C='),
  );
  if (self.endsWith('.js')) {
    return { modulePath: fileURLToPath(new URL(`./${name}.js`, self)), execArgv: conditions };
  }
  if (!self.endsWith('.ts')) return undefined;
  let loader: string;
  try {
    loader = join(dirname(createRequire(self).resolve('tsx/package.json')), 'dist', 'loader.mjs');
  } catch {
    return undefined;
  }
  if (!existsSync(loader)) return undefined;
  return {
    modulePath: fileURLToPath(new URL(`./${name}.ts`, self)),
    execArgv: [...conditions, '--import', pathToFileURL(loader).href],
  };
}

/** How {@link askChild} turns a reader's messages and failures into its result. */
export interface WorkerExchange<Message, Result> {
  /** A final reply's result (or a rejection); undefined for a message that is not the reply. */
  readonly reply: (
    message: Message,
  ) => { readonly value: Result } | { readonly error: unknown } | undefined;
  /** The rejection for a reader that failed (an exit before its reply). */
  readonly failed: (error: Error & { code?: string }) => unknown;
  /** Told once the reader answered (not after an abort or a failure): keep it or close it. */
  readonly answered: () => void;
}

/**
 * The message listener of one exchange with a reader: on the final
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

/** What a child's standard error keeps: its last lines say why it died. */
const STDERR_KEPT = 4096;

/** A child process started by {@link startChild}, and the end of what it wrote to stderr. */
export interface Child {
  readonly process: ChildProcess;
  stderr: string;
}

/**
 * Starts a child process from a {@link ChildStart} with a V8 heap of `heapMb` MiB, importing
 * `preload` (module specifiers) before anything else, tsx's loader included, with more V8 flags
 * (`v8Flags`). Messages cross with the structured clone (`serialization: 'advanced'`: typed
 * arrays stay typed).
 */
export function startChild(
  start: ChildStart,
  heapMb: number,
  preload: readonly string[] = [],
  v8Flags: readonly string[] = [],
): Child {
  const child = fork(start.modulePath, [], {
    execArgv: [
      ...preload.flatMap((specifier) => ['--import', specifier]),
      ...start.execArgv,
      `--max-old-space-size=${heapMb}`,
      ...v8Flags,
    ],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const entry: Child = { process: child, stderr: '' };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    entry.stderr = (entry.stderr + text).slice(-STDERR_KEPT);
  });
  // A failure to start, or a death between requests, must not become an unhandled 'error'.
  child.on('error', () => undefined);
  return entry;
}

/** Keeps the process alive for a working child (`true`) or not for an idle one. */
export function refChild(child: Child, ref: boolean): void {
  const channel = child.process.channel as { ref(): void; unref(): void } | null | undefined;
  const stderr = child.process.stderr as { ref?(): void; unref?(): void } | null;
  if (ref) {
    child.process.ref();
    channel?.ref();
    stderr?.ref?.();
  } else {
    child.process.unref();
    channel?.unref();
    stderr?.unref?.();
  }
}

/** True when a child that exited so ran out of memory: V8's heap limit, or the kernel's OOM killer. */
function outOfMemory(child: Child, signal: NodeJS.Signals | null): boolean {
  return signal === 'SIGKILL' || /heap out of memory|Allocation failed/i.test(child.stderr);
}

/**
 * Posts `request` to `child` and settles with its reply: an abort kills the child and rejects
 * with the signal's reason; a child that exits before its reply, or had exited before the
 * request, is rejected with what `exchange.failed` makes of an error whose `code` is
 * `ERR_CHILD_OUT_OF_MEMORY` when it ran out of memory.
 */
export function askChild<Message, Result>(
  child: Child,
  request: unknown,
  signal: AbortSignal,
  exchange: WorkerExchange<Message, Result>,
): Promise<Result> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const proc = child.process;
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      proc.off('message', onMessage);
      proc.off('close', onExit);
    };
    const onAbort = () => {
      done();
      proc.kill('SIGKILL');
      reject(signal.reason);
    };
    const onMessage = replyListener(exchange, done, resolve, reject);
    const onExit = (code: number | null, exitSignal: NodeJS.Signals | null) => {
      done();
      const oom = outOfMemory(child, exitSignal);
      const last = child.stderr.trim().split('\n').slice(-1)[0] ?? '';
      const error = Object.assign(
        new Error(
          oom
            ? 'its process ran out of memory'
            : `its process exited (${exitSignal ?? `code ${code}`})${last ? `: ${last}` : ''}`,
        ),
        oom ? { code: 'ERR_CHILD_OUT_OF_MEMORY' } : {},
      );
      reject(exchange.failed(error));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    proc.on('message', onMessage);
    // 'close', not 'exit': its stderr is then read to the end, so that a death by running out of
    // memory is told by V8's last words even on a loaded machine ('exit' may come before them).
    proc.on('close', onExit);
    if (proc.exitCode !== null || proc.signalCode !== null || !proc.connected) {
      onExit(proc.exitCode, proc.signalCode);
      return;
    }
    proc.send(request as never, (error) => {
      if (error) onExit(proc.exitCode, proc.signalCode);
    });
  });
}
