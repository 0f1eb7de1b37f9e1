import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-multi-process',
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server: DOCFLOW_TEST_POSTGRES_URL, or a throwaway one.
    globalSetup: ['../../packages/storage/src/testing/postgres/global-setup.ts'],
  },
});
