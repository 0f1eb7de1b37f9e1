export type { TemporaryPostgres, TemporaryPostgresOptions } from './temporary-postgres.ts';
export { findPostgresBinaries, startTemporaryPostgres } from './temporary-postgres.ts';
