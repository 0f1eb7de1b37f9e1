/**
 * Runs the backend on http://127.0.0.1:3000 (PORT to change it) with its database at
 * `.tmp/docflow-backend.db` (or the first argument). Ctrl-C stops it; start it again and unfinished
 * runs carry on. Run it with `pnpm --filter @docflow/example-express-backend start`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './start-server.ts';

// .tmp/ is git-ignored: the database and the webhook secret beside it stay out of commits.
const dbPath = process.argv[2] ?? join(process.cwd(), '.tmp', 'docflow-backend.db');
mkdirSync(join(dbPath, '..'), { recursive: true });
const server = await startServer({
  dbPath,
  port: Number(process.env.PORT ?? 3000),
  log: console.log,
});
console.log(`try:
  curl -s -X POST ${server.url}/workflows -H 'content-type: application/json' \\
    -d '{"name":"Invoices","steps":[{"name":"trigger","type":"TRIGGER","next":[{"step":"parse"}]},{"name":"parse","type":"PARSE"}]}'
  curl -s -X POST '${server.url}/files?name=invoice.txt' --data-binary 'Invoice number: INV-1 Total: 10.00 EUR'
  curl -s -X POST ${server.url}/workflow_runs -H 'content-type: application/json' \\
    -d '{"workflow":{"id":"<workflow id>"},"file":{"id":"<file id>"}}'
  curl -s ${server.url}/workflow_runs/<run id>`);
const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
