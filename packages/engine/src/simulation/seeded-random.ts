/**
 * Repeatable randomness for a test call's line: the same seed (a test result's id) gives the same
 * lost packets and the same noise on every run, so a failing case can be run again as it failed.
 */

/** FNV-1a: a short, well-spread 32-bit hash of the seed text. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A generator of numbers in [0, 1) (mulberry32), one independent stream per seed text. */
export function seededRandom(seed: string): () => number {
  let state = hash32(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
