/**
 * Profiles of one section of a benchmark (its measured runs, not the start-up and warm-up) with
 * the inspector in this process: a CPU profile (`.cpuprofile`, as `node --cpu-prof` writes) and
 * a sampling heap profile that counts the objects already collected too (`.heapprofile`), so it
 * shows where the allocations are made, not what stays. Either opens in Chrome's DevTools.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export interface SectionProfileOptions {
  /** Where to write the CPU profile. */
  readonly cpuProfile?: string;
  /** Where to write the sampling heap profile. */
  readonly heapProfile?: string;
  /**
   * The heap profile leaves out what young-generation collections freed: it shows what outlived
   * one (copied, then promoted), what those collections spend their time on.
   */
  readonly survivorsOnly?: boolean;
}

/** Starts the profiles asked for; the returned function stops them and writes their files. */
export async function profileSection(options: SectionProfileOptions): Promise<() => Promise<void>> {
  if (options.cpuProfile === undefined && options.heapProfile === undefined) return async () => {};
  const session = new Session();
  session.connect();
  if (options.cpuProfile !== undefined) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  if (options.heapProfile !== undefined) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: options.survivorsOnly !== true,
    });
  }
  return async () => {
    if (options.cpuProfile !== undefined) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(options.cpuProfile, JSON.stringify(profile));
    }
    if (options.heapProfile !== undefined) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(options.heapProfile, JSON.stringify(profile));
    }
    session.disconnect();
  };
}
