export type { StorageFactory } from './contract-helpers.ts';
export type { StorageContractOptions } from './describe-storage-contract.ts';
export { describeStorageContract } from './describe-storage-contract.ts';
