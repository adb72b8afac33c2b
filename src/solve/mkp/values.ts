/**
 * Whether a packed problem's values do not depend on the node: every kept session has the same packed
 * key on each of its candidate nodes (uncredited pools, credit equal on every node, the credit-free
 * remainder of the credit level). Such a problem is a multiple knapsack (with per-item candidate
 * knapsacks), which the multiple-knapsack path solves with exact f64 sums.
 */
import { keyWords, LOW_WORD, nodesKept, sessionsKept, type PackedProblem } from '../pack.js';

/** Every sum of values the path forms stays below this, so f64 arithmetic on them is exact. */
const EXACT_LIMIT = 2 ** 53;

/**
 * Each kept session's value (its packed key, the same on all its candidate nodes), or null when some
 * session's key differs between two of its candidate nodes, the packed key does not fit, or the sum of
 * all values reaches 2^53. Keys are read as their two 32-bit words (no BigInt per key): each one below
 * 2^53 is exact as a double, and one at or above 2^53 (rounded, perhaps, but not below 2^53) alone makes
 * the sum reach it, so inexact keys never reach the comparisons that matter.
 */
export function nodeIndependentValues(packed: PackedProblem): Float64Array | null {
  if (!packed.keyFits) return null;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const words = keyWords(packed.key);
  const out = new Float64Array(n);
  let total = 0;
  for (let j = 0; j < n; j++) {
    let key = -1;
    for (let b = 0; b < m; b++) {
      const e = j * m + b;
      if (packed.candidate[e] !== 1) continue;
      const k = words[2 * e + 1 - LOW_WORD]! * 4_294_967_296 + words[2 * e + LOW_WORD]!;
      if (key < 0) key = k;
      else if (k !== key) return null;
    }
    total += key;
    if (total >= EXACT_LIMIT) return null;
    out[j] = key;
  }
  return out;
}
