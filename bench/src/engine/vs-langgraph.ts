/**
 * Issue 4: docflow's 5-step linear workflow of no-op executors on SQLite (every configuration of
 * `CONFIGS`) beside LangGraph.js running an equivalent 5-node graph with its SQLite checkpointer,
 * same number of runs (`RUNS`, default 6,000, after a quarter as many unmeasured), same 16
 * clients. One script: each subject runs in a fresh child process of it (so that no subject
 * inherits another's heap, JIT state or threads), in ROUNDS interleaved
 * rounds (default 3): LangGraph, every docflow subject, LangGraph, every docflow subject, …,
 * LangGraph. A docflow measurement's ratio is taken against the mean of the two LangGraph
 * measurements around it, so that a machine whose speed drifts by a third within minutes (as
 * shared 2-core machines do) moves both sides of each ratio alike; the table gives each round's
 * ratio and their median.
 *
 *   cd bench && npx tsx src/engine/vs-langgraph.ts
 *   cd bench && ROUNDS=5 npx tsx src/engine/vs-langgraph.ts
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { machineLine, median, scratchDir } from '../harness.ts';
import { CONCURRENCY, CONFIGS, linearThroughput, RUNS, WARMUP } from './linear-noop.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

/**
 * LangGraph's steps per second. `sync` saves each step's checkpoint before the next step starts,
 * the guarantee docflow gives (a transition is committed before it is acted on); LangGraph's
 * default, `async`, saves it while the next step already runs.
 */
async function langGraphStepsPerSecond(durability: 'sync' | 'async'): Promise<number> {
  const State = Annotation.Root({
    n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  });
  const path = join(scratchDir('docflow-langgraph-'), 'lg.db');
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
  let thread = 0;
  const loop = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await graph.invoke({ n: 0 }, { configurable: { thread_id: `t${thread++}` }, durability });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  await loop(WARMUP);
  const t0 = performance.now();
  await loop(RUNS);
  return (RUNS * 5) / ((performance.now() - t0) / 1000);
}

type Result = Awaited<ReturnType<typeof linearThroughput>>;
const subject = process.argv[2];
if (subject !== undefined) {
  // A child: measure one subject and print its result as JSON.
  const config = CONFIGS.find((c) => c.name === subject);
  const result: Result | number = config
    ? await linearThroughput(config)
    : await langGraphStepsPerSecond(subject === 'langgraph-async' ? 'async' : 'sync');
  process.stdout.write(JSON.stringify(result));
} else {
  // What users run is the compiled packages (their published `exports` point at `dist/`): build
  // them, and resolve `@docflow/*` there with the `docflow-compiled` condition. One row measures
  // the TypeScript sources under tsx, as the tests and examples run them.
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-b', root], { stdio: 'inherit' });
  const measure = <T>(name: string, compiled = true): T =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...(compiled ? ['--conditions=docflow-compiled'] : []),
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          name,
        ],
        { encoding: 'utf8', env: process.env },
      ),
    ) as T;
  const subjects: readonly (readonly [label: string, name: string, compiled: boolean])[] = [
    ...CONFIGS.map((c) => [c.name, c.name, true] as const),
    ['batched, TypeScript sources under tsx', 'batched', false],
  ];
  const lgAsync = measure<number>('langgraph-async');
  const peers = [measure<number>('langgraph-sync')];
  const rounds: Result[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(subjects.map(([, name, compiled]) => measure<Result>(name, compiled)));
    peers.push(measure<number>('langgraph-sync'));
  }
  /** LangGraph's steps/s around round `r`: the mean of the measurements before and after it. */
  const peerAt = (r: number) => ((peers[r] as number) + (peers[r + 1] as number)) / 2;
  const rows = subjects.map(([label], i) => {
    const results = rounds.map((round) => round[i] as Result);
    const ratios = results.map((x, r) => x.stepsPerSecond / peerAt(r));
    return { label, results, ratios };
  });
  const list = (values: readonly number[], digits = 0, suffix = '') =>
    values.map((v) => `${v.toFixed(digits)}${suffix}`).join(' / ');
  console.log(
    `### 5-step linear no-op workflow on SQLite vs LangGraph.js (${RUNS} runs after ${WARMUP} unmeasured, ${CONCURRENCY} clients, ${ROUNDS} interleaved rounds)\n`,
  );
  console.log(`${machineLine()}\n`);
  console.log(
    '| docflow configuration (compiled packages unless said) | steps/s, each round | transitions/s, median | CPU µs per step, median | bytes stored per step, median | vs LangGraph `sync`, each round | median |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { label, results, ratios } of rows) {
    const bytes = results.map((x) => x.bytesPerStep);
    console.log(
      `| ${label} | ${list(results.map((x) => x.stepsPerSecond))} | ${median(results.map((x) => x.transitionsPerSecond)).toFixed(0)} | ${median(results.map((x) => x.cpuMicrosPerStep)).toFixed(0)} | ${bytes.every((b) => b !== undefined) ? median(bytes as number[]).toFixed(0) : '–'} | ${list(ratios, 1, '×')} | **${median(ratios).toFixed(1)}×** |`,
    );
  }
  console.log(
    `| LangGraph.js + SqliteSaver, \`durability: 'sync'\` (before, between and after the rounds) | ${list(peers)} | – | – | – | 1× | 1× |`,
  );
  console.log(
    `| LangGraph.js + SqliteSaver, \`durability: 'async'\` (its default; not equivalent; once, first) | ${lgAsync.toFixed(0)} | – | – | – | ${(lgAsync / (peers[0] as number)).toFixed(1)}× | – |`,
  );
}
