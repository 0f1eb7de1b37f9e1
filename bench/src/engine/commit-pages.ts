/**
 * What one step commit writes: WAL frames (4 KiB pages) per commit of a 5-step no-op run on
 * SQLite (`normal`), and which B-trees they belong to. Checkpoints are turned off so that the WAL
 * holds every frame written. Fewer pages per commit is what the engine's throughput follows
 * (docs/decisions/0005-step-commit-cost.md).
 *
 *   cd bench && npx tsx src/engine/commit-pages.ts
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { scratchDir } from '../harness.ts';
import { startLinearEngine } from './linear-noop.ts';

const RUNS = Number(process.env.RUNS ?? 200);
const path = join(scratchDir('docflow-pages-'), 'p.db');
const { engine, workflowId, fileId } = await startLinearEngine(
  sqliteStorage({ path, walCheckpointPages: 0 }),
);
const runs = async (n: number) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      (await engine.workflowRuns.create({ workflow: { id: workflowId }, file: { id: fileId } })).id,
    );
  }
  for (const id of ids) await engine.workflowRuns.waitFor(id);
};
// Tables and indexes with some depth first, as in a database that has been in use.
await runs(300);
const FRAME = 4096 + 24;
const walBytes = () => statSync(`${path}-wal`).size;
const before = walBytes();
await runs(RUNS);
const frames = (walBytes() - before) / FRAME;
// A run is 6 commits: its creation (TRIGGER done, s1 started) and one per executor step.
const perCommit = frames / RUNS / 6;

const reader = new BetterSqlite3(path, { readonly: true });
const owner = new Map<number, string>();
for (const row of reader.prepare('SELECT name, pageno FROM dbstat').all() as {
  name: string;
  pageno: number;
}[]) {
  owner.set(row.pageno, row.name);
}
reader.close();
const wal = readFileSync(`${path}-wal`);
const byTree = new Map<string, number>();
for (
  let offset = 32 + Math.ceil((before - 32) / FRAME) * FRAME;
  offset + 24 <= wal.length;
  offset += FRAME
) {
  const name = owner.get(wal.readUInt32BE(offset)) ?? '(new or free page)';
  byTree.set(name, (byTree.get(name) ?? 0) + 1);
}
await engine.stop();

console.log(`### WAL pages per step commit (${RUNS} five-step runs after 300)\n`);
console.log(`${perCommit.toFixed(2)} pages per commit (${frames.toFixed(0)} frames)\n`);
console.log('| B-tree | share of frames |\n|---|---|');
const total = [...byTree.values()].reduce((a, b) => a + b, 0);
for (const [name, n] of [...byTree].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${name} | ${((100 * n) / total).toFixed(1)}% |`);
}
