export type { StorageFactory } from './contract-helpers.ts';
export type { StorageContractOptions } from './describe-storage-contract.ts';
export { describeStorageContract } from './describe-storage-contract.ts';
export type { PostgresForTests } from './postgres-for-tests.ts';
export { postgresForTests } from './postgres-for-tests.ts';
