import { postgresForTests } from '@docflow/storage/testing';
import { describe } from 'vitest';
import { describeEngineSemantics } from './semantics-suite.ts';

// The engine's semantics suite on PostgreSQL: a store shared by processes, so every step the
// engine runs is leased and its outcome fenced (a schema of its own per engine).
const pg = postgresForTests();

describe.skipIf(pg.skip)('on PostgreSQL', () => {
  describeEngineSemantics((clock) => pg.storage({ clock }));
});
