/**
 * Enumeration oracle of the 0-1 knapsack: every subset of at most ~20 items. Written from the problem
 * statement alone (no solver module is imported).
 */

/** Best value of a subset of items within cap, and how many subsets attain it, by enumeration. */
export function enumerateKnapsack(
  w: readonly number[],
  p: readonly number[],
  cap: number,
): { value: number; count: number } {
  let value = 0;
  let count = 0;
  for (let mask = 0; mask < 1 << w.length; mask++) {
    let ww = 0;
    let vv = 0;
    for (let i = 0; i < w.length; i++) {
      if (mask & (1 << i)) {
        ww += w[i]!;
        vv += p[i]!;
      }
    }
    if (ww > cap) continue;
    if (vv > value) {
      value = vv;
      count = 1;
    } else if (vv === value) count++;
  }
  return { value, count };
}

/** Best value of a subset of items within cap, by the textbook DP over capacities 0..cap (O(items x cap)). */
export function capacityKnapsack(w: readonly number[], p: readonly number[], cap: number): number {
  const best = new Float64Array(cap + 1);
  for (let i = 0; i < w.length; i++) {
    for (let c = cap; c >= w[i]!; c--) best[c] = Math.max(best[c]!, best[c - w[i]!]! + p[i]!);
  }
  return best[cap]!;
}
