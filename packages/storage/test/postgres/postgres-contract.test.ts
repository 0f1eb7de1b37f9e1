import { describeStorageContract, postgresForTests } from '@docflow/storage/testing';
import { describe } from 'vitest';

const pg = postgresForTests();

describe.skipIf(pg.skip)(`PostgreSQL (${pg.missing || 'server'})`, () => {
  describeStorageContract('postgres', () => pg.storage({ maxConnections: 4 }), {
    propertyRuns: 10,
  });
});
