import { memoryStorage } from '@docflow/storage';
import { describeStorageContract } from '@docflow/storage/testing';

describeStorageContract('memory', () => memoryStorage());
