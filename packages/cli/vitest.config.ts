import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['test/**/*.test.ts'],
    // Tests run the CLI in subprocesses; each loads the engine and the parsers.
    testTimeout: 180_000,
  },
});
