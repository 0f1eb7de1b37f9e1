/** A CliContext whose stderr is a stream in memory, a terminal or not, for the output tests. */
import { Writable } from 'node:stream';
import type { CliContext } from '../../src/cli-context.ts';
import { createStyle } from '../../src/output/style.ts';

/** The context, and everything written to its stderr so far. */
export function fakeContext(isTTY: boolean): { context: CliContext; output: () => string } {
  let written = '';
  const stderr = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        done();
      },
    }),
    { isTTY, columns: 120 },
  ) as unknown as NodeJS.WriteStream;
  const style = createStyle(false);
  const context = {
    stderr,
    err: style,
    out: style,
    warn: (line: string) => stderr.write(`${line}\n`),
  } as unknown as CliContext;
  return { context, output: () => written };
}
