import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'storage',
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server for the adapter's tests: DOCFLOW_TEST_POSTGRES_URL, or a throwaway one.
    globalSetup: ['src/testing/postgres/global-setup.ts'],
  },
});
