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

  it('looks at every group of two knapsacks, then of three, each once a pass, in lexicographic order', () => {
    for (const m of [2, 3, 4, 5, 6]) {
      // Distinct capacities name the knapsacks; every item fits everywhere, and three items are left out
      // (nothing placed), so every group has a left-out item that may go there and is handed over.
      const capacity = Float64Array.from({ length: m }, (_, b) => 100 + b);
      const inst: MkpInstance = {
        qweight: Float64Array.from([1, 1, 1]),
        capacity,
        candidate: new Uint8Array(3 * m).fill(1),
      };
      const value = Float64Array.from([1, 1, 1]);
      const seen: string[] = [];
      const plan = { node: new Int32Array(3).fill(-1), value: 0 };
      regroup(
        inst,
        value,
        Int32Array.from([0, 1, 2]),
        plan,
        Number.POSITIVE_INFINITY,
        (sub) => {
          seen.push(Array.from(sub.capacity, (c) => c - 100).join(','));
          return null;
        },
        unbounded(),
      );
      const expected: string[] = [];
      for (let a = 0; a < m; a++) for (let b = a + 1; b < m; b++) expected.push(`${a},${b}`);
      for (let a = 0; a < m; a++)
        for (let b = a + 1; b < m; b++) for (let c = b + 1; c < m; c++) expected.push(`${a},${b},${c}`);
      expect(seen).toEqual(expected);
    }
  });

  it('hands over only groups with a left-out item that may go there: every item of a sub-problem fits one of its knapsacks', () => {
    let calls = 0;
    let skipped = 0;
    for (let seed = 0; seed < 120; seed++) {
      const c = randomCase(4000 + seed, 4, 8);
      const node = somePlan(c, seededRandom(seed), true);
      const plan = { node, value: planValue(c, node) };
      const inner = enumerating({ n: 0 });
      let groups = 0;
      const checking: Reoptimise = (sub, value, beat) => {
        calls++;
        const size = sub.capacity.length;
        sub.qweight.forEach((w, x) => {
          let fits = false;
          for (let y = 0; y < size; y++) if (sub.candidate[x * size + y] === 1 && w <= sub.capacity[y]!) fits = true;
          expect(fits).toBe(true);
        });
        // Some item is left out of the group: the items' values pass what the group holds.
        expect(value.reduce((a, v) => a + v, 0)).toBeGreaterThan(beat);
        groups++;
        return inner(sub, value, beat);
      };
      const meter = unbounded();
      regroup(c.inst, c.value, orderOf(c), plan, Number.POSITIVE_INFINITY, checking, meter);
      // One unit per item, then one per moving item per group looked at: more groups than handed over.
      const looked = (meter.work - node.length) / orderOf(c).length;
      if (looked > groups) skipped++;
    }
    expect(calls).toBeGreaterThan(200);
    expect(skipped).toBeGreaterThan(20);
  });

  it('stops at a goal reached during a pass: no group after the one that reached it is handed over', () => {
    let stoppedEarly = 0;
    for (let seed = 0; seed < 60; seed++) {
      const c = randomCase(5000 + seed, 4, 8);
      const start = somePlan(c, seededRandom(seed), true);
      // The first run, without a goal: the value after the first improving group, and the calls until then.
      let callsToFirst = 0;
      let calls = 0;
      let firstValue = Number.NaN;
      const inner = enumerating({ n: 0 });
      const free = { node: Int32Array.from(start), value: planValue(c, start) };
      regroup(
        c.inst,
        c.value,
        orderOf(c),
        free,
        Number.POSITIVE_INFINITY,
        (sub, value, beat) => {
          calls++;
          const better = inner(sub, value, beat);
          if (better !== null && Number.isNaN(firstValue)) {
            firstValue = free.value + better.value - beat;
            callsToFirst = calls;
          }
          return better;
        },
        unbounded(),
      );
      if (Number.isNaN(firstValue)) continue;
      // The second, from the same plan, with that value as its goal.
      const counted = { n: 0 };
      const aimed = { node: Int32Array.from(start), value: planValue(c, start) };
      regroup(c.inst, c.value, orderOf(c), aimed, firstValue, enumerating(counted), unbounded());
      expect(aimed.value).toBe(firstValue);
      expect(counted.n).toBe(callsToFirst);
      if (calls > callsToFirst) stoppedEarly++;
    }
    expect(stoppedEarly).toBeGreaterThan(10);
  });

  it('a sub-problem during which the meter halts is not applied, even when it hands back a better plan', () => {
    let halts = 0;
    for (let seed = 0; seed < 40; seed++) {
      const c = randomCase(6000 + seed, 3, 7);
      const node = somePlan(c, seededRandom(seed), true);
      const before = Int32Array.from(node);
      const plan = { node, value: planValue(c, node) };
      const start = plan.value;
      const meter = unbounded();
      const inner = enumerating({ n: 0 });
      let handedBack = false;
      regroup(
        c.inst,
        c.value,
        orderOf(c),
        plan,
        Number.POSITIVE_INFINITY,
        (sub, value, beat) => {
          const better = inner(sub, value, beat);
          if (better !== null) {
            meter.stop(new MkpHalt('halted inside'));
            handedBack = true;
          }
          return better;
        },
        meter,
      );
      if (!handedBack) continue;
      halts++;
      expect(meter.halt?.reason).toBe('halted inside');
      expect(plan.value).toBe(start);
      expect(Array.from(node)).toEqual(Array.from(before));
    }
    expect(halts).toBeGreaterThan(10);
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
