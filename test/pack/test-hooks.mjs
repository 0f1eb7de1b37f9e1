// Preloaded (`node --import`) by the packed-install test, before the application:
// - records the entry of every worker thread and child process the application starts, so that
//   the test can tell compiled JavaScript from anything else;
// - reports an idle machine (a load average of 0), so that a long PDF is read on worker threads
//   as it is on an idle machine, whatever else is running beside the test suite.
import { appendFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const threads = require('node:worker_threads');
const os = require('node:os');
const Original = threads.Worker;
const log = process.env.DOCFLOW_WORKER_LOG;
threads.Worker = class RecordedWorker extends Original {
  constructor(entry, options) {
    super(entry, options);
    if (log) appendFileSync(log, `${options?.eval ? `eval:${entry}` : String(entry)}\n`);
  }
};
const childProcess = require('node:child_process');
const originalFork = childProcess.fork;
childProcess.fork = (modulePath, ...rest) => {
  if (log) appendFileSync(log, `${pathToFileURL(String(modulePath)).href}\n`);
  return originalFork(modulePath, ...rest);
};
os.loadavg = () => [0, 0, 0];
// `import { Worker } from 'node:worker_threads'`, `import { fork } from 'node:child_process'` and
// `import { loadavg } from 'node:os'` see the replacements from here on.
syncBuiltinESMExports();
