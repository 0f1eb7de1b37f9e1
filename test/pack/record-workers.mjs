// Preloaded (`node --import`) by the packed-install test: records the entry of every worker thread
// the application starts, so that the test can tell compiled JavaScript from anything else.
import { appendFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const threads = createRequire(import.meta.url)('node:worker_threads');
const Original = threads.Worker;
const log = process.env.DOCFLOW_WORKER_LOG;
threads.Worker = class RecordedWorker extends Original {
  constructor(entry, options) {
    super(entry, options);
    if (log) appendFileSync(log, `${options?.eval ? `eval:${entry}` : String(entry)}\n`);
  }
};
// `import { Worker } from 'node:worker_threads'` sees the replacement from here on.
syncBuiltinESMExports();
