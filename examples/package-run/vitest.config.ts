import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-package-run', include: ['test/**/*.test.ts'] },
});
