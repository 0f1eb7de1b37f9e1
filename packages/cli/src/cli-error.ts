/** Exit codes: 0 success, 1 the operation failed, 2 the command line was wrong. */
export const ExitCode = { OK: 0, FAILURE: 1, USAGE: 2 } as const;

/** An exit code of the CLI. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI reports as one line on stderr and turns into an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = ExitCode.FAILURE) {
    super(message);
    this.exitCode = exitCode;
  }
}
