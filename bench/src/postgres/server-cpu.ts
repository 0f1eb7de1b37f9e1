/**
 * The CPU time a PostgreSQL server has used, from Linux's `/proc`: its postmaster's and its live
 * processes' (backends, WAL writer, checkpointer), plus what its exited children used (the
 * postmaster's `cutime`/`cstime`). Read before and after a measurement, the difference is what the
 * server spent on it: on a machine whose cores the client and the server share, the steps' whole
 * cost is the client's CPU and this. Undefined where `/proc` is not there.
 */
import { existsSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of a process, in clock ticks. */
function times(pid: number): [number, number, number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].map((i) => Number(fields[i])) as [number, number, number, number];
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Microseconds of CPU the server of postmaster `pid` has used so far. */
export function serverCpuMicros(pid: number): number | undefined {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined;
  const own = times(pid);
  if (own === undefined) return undefined;
  let ticks = own[0] + own[1] + own[2] + own[3];
  let children: string;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  } catch {
    return undefined; // a kernel without the children list
  }
  for (const child of children === '' ? [] : children.split(' ')) {
    const t = times(Number(child));
    if (t !== undefined) ticks += t[0] + t[1];
  }
  return (ticks * 1_000_000) / TICKS_PER_SECOND;
}
