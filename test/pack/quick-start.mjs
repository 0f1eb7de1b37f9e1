// The README's usage, as a user runs it from an empty project with plain `node`: SQLite with the
// writer thread, a workflow that parses and extracts each file given on the command line (the
// offline provider), one JSON line per run on stdout.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createEngine } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';

const storage = sqliteStorage({ path: 'docflow.db', writerThread: true });
const engine = createEngine({ storage, steps: builtinSteps() });
await engine.start();
const wf = await engine.workflows.create({
  name: 'Invoices',
  steps: [
    { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
    { name: 'parse', type: 'PARSE', next: [{ step: 'extract' }] },
    {
      name: 'extract',
      type: 'EXTRACT',
      config: {
        extractorConfig: {
          schema: {
            type: 'object',
            properties: {
              invoice_number: { type: ['string', 'null'] },
              total: { type: ['number', 'null'] },
            },
          },
        },
      },
    },
  ],
});
await engine.workflows.deploy(wf.id);
for (const path of process.argv.slice(2)) {
  const file = await engine.files.upload({ name: basename(path), data: await readFile(path) });
  const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } });
  const done = await engine.workflowRuns.waitFor(run.id);
  const step = (name) => done.stepRuns.find((s) => s.step.name === name);
  const chunks = step('parse')?.result?.parseRun?.output?.chunks;
  console.log(
    JSON.stringify({
      file: file.name,
      status: done.status,
      failureReason: done.failureReason ?? null,
      failureMessage: done.failureMessage ?? null,
      chunks: chunks?.length ?? null,
      lastChunk: chunks?.at(-1)?.content.slice(0, 80) ?? null,
      extracted: step('extract')?.result?.extractRun?.output?.value ?? null,
    }),
  );
}
await engine.stop();
