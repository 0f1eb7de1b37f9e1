import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'engine',
    include: ['test/**/*.test.ts'],
    // Snapshot texts are checked against JSON.stringify and committed run states frozen
    // (packages/engine/src/runtime/run-store.ts).
    env: { DOCFLOW_CHECK_SNAPSHOTS: '1' },
    // A PostgreSQL server for the tests on it: DOCFLOW_TEST_POSTGRES_URL, or a throwaway one.
    globalSetup: ['../storage/src/testing/postgres/global-setup.ts'],
  },
});
