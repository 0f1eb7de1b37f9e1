import { type Child, refChild } from './contained-process.ts';

/** A pooled reader process and the heap it was started with. */
export interface Reader {
  readonly child: Child;
  readonly heapMb: number;
  /** Set once its process has exited: it is never handed out again. */
  dead: boolean;
}

/** How a {@link readerPool} starts and keeps its readers. */
export interface ReaderPoolOptions {
  /** Starts a reader process with a V8 heap of `heapMb` MiB (contained-process.ts). */
  readonly spawn: (heapMb: number) => Child | Promise<Child>;
  /** Idle readers kept at most; past it the oldest goes (most likely one of another heap size). */
  readonly idleKept: number;
  /** Idle readers close this long after the last one was returned, ms. */
  readonly idleMs: number;
}

/** Warm reader processes of one entry module, by heap size. */
export interface ReaderPool {
  /** An idle reader of this heap size, or a new one; it keeps this process alive until returned. */
  acquire(heapMb: number): Promise<Reader>;
  /** Returns a reader that answered; it no longer keeps this process alive. */
  release(reader: Reader): void;
  /** Ends every idle reader (they are started again on demand). */
  close(): Promise<void>;
  /** Idle readers kept now. */
  readonly idle: number;
}

/**
 * A pool of reader processes: the parsers a reader loads (pdf.js; the DOCX, XLSX and markup
 * parsers) cost more to load and compile than most documents cost to read, so a reader that
 * answered is kept for the next document of the same heap size, unreferenced so that it holds
 * no process open, until the pool has been idle for `idleMs`. The next document goes to the
 * reader returned last.
 */
export function readerPool(options: ReaderPoolOptions): ReaderPool {
  const idle: Reader[] = [];
  let timer: NodeJS.Timeout | undefined;
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const close = async (): Promise<void> => {
    stopTimer();
    await Promise.all(
      idle.splice(0).map(
        (reader) =>
          new Promise<void>((resolve) => {
            if (reader.dead) return resolve();
            reader.child.process.once('exit', () => resolve());
            reader.child.process.kill();
          }),
      ),
    );
  };
  return {
    async acquire(heapMb) {
      stopTimer();
      // The reader returned last: its code is the most optimised for what this process reads
      // (each reader's JIT learns from its own documents only) and its memory the most likely
      // still in the processor's caches; the others go idle and end after `idleMs`.
      const i = idle.findLastIndex((reader) => reader.heapMb === heapMb && !reader.dead);
      let reader: Reader;
      if (i === -1) {
        const child = await options.spawn(heapMb);
        const started: Reader = { child, heapMb, dead: false };
        child.process.once('exit', () => {
          started.dead = true;
        });
        reader = started;
      } else {
        reader = idle.splice(i, 1)[0] as Reader;
      }
      // A working reader keeps this process alive; an idle one must not.
      refChild(reader.child, true);
      return reader;
    },
    release(reader) {
      if (reader.dead) return;
      refChild(reader.child, false);
      idle.push(reader);
      while (idle.length > options.idleKept) idle.shift()?.child.process.kill();
      timer ??= setTimeout(() => void close(), options.idleMs);
      timer.unref();
    },
    close,
    get idle() {
      return idle.length;
    },
  };
}
