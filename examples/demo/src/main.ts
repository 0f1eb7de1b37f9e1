/**
 * The docflow demo: uploads a shipped text invoice, runs TRIGGER → PARSE on SQLite, prints the
 * finished run as JSON and a one-line summary. Run it with `pnpm demo` from the repository root.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type WorkflowRun } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';

const here = dirname(fileURLToPath(import.meta.url));

/** Runs the demo and returns the finished run. */
export async function runDemo(
  dbPath: string,
  log: (line: string) => void = console.log,
): Promise<WorkflowRun> {
  const engine = createEngine({ storage: sqliteStorage({ path: dbPath }), steps: builtinSteps() });
  await engine.start();
  try {
    const data = await readFile(join(here, '..', 'documents', 'invoice.txt'));
    const file = await engine.files.upload({ name: 'invoice.txt', data });
    const workflow = await engine.workflows.create({
      name: 'Demo: parse an invoice',
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        {
          name: 'parse',
          type: 'PARSE',
          config: { parseConfig: { chunkingStrategy: { type: 'page' } } },
        },
      ],
    });
    await engine.workflows.deploy(workflow.id);
    const run = await engine.workflowRuns.create({
      workflow: { id: workflow.id },
      file: { id: file.id },
    });
    const done = await engine.workflowRuns.waitFor(run.id, { timeoutMs: 60_000 });
    log(JSON.stringify(done, null, 2));
    const parse = done.stepRuns.find((s) => s.stepType === 'PARSE');
    const chunks =
      (parse?.result?.parseRun as { output?: { chunks?: unknown[] } } | undefined)?.output
        ?.chunks ?? [];
    log(
      `run ${done.id} ${done.status}: ${done.stepRuns.length} steps, ${chunks.length} chunk(s) from ${file.name} (${done.workflowVersion.name} v${done.workflowVersion.version}), stored in ${dbPath}`,
    );
    return done;
  } finally {
    await engine.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const db = process.argv[2] ?? join(process.cwd(), 'docflow-demo.db');
  runDemo(db).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
