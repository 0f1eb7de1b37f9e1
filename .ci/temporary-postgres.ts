/**
 * Starts a throwaway PostgreSQL server for `.ci/run` (the same helper the tests and benchmarks
 * use), writes its URL to the file named by the first argument, and keeps it running until this
 * process gets SIGTERM or SIGINT; then stops it and removes its data directory.
 * Usage: node --import tsx .ci/temporary-postgres.ts <url-file>
 */
import { writeFileSync } from 'node:fs';
import { startTemporaryPostgres } from '../packages/storage/src/testing/postgres/index.ts';

const [urlFile] = process.argv.slice(2);
if (urlFile === undefined) throw new Error('usage: temporary-postgres.ts <url-file>');
// The test files run in parallel, each with the pools of its adapters.
const server = await startTemporaryPostgres({ settings: { max_connections: 300 } });
writeFileSync(urlFile, `${server.url}\n`);
const keepAlive = setInterval(() => undefined, 60_000);
const stop = async () => {
  clearInterval(keepAlive);
  await server.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
