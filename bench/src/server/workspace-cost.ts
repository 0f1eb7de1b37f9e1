/**
 * What one engine per workspace costs (decision 0009): the server is started over 1, 25 and 100
 * workspaces on SQLite and each figure is read per workspace: start time (every engine opens its
 * file and resumes), resident memory, open file descriptors, and the CPU the idle server burns
 * (each engine's webhook dispatcher polls its outbox once a second).
 *
 *   cd bench && npx tsx src/server/workspace-cost.ts
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createServer, serverStorage } from '@docflow/server';
import { machineLine, scratchDir } from '../harness.ts';

const IDLE_MS = 5000;

async function costOf(workspaces: number) {
  const dir = scratchDir('docflow-ws-cost-');
  const storage = serverStorage({ db: `${dir}/registry.db` });
  await storage.registry.open();
  const org = storage.registry.ensureOrganization('bench');
  for (let i = 0; i < workspaces; i++) storage.registry.ensureWorkspace(org.id, `ws-${i}`);
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  const fds0 = readdirSync('/proc/self/fd').length;
  const t0 = performance.now();
  const server = await createServer({ ...storage, logger: false });
  const startMs = performance.now() - t0;
  await server.listen();
  globalThis.gc?.();
  const rssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  const fds = readdirSync('/proc/self/fd').length - fds0;
  const cpu0 = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const cpu = process.cpuUsage(cpu0);
  const idleCpuPercent = ((cpu.user + cpu.system) / 1000 / IDLE_MS) * 100;
  await server.close();
  return { workspaces, startMs, rssMb, fds, idleCpuPercent };
}

console.log(machineLine());
console.log(
  '\n| workspaces | start ms | per workspace | RSS MB | per workspace | fds | idle CPU % |',
);
console.log('|---|---|---|---|---|---|---|');
for (const n of [1, 25, 100]) {
  const r = await costOf(n);
  console.log(
    `| ${n} | ${r.startMs.toFixed(0)} | ${(r.startMs / n).toFixed(1)} ms | ${r.rssMb.toFixed(0)} | ${(r.rssMb / n).toFixed(2)} MB | ${r.fds} | ${r.idleCpuPercent.toFixed(2)} |`,
  );
}
