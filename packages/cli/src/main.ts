import { CommanderError } from 'commander';
import { type CliContext, processContext } from './cli-context.ts';
import { CliError, ExitCode } from './cli-error.ts';
import { createProgram } from './create-program.ts';

/**
 * Runs the `docflow` command line on `argv` (as `process.argv`: node, script, arguments…) and
 * resolves with the exit code: 0 success, 1 failure, 2 usage error.
 *
 * @example
 * process.exitCode = await main(process.argv);
 */
export async function main(
  argv: readonly string[],
  context: CliContext = processContext(),
): Promise<number> {
  const exit = { code: ExitCode.OK as number };
  const program = createProgram(context, exit);
  try {
    await program.parseAsync([...argv]);
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return ExitCode.USAGE;
    }
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Asked-for help and version exit 0; everything else commander refuses (unknown command or
      // option, missing argument, a command group without its subcommand) is a usage error.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    if (error instanceof CliError) {
      context.warn(`${context.err.red('error:')} ${error.message}`);
      return error.exitCode;
    }
    context.warn(
      `${context.err.red('error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return ExitCode.FAILURE;
  }
}
