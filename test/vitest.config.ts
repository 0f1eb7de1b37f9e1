import { defineProject } from 'vitest/config';

export default defineProject({
  // Parsing every Markdown file of the repository takes seconds on a loaded machine.
  test: { name: 'repo', include: ['**/*.test.ts'], testTimeout: 60_000 },
});
