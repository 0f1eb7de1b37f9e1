/**
 * `@docflow/engine/testing`: run workflows offline in a test suite with fake executors and a
 * controllable clock.
 */
export type { TestClock } from './test-clock.ts';
export { createTestClock } from './test-clock.ts';
export type { FakeStepBehaviour, TestEngine, TestEngineOptions } from './test-engine.ts';
export { createTestEngine, fakeStep } from './test-engine.ts';
