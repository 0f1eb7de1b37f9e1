import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['test/**/*.test.ts'],
    // Tests run the CLI in subprocesses; each loads the engine and the parsers.
    testTimeout: 180_000,
    // A PostgreSQL server for `--postgres`: DOCFLOW_TEST_POSTGRES_URL, or a throwaway one.
    globalSetup: ['../storage/src/testing/postgres/global-setup.ts'],
  },
});
