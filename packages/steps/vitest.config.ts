import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'steps',
    include: ['test/**/*.test.ts'],
    // Snapshot texts are checked against JSON.stringify and committed run states frozen
    // (packages/engine/src/runtime/run-store.ts).
    env: { DOCFLOW_CHECK_SNAPSHOTS: '1' },
  },
});
