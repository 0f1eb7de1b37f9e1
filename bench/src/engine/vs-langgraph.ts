/**
 * Issue 4: docflow's 5-step linear workflow of no-op executors on SQLite (`normal` and `batched`)
 * beside LangGraph.js running an equivalent 5-node graph with its SQLite checkpointer, in the same
 * process, same number of runs, same concurrency. Reports steps per second and the ratio.
 *
 *   cd bench && npx tsx src/engine/vs-langgraph.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { machineLine } from '../harness.ts';
import { CONCURRENCY, CONFIGS, linearThroughput } from './linear-noop.ts';

const RUNS = Number(process.env.RUNS ?? 2000);

/**
 * LangGraph's steps per second. `sync` saves each step's checkpoint before the next step starts,
 * the guarantee docflow gives (a transition is committed before it is acted on); LangGraph's
 * default, `async`, saves it while the next step already runs.
 */
async function langGraphStepsPerSecond(durability: 'sync' | 'async'): Promise<number> {
  const State = Annotation.Root({
    n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  });
  const path = join(mkdtempSync(join(tmpdir(), 'docflow-langgraph-')), 'lg.db');
  const checkpointer = SqliteSaver.fromConnString(path);
  const names = ['s1', 's2', 's3', 's4', 's5'] as const;
  let builder = new StateGraph(State) as unknown as StateGraph<typeof State.spec>;
  for (const name of names)
    builder = builder.addNode(name, (s: { n: number }) => ({ n: s.n + 1 })) as never;
  builder = builder.addEdge(START, 's1' as never) as never;
  for (let i = 0; i < names.length - 1; i++)
    builder = builder.addEdge(names[i] as never, names[i + 1] as never) as never;
  builder = builder.addEdge('s5' as never, END) as never;
  const graph = builder.compile({ checkpointer });
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < RUNS) {
      const i = next++;
      await graph.invoke({ n: 0 }, { configurable: { thread_id: `t${i}` }, durability });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return (RUNS * 5) / ((performance.now() - t0) / 1000);
}

const lg = await langGraphStepsPerSecond('sync');
const lgAsync = await langGraphStepsPerSecond('async');
const rows: [string, Awaited<ReturnType<typeof linearThroughput>>][] = [];
for (const config of CONFIGS) rows.push([config.name, await linearThroughput(config)]);
// LangGraph again at the end: the machine may have changed under the run.
const lgAfter = await langGraphStepsPerSecond('sync');
const peer = Math.max(lg, lgAfter);
console.log(
  `### 5-step linear no-op workflow on SQLite vs LangGraph.js (${RUNS} runs, ${CONCURRENCY} clients)\n`,
);
console.log(`${machineLine()}\n`);
console.log(
  '| docflow configuration | steps/s | transitions/s | CPU µs per step | bytes stored per step | vs LangGraph `sync` (steps/s) |',
);
console.log('|---|---|---|---|---|---|');
for (const [name, r] of rows) {
  console.log(
    `| ${name} | ${r.stepsPerSecond.toFixed(0)} | ${r.transitionsPerSecond.toFixed(0)} | ${r.cpuMicrosPerStep.toFixed(0)} | ${r.bytesPerStep.toFixed(0)} | ${(r.stepsPerSecond / peer).toFixed(1)}× |`,
  );
}
console.log(
  `| LangGraph.js + SqliteSaver, \`durability: 'sync'\` (before / after; the better is the base) | ${lg.toFixed(0)} / ${lgAfter.toFixed(0)} | – | – | – | 1× |`,
);
console.log(
  `| LangGraph.js + SqliteSaver, \`durability: 'async'\` (its default; not equivalent) | ${lgAsync.toFixed(0)} | – | – | – | ${(lgAsync / peer).toFixed(1)}× |`,
);
