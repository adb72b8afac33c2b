/**
 * Local search on an incumbent of the multiple-knapsack search: regrouping (the re-optimisation of a few
 * knapsacks at a time used by improvement heuristics for the multiple knapsack problem, e.g. Pisinger's
 * MULKNAP and Fukunaga's bin-completion codes). For a group of two or three knapsacks, the items the plan
 * puts there and the items it leaves out form a smaller multiple knapsack over the group's capacities;
 * a plan of it worth more than the group holds now, put in place of the group's contents, is a better
 * plan of the whole problem (the other knapsacks keep their items, every item stays on at most one
 * knapsack, a candidate there, within its capacity). The sub-problems are solved by the caller (the
 * search itself, within a small share of work each), asked only for a plan that beats the group's value.
 *
 * Groups are tried in lexicographic order, pairs first, each size until a pass improves nothing, and
 * back to pairs after a larger group improved; a group with no left-out item that may go to any of its
 * knapsacks is skipped (its items already fill it with everything it can take).
 */
import type { WorkMeter } from './meter.js';

/** The part of a multiple-knapsack problem the search reads: one entry per item and per knapsack. */
export interface MkpInstance {
  /** Weight per item. */
  readonly qweight: Float64Array;
  /** Capacity per knapsack. */
  readonly capacity: Float64Array;
  /** 1 where item j may go to knapsack b (at j * m + b). */
  readonly candidate: Uint8Array;
}

/**
 * A plan of a sub-problem worth more than `beat` (knapsack per item, -1 = out), or null when none was
 * found. The sub-problem's items come in the order `regroup` was given.
 */
export type Reoptimise = (
  sub: MkpInstance,
  value: Float64Array,
  beat: number,
) => { readonly node: Int32Array; readonly value: number } | null;

/** A feasible plan (knapsack per item, -1 = out) and its value, improved in place. */
export interface Incumbent {
  readonly node: Int32Array;
  value: number;
}

/** The group sizes tried, in order. */
export const REGROUP_SIZES: readonly number[] = [2, 3];

/** The groups of `size` of the knapsacks 0..m-1, in lexicographic order. */
function* groups(m: number, size: number): Generator<number[]> {
  const g = Array.from({ length: size }, (_, x) => x);
  if (size > m) return;
  for (;;) {
    yield g;
    let x = size - 1;
    while (x >= 0 && g[x] === m - size + x) x--;
    if (x < 0) return;
    g[x]!++;
    for (let y = x + 1; y < size; y++) g[y] = g[y - 1]! + 1;
  }
}

/**
 * Improves `plan` in place by regrouping until no group improves or the plan reaches `goal`. `order`
 * lists the items with a positive value (the search's efficiency order); the others are never moved.
 * Spends one unit of work per item per group looked at on `meter` (the sub-problems spend their own
 * through `reoptimise`); when the meter halts it returns at once, `plan` whole (each change is made at once).
 */
export function regroup(
  inst: MkpInstance,
  value: Float64Array,
  order: Int32Array,
  plan: Incumbent,
  goal: number,
  reoptimise: Reoptimise,
  meter: WorkMeter,
): void {
  const { node } = plan;
  const m = inst.capacity.length;
  // Each knapsack's room for the items regroup moves: its capacity less the items it never moves.
  const room = Float64Array.from(inst.capacity);
  const moves = new Uint8Array(node.length);
  for (const j of order) moves[j] = 1;
  node.forEach((b, j) => {
    if (b >= 0 && moves[j] === 0) room[b] = room[b]! - inst.qweight[j]!;
  });
  if (!meter.spend(node.length)) return;
  const at = new Int32Array(m).fill(-1);
  const pool: number[] = [];
  // The sub-problems' arrays, for up to every item and the largest group (each sub-problem views its first entries).
  const most = REGROUP_SIZES[REGROUP_SIZES.length - 1]!;
  const subWeight = new Float64Array(order.length);
  const subValue = new Float64Array(order.length);
  const subCapacity = new Float64Array(most);
  const subCandidate = new Uint8Array(order.length * most);
  let s = 0;
  while (s < REGROUP_SIZES.length) {
    const size = REGROUP_SIZES[s]!;
    let improved = false;
    for (const g of groups(m, size)) {
      if (plan.value >= goal) break;
      if (!meter.spend(order.length)) return;
      for (let y = 0; y < size; y++) at[g[y]!] = y;
      pool.length = 0;
      let held = 0;
      let open = false;
      for (const j of order) {
        const b = node[j]!;
        if (b >= 0) {
          if (at[b]! < 0) continue;
          pool.push(j);
          held += value[j]!;
          continue;
        }
        let may = false;
        for (const c of g) if (inst.candidate[j * m + c] === 1 && inst.qweight[j]! <= room[c]!) may = true;
        if (!may) continue;
        pool.push(j);
        open = true;
      }
      if (open) {
        const k = pool.length;
        for (let x = 0; x < k; x++) {
          const j = pool[x]!;
          subWeight[x] = inst.qweight[j]!;
          subValue[x] = value[j]!;
          for (let y = 0; y < size; y++) subCandidate[x * size + y] = inst.candidate[j * m + g[y]!]!;
        }
        for (let y = 0; y < size; y++) subCapacity[y] = room[g[y]!]!;
        const sub: MkpInstance = {
          qweight: subWeight.subarray(0, k),
          capacity: subCapacity.subarray(0, size),
          candidate: subCandidate.subarray(0, k * size),
        };
        const better = reoptimise(sub, subValue.subarray(0, k), held);
        if (meter.halt !== null) return;
        if (better !== null) {
          for (let x = 0; x < k; x++) node[pool[x]!] = better.node[x]! >= 0 ? g[better.node[x]!]! : -1;
          plan.value += better.value - held;
          improved = true;
        }
      }
      for (const b of g) at[b] = -1;
    }
    s = improved ? 0 : s + 1;
  }
}
