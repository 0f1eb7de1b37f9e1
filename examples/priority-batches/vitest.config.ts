import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-priority-batches', include: ['test/**/*.test.ts'] },
});
