/**
 * A small seeded generator (mulberry32), so `--seed` replays the same choices: Math.random
 * cannot be seeded.
 */
export interface Random {
  /** A whole number in [0, n). */
  below(n: number): number;
}

export function makeRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n) => Math.floor(next() * n) };
}
