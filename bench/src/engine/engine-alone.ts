/**
 * The engine's own cost per step, without storage: issue 4's 5-step linear workflow of no-op
 * executors on the in-memory adapter, whose `commit` does nothing once the workflow and the file
 * are stored (the engine caches active runs, so runs still complete). Not a product figure, a
 * diagnostic: it is steady enough (minimum of three rounds) to tell changes of the engine's hot
 * path of 1 µs per step apart, which the durable figures, moving ±15% with this machine, cannot.
 * With `STRINGIFY=1` each commit still serialises its snapshot, as every real adapter does.
 *
 *   cd bench && npx tsc -b .. && node --conditions=docflow-compiled --import tsx src/engine/engine-alone.ts
 */
import { type Changes, memoryStorage, type StorageAdapter } from '@docflow/storage';
import { machineLine } from '../harness.ts';
import { runClients, startLinearEngine } from './linear-noop.ts';

const RUNS = Number(process.env.RUNS ?? 8000);
const ROUNDS = 3;

const memory = memoryStorage();
let storing = true;
const commit: StorageAdapter['commit'] = (changes: Changes, options) => {
  if (storing) return memory.commit(changes, options);
  if (process.env.STRINGIFY === '1') for (const r of changes.runs ?? []) JSON.stringify(r.snapshot);
  return Promise.resolve({ runRevisions: {}, documentRevisions: {} });
};
/** The in-memory adapter with that `commit` (its other methods bound to it). */
const storage = new Proxy(memory, {
  get(target, key) {
    if (key === 'commit') return commit;
    const value = Reflect.get(target, key) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  },
});

const { engine, workflowId, fileId } = await startLinearEngine(storage, 64);
storing = false;

const loop = (count: number) => runClients(engine, workflowId, fileId, count);
await loop(RUNS / 4);
const rounds: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const t0 = performance.now();
  await loop(RUNS);
  rounds.push(((performance.now() - t0) * 1000) / (RUNS * 5));
}
await engine.stop();
console.log(machineLine());
console.log(
  `engine alone: ${Math.min(...rounds).toFixed(1)} µs per step (minimum of ${ROUNDS} rounds: ${rounds
    .map((r) => r.toFixed(1))
    .join(', ')})${process.env.STRINGIFY === '1' ? ', snapshots serialised' : ''}`,
);
