import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'formulas',
    include: ['test/**/*.test.ts'],
  },
});
