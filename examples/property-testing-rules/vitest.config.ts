import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-property-testing-rules', include: ['test/**/*.test.ts'] },
});
