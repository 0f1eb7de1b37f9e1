import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-invoice-intake', include: ['test/**/*.test.ts'] },
});
