/**
 * A CPU profile of a PostgreSQL server's processes by Linux `perf record` (call graphs, 4,000
 * samples a second of CPU): started on the postmaster and the children it has when called (a
 * pool's backends, once it has connected), stopped by the returned function. Read the file with
 * `perf report -i <file> --no-children --sort symbol` (where the time is) or `--children` (what
 * called it). `perf` comes from Debian's `linux-perf`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Starts recording the server of postmaster `serverPid` into `file`; resolves once attached. */
export async function recordServerCpu(
  file: string,
  serverPid: number,
): Promise<() => Promise<void>> {
  const children = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, 'utf8').trim();
  const pids = [serverPid, ...(children === '' ? [] : children.split(' '))].join(',');
  const perf = spawn(
    'perf',
    ['record', '-q', '-e', 'cpu-clock', '-F', '4000', '-g', '-o', file, '-p', pids],
    { stdio: 'inherit' },
  );
  await new Promise((resolve) => setTimeout(resolve, 500)); // until it has attached
  return async () => {
    const exited = new Promise((resolve) => perf.once('exit', resolve));
    perf.kill('SIGINT');
    await exited;
  };
}
