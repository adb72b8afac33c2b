/**
 * Regrouping (src/solve/mkp/regroup.ts) under an independent oracle: sub-problems re-solved by
 * enumeration here (never by the search), on small multiple knapsacks with eligibility limits, equal
 * capacities (interchangeable knapsacks), identical items, tied values and items of value 0 placed
 * (which regroup never moves, and whose room it leaves them). The plan stays feasible and
 * worth what regroup returns, never worse than it started; with at most three knapsacks the group of all
 * of them is the whole problem, so the result is the brute-force optimum; with four, a plan no group of
 * two or three improves, checked group by group by enumeration; regrouping stops at its goal.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/internals.js';
import { MkpHalt, WorkMeter } from './helpers/internals.js';
import { REGROUP_SIZES, regroup, type MkpInstance, type Reoptimise } from './helpers/internals.js';

interface Case {
  readonly inst: MkpInstance;
  readonly value: Float64Array;
}

function randomCase(seed: number, m: number, n: number): Case {
  const rnd = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const equal = rnd() < 0.4;
  const c0 = int(4, 20);
  const capacity = Float64Array.from({ length: m }, () => (equal ? c0 : int(0, 20)));
  const qweight = new Float64Array(n);
  const value = new Float64Array(n);
  const candidate = new Uint8Array(n * m);
  for (let j = 0; j < n; j++) {
    const twin = j > 0 && rnd() < 0.3;
    qweight[j] = twin ? qweight[j - 1]! : int(1, 12);
    // Few distinct values: ties; some zero-valued items, which regroup never moves.
    value[j] = twin ? value[j - 1]! : int(0, 5);
    const limited = rnd() < 0.4;
    for (let b = 0; b < m; b++) {
      const may = twin ? candidate[(j - 1) * m + b] === 1 : !limited || rnd() < 0.6;
      candidate[j * m + b] = may && qweight[j]! <= capacity[b]! ? 1 : 0;
    }
  }
  return { inst: { qweight, capacity, candidate }, value };
}

/** The best plan of `inst` by enumeration (item j to one of its candidate knapsacks, or out). */
function enumerate(inst: MkpInstance, value: Float64Array): { node: Int32Array; value: number } {
  const n = inst.qweight.length;
  const m = inst.capacity.length;
  const node = new Int32Array(n).fill(-1);
  const used = new Float64Array(m);
  let best = { node: Int32Array.from(node), value: 0 };
  const visit = (j: number, v: number): void => {
    if (j === n) {
      if (v > best.value) best = { node: Int32Array.from(node), value: v };
      return;
    }
    visit(j + 1, v);
    for (let b = 0; b < m; b++) {
      if (inst.candidate[j * m + b] !== 1 || used[b]! + inst.qweight[j]! > inst.capacity[b]!) continue;
      used[b] = used[b]! + inst.qweight[j]!;
      node[j] = b;
      visit(j + 1, v + value[j]!);
      node[j] = -1;
      used[b] = used[b]! - inst.qweight[j]!;
    }
  };
  visit(0, 0);
  return best;
}

/** A sub-problem solver by enumeration, counting its calls. */
function enumerating(calls: { n: number }): Reoptimise {
  return (sub, value, beat) => {
    calls.n++;
    const best = enumerate(sub, value);
    return best.value > beat ? best : null;
  };
}

/**
 * A feasible plan: items in index order, each to its first candidate knapsack with room, when `rnd` says
 * so; items of value 0 (which regroup never moves) too when `zeros`.
 */
function somePlan(c: Case, rnd: () => number, zeros: boolean): Int32Array {
  const m = c.inst.capacity.length;
  const room = Float64Array.from(c.inst.capacity);
  return Int32Array.from(c.value, (v, j) => {
    if (rnd() < 0.4 || (v === 0 && !zeros)) return -1;
    for (let b = 0; b < m; b++) {
      if (c.inst.candidate[j * m + b] === 1 && c.inst.qweight[j]! <= room[b]!) {
        room[b] = room[b]! - c.inst.qweight[j]!;
        return b;
      }
    }
    return -1;
  });
}

/** The plan's value, after checking it is feasible (candidates, capacities). */
function planValue(c: Case, node: Int32Array): number {
  const m = c.inst.capacity.length;
  const used = new Float64Array(m);
  let v = 0;
  node.forEach((b, j) => {
    if (b < 0) return;
    expect(c.inst.candidate[j * m + b]).toBe(1);
    used[b] = used[b]! + c.inst.qweight[j]!;
    v += c.value[j]!;
  });
  used.forEach((u, b) => expect(u).toBeLessThanOrEqual(c.inst.capacity[b]!));
  return v;
}

/** Items with a positive value, by value per weight descending (any order is valid; this is the search's). */
function orderOf(c: Case): Int32Array {
  const ids: number[] = [];
  c.value.forEach((v, j) => v > 0 && ids.push(j));
  return Int32Array.from(
    ids.sort((a, b) => c.value[b]! * c.inst.qweight[a]! - c.value[a]! * c.inst.qweight[b]! || a - b),
  );
}

const unbounded = (): WorkMeter =>
  new WorkMeter(
    Number.POSITIVE_INFINITY,
    () => undefined,
    () => 'budget',
  );

describe('regroup', () => {
  it('tries pairs, then triples', () => {
    expect(REGROUP_SIZES).toEqual([2, 3]);
  });

  it('with two or three knapsacks reaches the optimum (the group of all of them), from any feasible plan', () => {
    let improved = 0;
    for (let seed = 0; seed < 300; seed++) {
      const m = 2 + (seed % 2);
      const c = randomCase(seed, m, 7);
      const rnd = seededRandom(seed + 99);
      const node = somePlan(c, rnd, false);
      const start = planValue(c, node);
      const plan = { node, value: start };
      regroup(c.inst, c.value, orderOf(c), plan, Number.POSITIVE_INFINITY, enumerating({ n: 0 }), unbounded());
      const worth = plan.value;
      expect(planValue(c, node)).toBe(worth);
      expect(worth).toBe(enumerate(c.inst, c.value).value);
      if (worth > start) improved++;
    }
    expect(improved).toBeGreaterThan(100);
  });

  it('with four knapsacks ends on a plan no pair or triple of knapsacks improves, never below where it started', () => {
    let improved = 0;
    for (let seed = 0; seed < 60; seed++) {
      const c = randomCase(1000 + seed, 4, 8);
      const node = somePlan(c, seededRandom(seed), true);
      const start = planValue(c, node);
      const plan = { node, value: start };
      regroup(c.inst, c.value, orderOf(c), plan, Number.POSITIVE_INFINITY, enumerating({ n: 0 }), unbounded());
      const worth = plan.value;
      expect(planValue(c, node)).toBe(worth);
      expect(worth).toBeGreaterThanOrEqual(start);
      expect(worth).toBeLessThanOrEqual(enumerate(c.inst, c.value).value);
      if (worth > start) improved++;
      // Every group of 2 or 3: its knapsacks' best over their items and the left-out ones (in the room the
      // items of value 0 placed there leave) is what they hold.
      const room = Float64Array.from(c.inst.capacity);
      node.forEach((b, j) => {
        if (b >= 0 && c.value[j] === 0) room[b] = room[b]! - c.inst.qweight[j]!;
      });
      for (const g of [
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 2],
        [1, 3],
        [2, 3],
        [0, 1, 2],
        [0, 1, 3],
        [0, 2, 3],
        [1, 2, 3],
      ]) {
        const pool: number[] = [];
        let held = 0;
        node.forEach((b, j) => {
          if (c.value[j]! <= 0 || (b >= 0 && !g.includes(b))) return;
          pool.push(j);
          if (b >= 0) held += c.value[j]!;
        });
        const sub: MkpInstance = {
          qweight: Float64Array.from(pool, (j) => c.inst.qweight[j]!),
          capacity: Float64Array.from(g, (b) => room[b]!),
          candidate: Uint8Array.from(pool.flatMap((j) => g.map((b) => c.inst.candidate[j * 4 + b]!))),
        };
        expect(
          enumerate(
            sub,
            Float64Array.from(pool, (j) => c.value[j]!),
          ).value,
        ).toBe(held);
      }
    }
    expect(improved).toBeGreaterThan(20);
  });

  it('stops at its goal: no sub-problem is solved once the plan is worth it', () => {
    for (let seed = 0; seed < 40; seed++) {
      const c = randomCase(2000 + seed, 3, 7);
      const node = somePlan(c, seededRandom(seed), true);
      const start = planValue(c, node);
      const calls = { n: 0 };
      const plan = { node, value: start };
      regroup(c.inst, c.value, orderOf(c), plan, start, enumerating(calls), unbounded());
      expect(plan.value).toBe(start);
      expect(calls.n).toBe(0);
    }
  });

  it('spends one unit per item, then one per moving item per group, on its meter; and a halt leaves the plan whole and worth its value', () => {
    let gained = 0;
    for (let seed = 0; seed < 40; seed++) {
      const c = randomCase(3000 + seed, 4, 8);
      const node = somePlan(c, seededRandom(seed), true);
      const plan = { node, value: planValue(c, node) };
      const start = plan.value;
      const meter = new WorkMeter(
        8 + 3 * orderOf(c).length,
        () => undefined,
        () => 'budget',
      );
      regroup(c.inst, c.value, orderOf(c), plan, Number.POSITIVE_INFINITY, enumerating({ n: 0 }), meter);
      expect(meter.halt).toBeInstanceOf(MkpHalt);
      const halted = meter.halt !== null;
      // Four knapsacks give 6 pairs: the fourth group looked at passes the budget of three.
      expect(halted).toBe(true);
      expect(meter.work).toBe(8 + 3 * orderOf(c).length);
      expect(planValue(c, node)).toBe(plan.value);
      if (plan.value > start) gained++;
    }
    expect(gained).toBeGreaterThan(5);
  });
});
