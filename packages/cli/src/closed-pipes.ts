/**
 * A reader that stops early (`docflow parse big.pdf | head`) closes the pipe under us: the next
 * write fails with EPIPE, which Node raises as an 'error' event on the stream and, with nobody
 * listening, as an uncaught exception with its stack trace. Like other Unix tools, docflow then
 * stops quietly: the reader has what it wanted. Stored runs lose nothing by the early exit; a
 * run still going carries on with the next command on the database.
 */

/** Codes of a write to a pipe whose reader is gone (EPIPE), or to the stream it left destroyed. */
const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** True when `error` says the reader of the stream has gone. */
export function isClosedPipe(error: unknown): boolean {
  return CLOSED.has(String((error as NodeJS.ErrnoException | undefined)?.code));
}

/**
 * Makes `streams` (stdout and stderr) end the process with `exit(0)` when their reader has gone;
 * any other stream error stays an error.
 */
export function exitQuietlyOnClosedPipes(
  streams: readonly NodeJS.WritableStream[],
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  for (const stream of streams) {
    stream.on('error', (error: unknown) => {
      if (!isClosedPipe(error)) throw error;
      exit(0);
    });
  }
}
