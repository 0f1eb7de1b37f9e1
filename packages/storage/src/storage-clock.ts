/**
 * Time as an adapter sees it. Structurally the same as the engine's clock, so an engine can hand
 * its own (controllable) clock to its storage.
 */
export interface StorageClock {
  now(): Date;
}

/** The wall clock. */
export const systemStorageClock: StorageClock = { now: () => new Date() };
