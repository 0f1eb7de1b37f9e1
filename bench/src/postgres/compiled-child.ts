/**
 * The PostgreSQL benchmarks measure what users run, the compiled packages: each builds a
 * checkout with `tsc -b` and runs its measurements in child processes that resolve
 * `@docflow/*` to the build (`--conditions=docflow-compiled`).
 */
import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Builds the packages of the checkout at `root` with its own TypeScript. */
export function buildCompiled(root: string): void {
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-b', root], { stdio: 'inherit' });
}

/**
 * Runs `script` with `args` in a child process on the compiled packages (`nodeFlags` first, e.g.
 * `--cpu-prof`) and returns what it printed on stdout; its stderr is this process's.
 */
export function runCompiled(
  script: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly nodeFlags?: readonly string[] } = {},
): string {
  const spawn: ExecFileSyncOptions = {
    encoding: 'utf8',
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
  return execFileSync(
    process.execPath,
    [
      ...(options.nodeFlags ?? []),
      '--conditions=docflow-compiled',
      '--import',
      'tsx',
      script,
      ...args,
    ],
    spawn,
  ) as string;
}
