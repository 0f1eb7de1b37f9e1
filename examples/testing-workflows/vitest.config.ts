import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-testing-workflows', include: ['test/**/*.test.ts'] },
});
