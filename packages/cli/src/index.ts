export type { CliContext } from './cli-context.ts';
export { processContext } from './cli-context.ts';
export { CliError, ExitCode } from './cli-error.ts';
export { main } from './main.ts';
