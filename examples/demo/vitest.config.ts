import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-demo', include: ['test/**/*.test.ts'] },
});
