/** A seeded random source (mulberry32) and the helpers the generator draws with. */

export interface Random {
  /** 0 ≤ x < 1. */
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  /** A sample of `n` distinct elements in random order. */
  sample<T>(list: readonly T[], n: number): T[];
  /** A child source whose draws do not disturb this one's sequence. */
  fork(label: string): Random;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function random(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const self: Random = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(list: readonly T[]) => {
      if (list.length === 0) throw new Error('pick from an empty list');
      return list[Math.floor(next() * list.length)] as T;
    },
    chance: (p) => next() < p,
    sample: <T>(list: readonly T[], n: number) => {
      const copy = [...list];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, n);
    },
    fork: (label) => random((seed ^ hash(label)) >>> 0),
  };
  return self;
}
