import { colorEnabled, createStyle, type Style } from './output/style.ts';

/** Where a command writes, and how. */
export interface CliContext {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  /** Styles for stdout and stderr, each off when its stream is not a colour terminal. */
  readonly out: Style;
  readonly err: Style;
  readonly cwd: string;
  /** Writes a line to stdout. */
  print(line?: string): void;
  /** Writes a line to stderr. */
  warn(line: string): void;
}

/** The context of this process. */
export function processContext(): CliContext {
  const { stdout, stderr } = process;
  return {
    stdout,
    stderr,
    out: createStyle(colorEnabled(stdout)),
    err: createStyle(colorEnabled(stderr)),
    cwd: process.cwd(),
    // Once a reader has closed the pipe (closed-pipes.ts ends the process), write nothing more.
    print: (line = '') => void (stdout.writable && stdout.write(`${line}\n`)),
    warn: (line) => void (stderr.writable && stderr.write(`${line}\n`)),
  };
}
