/**
 * The proven upper bound every Plan carries (`Plan.bound`, docs/solver.md "The bound on every plan"):
 * per value level, at least that level of the optimum (the lexicographic maximum at the plan's quantum).
 * For an optimal plan it is the plan's value; for a fallback, `relaxationBound` below, which says how far
 * from the optimum the plan can be.
 *
 * Each component of `relaxationBound` bounds that component of every feasible plan (weights rounded up to
 * the quantum, capacities down), hence of the optimum. Let C'_b = min(floor(C_b / q), the sum of w' of
 * the sessions that fit on b) (no plan puts more on b) and C = sum of C'_b.
 * - credit: the least of (1) the sum over nodes b of the Dantzig bound of b's 0-1 knapsack over the
 *   sessions credited on b (a plan's credit is the sum over nodes of what it puts on each); (2) the
 *   Dantzig bound of one knapsack of capacity C over every session, worth its best credit; (3) the credit
 *   level's exact per-node optimum when the solve computed it (PlanStats.creditLevel.bound);
 * - ready: the most ready sessions whose w' fit in C together (the lightest ones first);
 * - tokens: the Dantzig bound of one knapsack of capacity C over every session, worth its tokens.
 * Every bound is an integer: the integral part of the LP optimum, exact (the one fractional item is
 * divided in BigInt; items are ordered by exact ratio comparison).
 */
import type { PlanStats, PlanValue } from '../types.js';
import type { IndexedArrays } from './validate.js';

/**
 * The upper bound on every plan of `problem` at `quantum`, from the relaxations above; `stats` may hold
 * a tighter credit bound the solve proved. O(sessions x nodes) to read the dense pair arrays (every other
 * step is over the credit entries and the sessions, sorted).
 */
export function relaxationBound(problem: IndexedArrays, quantum: number, stats?: Pick<PlanStats, 'creditLevel'>): PlanValue {
  const m = problem.capacity.length;
  const n = problem.weight.length;
  const qcap = new Float64Array(m);
  const fitSum = new Float64Array(m);
  const qweight = new Float64Array(n);
  for (let b = 0; b < m; b++) qcap[b] = Math.floor(problem.capacity[b]! / quantum);
  for (let i = 0; i < n; i++) qweight[i] = Math.ceil(problem.weight[i]! / quantum);
  // The sessions that fit somewhere, their best credit, and the credit entries (pairs with credit > 0).
  const kept: number[] = [];
  const best = new Float64Array(n);
  const entryNode: number[] = [];
  const entrySession: number[] = [];
  for (let i = 0; i < n; i++) {
    const w = qweight[i]!;
    let fits = false;
    for (let b = 0; b < m; b++) {
      const e = i * m + b;
      if (problem.eligible[e] !== 1 || w > qcap[b]!) continue;
      fits = true;
      fitSum[b] = fitSum[b]! + w;
      const k = problem.credit[e]!;
      if (k > 0) {
        entryNode.push(b);
        entrySession.push(i);
        if (k > best[i]!) best[i] = k;
      }
    }
    if (fits) kept.push(i);
  }
  const room = new Float64Array(m);
  let total = 0;
  for (let b = 0; b < m; b++) {
    room[b] = Math.min(qcap[b]!, fitSum[b]!);
    total += room[b]!;
  }

  // (1) per node, over the entries grouped by node.
  const byNode = entryNode.map((_, t) => t).sort((s, t) => entryNode[s]! - entryNode[t]!);
  let perNode = 0;
  for (let a = 0; a < byNode.length; ) {
    const b = entryNode[byNode[a]!]!;
    let z = a;
    while (z < byNode.length && entryNode[byNode[z]!] === b) z++;
    const items = byNode.slice(a, z).map((t) => entrySession[t]!);
    perNode += dantzig(items, qweight, (i) => problem.credit[i * m + b]!, room[b]!);
    a = z;
  }
  let credit = Math.min(perNode, dantzig(kept, qweight, (i) => best[i]!, total));
  const level = stats?.creditLevel?.bound;
  if (level !== undefined && level < credit) credit = level;

  const readyWeights = kept.filter((i) => problem.ready[i] === 1).map((i) => qweight[i]!).sort((x, y) => x - y);
  let ready = 0;
  for (let used = 0; ready < readyWeights.length && used + readyWeights[ready]! <= total; ready++) used += readyWeights[ready]!;

  const tokens = dantzig(kept, qweight, (i) => problem.tokens[i]!, total);
  return { credit, ready, tokens };
}

/**
 * floor of the LP optimum of the 0-1 knapsack over `items` (session indices) with weights `w`, values
 * `value(i)` (integers) and capacity `cap`: the densest first, whole, then a fraction of the first that
 * does not fit. Exact: whole values and weights sum to safe integers; the ratio order compares exactly;
 * the fraction is floor(value * room / weight) in BigInt.
 */
export function dantzig(items: readonly number[], w: ArrayLike<number>, value: (i: number) => number, cap: number): number {
  const v = items.map(value);
  const order = items.map((_, t) => t).filter((t) => v[t]! > 0);
  order.sort((s, t) => denser(v[t]!, w[items[t]!]!, v[s]!, w[items[s]!]!));
  let left = cap;
  let sum = 0;
  for (const t of order) {
    const wt = w[items[t]!]!;
    if (wt <= left) {
      left -= wt;
      sum += v[t]!;
    } else {
      return sum + Number((BigInt(v[t]!) * BigInt(left)) / BigInt(wt));
    }
  }
  return sum;
}

/**
 * Sign of (a / wa) - (b / wb) for non-negative integer values and positive integer weights below 2^53,
 * exact: the quotients decide unless they are within a relative 1e-9 (each rounds by at most 2^-53
 * relative), then the cross products do, in BigInt.
 */
function denser(a: number, wa: number, b: number, wb: number): number {
  const ra = a / wa;
  const rb = b / wb;
  if (Math.abs(ra - rb) > 1e-9 * Math.max(ra, rb)) return ra > rb ? 1 : -1;
  const x = BigInt(a) * BigInt(wb);
  const y = BigInt(b) * BigInt(wa);
  return x > y ? 1 : x < y ? -1 : 0;
}
