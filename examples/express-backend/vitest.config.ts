import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-express-backend', include: ['test/**/*.test.ts'] },
});
