/**
 * A corpus of multiple-knapsack searches that reaches every part of the search (src/solve/mkp/search.ts):
 * the first search and its pause at its share, the aimed searches and their ceiling, regrouping, the
 * resumed search; the split's greedy part above SPLIT_BITSET_ROOM quanta and the tightening at and below
 * TIGHTEN_MAX_CAPACITY; two-tier values (the tier bound); interchangeable nodes and identical sessions;
 * eligibility limits; halts at small budgets; one node. Each entry is one search as the pipeline runs it (values
 * from nodeIndependentValues, the packed key's token radix for the tiers), summed up as a line: the plan
 * (per kept session, its kept node), its value, how it ended, its counters and the work it spent.
 */
import { createHash } from 'node:crypto';
import {
  type MkpOutcome,
  type MkpScratchStore,
  nodeIndependentValues,
  type Problem,
  type ProblemSession,
  searchMultipleKnapsack,
  seededRandom,
  solvePrepared,
  tokenRadix,
  WorkMeter,
} from './internals.js';
import { tiedProblem } from './tied-mkp.js';

/** One search of the corpus: its name and the problem, searched at quantum 1 within `budget` units. */
export interface EffortCase {
  readonly name: string;
  readonly problem: Problem;
  readonly budget: number;
  /** The halting check (a deadline, a stop flag) says stop at its `stopAtCheck`-th call; never by default. */
  readonly stopAtCheck?: number;
}

/**
 * Pools with room for part of their weight: `m` nodes, `n` sessions of weight `lo`-`hi` quanta (every
 * one ready or not at random, tokens equal to the weight plus a constant: strongly correlated; one in ten
 * worth nothing), some sessions repeated, some limited to part of the nodes, some capacities equal.
 */
function pool(seed: number, m: number, n: number, lo: number, hi: number, fill: number): Problem {
  const rnd = seededRandom(seed);
  const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const sessions: ProblemSession[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && rnd() < 0.2) {
      sessions.push({ ...sessions[i - 1]!, id: `s${i}` });
      total += sessions[i]!.weight;
      continue;
    }
    const weight = int(lo, hi);
    total += weight;
    // One in ten worth nothing (no tokens, not ready): kept, but never worth admitting.
    const s: ProblemSession =
      rnd() < 0.1
        ? { id: `s${i}`, weight, tokens: 0, ready: false }
        : { id: `s${i}`, weight, tokens: weight + 97, ready: rnd() < 0.5 };
    if (rnd() < 0.25) s.eligible = Array.from({ length: m }, (_, b) => `n${b}`).filter(() => rnd() < 0.6);
    sessions.push(s);
  }
  const share = Math.floor((total * fill) / m);
  const equal = rnd() < 0.3;
  const nodes = Array.from({ length: m }, (_, b) => ({
    id: `n${b}`,
    capacity: equal ? share : int(Math.floor(share * 0.6), Math.floor(share * 1.4)),
  }));
  return { nodes, sessions };
}

/** Six to eight rooms of 6-20 quanta, 16-24 sessions of 3-12 quanta worth their weight plus 0-2 tokens, twins. */
function tiedPool(seed: number): Problem {
  const rnd = seededRandom(seed + 1300);
  const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  const m = int(6, 8);
  const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: int(6, 20) }));
  const sessions: ProblemSession[] = [];
  for (let i = 0, n = int(16, 24); i < n; i++) {
    if (i > 0 && rnd() < 0.3) sessions.push({ ...sessions[i - 1]!, id: `s${i}` });
    else {
      const weight = int(3, 12);
      sessions.push({ id: `s${i}`, weight, tokens: weight + int(0, 2), ready: false });
    }
  }
  return { nodes, sessions };
}

/**
 * The corpus: 40 tied problems at three budgets, pools of 2-8 nodes with small and large rooms, rooms at
 * 2^16 quanta, budgets too small to bound the root, solves stopped by the halting check, tied pools of
 * six to eight rooms at three budgets, pools on one node.
 */
export function effortCorpus(): EffortCase[] {
  const cases: EffortCase[] = [];
  for (let seed = 0; seed < 40; seed++)
    for (const budget of [400, 3200, 12_800])
      cases.push({ name: `tied ${seed} @${budget}`, problem: tiedProblem(seed), budget });
  for (let seed = 0; seed < 24; seed++) {
    const m = [2, 3, 4, 6, 8][seed % 5]!;
    // Small rooms (tightened), then rooms past SPLIT_BITSET_ROOM quanta (the split's greedy part).
    cases.push({
      name: `small pool ${seed}`,
      problem: pool(seed, m, 14 + (seed % 7) * 3, 200, 4000, 0.45),
      budget: 60_000,
    });
    cases.push({
      name: `large pool ${seed}`,
      problem: pool(seed + 500, m, 12 + (seed % 5) * 3, 20_000, 60_000, 0.5),
      budget: 400_000,
    });
  }
  // Rooms of exactly TIGHTEN_MAX_CAPACITY = SPLIT_BITSET_ROOM quanta that weights of multiples of 3 never
  // fill, and rooms one item more than that (the split's greedy part stops exactly at its room).
  for (let seed = 0; seed < 6; seed++) {
    const rnd = seededRandom(seed + 700);
    const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
    const m = 2 + (seed % 3);
    const sessions = Array.from({ length: 10 + seed }, (_, i): ProblemSession => {
      const weight = 3 * int(3000, 9000);
      return { id: `s${i}`, weight, tokens: weight + 97, ready: rnd() < 0.5 };
    });
    const edge = 1 << 16;
    const rooms = (extra: number) =>
      Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: edge + (b === 0 ? extra : 0) }));
    cases.push({ name: `rooms at 2^16 ${seed}`, problem: { nodes: rooms(0), sessions }, budget: 400_000 });
    cases.push({
      name: `rooms past 2^16 ${seed}`,
      problem: { nodes: rooms(sessions[0]!.weight), sessions },
      budget: 400_000,
    });
  }
  // The split's edges at SPLIT_BITSET_ROOM: a room one dense heavy session above it (the greedy part
  // places that session and leaves exactly the bitset room), and a room of exactly 2^16 quanta that
  // several subsets of the sessions fill equally.
  for (let seed = 0; seed < 6; seed++) {
    const rnd = seededRandom(seed + 1500);
    const int = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
    const heavy = 30_000 + 1000 * seed;
    const others = Array.from({ length: 8 }, (_, i): ProblemSession => {
      const weight = 1000 * int(9, 19);
      return { id: `s${i + 1}`, weight, tokens: weight + 97, ready: false };
    });
    const sessions = [{ id: 's0', weight: heavy, tokens: 2 * heavy, ready: true }, ...others];
    const nodes = [
      { id: 'n0', capacity: (1 << 16) + heavy },
      { id: 'n1', capacity: 20_000 + 1000 * seed },
    ];
    cases.push({ name: `split past 2^16 ${seed}`, problem: { nodes, sessions }, budget: 400_000 });
    const tied = [30_000, 20_000, 10_000, 25_000, 5000, 15_000, 35_000].map(
      (weight, i): ProblemSession => ({ id: `t${i}`, weight: weight + 1000 * int(0, 1), tokens: weight, ready: false }),
    );
    const rooms = [
      { id: 'n0', capacity: 1 << 16 },
      { id: 'n1', capacity: 20_000 + 2000 * seed },
    ];
    cases.push({ name: `split at 2^16 ${seed}`, problem: { nodes: rooms, sessions: tied }, budget: 400_000 });
  }
  // A room of exactly SPLIT_BITSET_ROOM quanta split first (the other room is larger), offered its items in
  // their own order: two subsets fill 65,535 quanta (weights of multiples of 3 never fill 2^16), and which
  // one the fold names depends on that order.
  const fills = [15_003, 21_000, 29_532, 18_000, 17_001, 30_534, 4461].map(
    (weight, i): ProblemSession => ({ id: `f${i}`, weight, tokens: weight, ready: false }),
  );
  cases.push({
    name: 'split at 2^16 in offered order',
    problem: {
      nodes: [
        { id: 'n0', capacity: 1 << 16 },
        { id: 'n1', capacity: 69_996 },
      ],
      sessions: fills,
    },
    budget: 400_000,
  });
  // Found by a random sweep of small pools: sessions of equal weight and different density that the split
  // leaves out together (the branch takes the lowest index among them), and two roots whose greedy
  // completion reaches the surrogate bound (proven there, without the fill).
  const listed = (capacities: number[], rows: [number, number, number][]): Problem => ({
    nodes: capacities.map((capacity, b) => ({ id: `n${b}`, capacity })),
    sessions: rows.map(([weight, tokens, ready], i) => ({ id: `s${i}`, weight, tokens, ready: ready === 1 })),
  });
  for (const [name, problem] of [
    [
      'equal weights left out',
      listed(
        [10, 24, 14],
        [
          [7, 7, 0],
          [6, 6, 0],
          [8, 9, 0],
          [6, 7, 0],
          [6, 6, 0],
          [7, 8, 0],
          [6, 6, 0],
          [4, 4, 0],
          [8, 8, 0],
        ],
      ),
    ],
    [
      'completion at the bound 0',
      listed(
        [20, 12, 12],
        [
          [14, 9, 1],
          [7, 5, 0],
          [11, 12, 1],
          [7, 1, 0],
          [14, 11, 0],
          [6, 7, 0],
          [13, 8, 1],
          [2, 11, 0],
          [14, 17, 1],
          [10, 16, 0],
        ],
      ),
    ],
    [
      'completion at the bound 1',
      listed(
        [14, 12, 12],
        [
          [4, 11, 0],
          [8, 6, 0],
          [8, 9, 0],
          [6, 2, 0],
          [8, 5, 0],
          [8, 5, 0],
          [8, 11, 0],
          [5, 1, 0],
          [6, 4, 0],
          [4, 1, 0],
          [6, 1, 0],
        ],
      ),
    ],
  ] as const)
    cases.push({ name, problem, budget: 400_000 });
  // Budgets below FIRST_SEARCH_SHARE's reciprocal: the first search pauses at its root before bounding it.
  for (let seed = 0; seed < 8; seed++) {
    const m = 2 + (seed % 2);
    const nodes = Array.from({ length: m }, (_, b) => ({ id: `n${b}`, capacity: 4000 + 1000 * b }));
    const sessions = Array.from({ length: 1 + (seed % 3) }, (_, i) => ({
      id: `s${i}`,
      weight: 1500 + 700 * i + 100 * seed,
      tokens: 2000 + 100 * i,
      ready: (seed + i) % 2 === 0,
    }));
    for (const budget of [8, 16, 24, 39])
      cases.push({ name: `tiny ${seed} @${budget}`, problem: { nodes, sessions }, budget });
  }
  // The halting check stops the solve (every METER_CHECK_WORK units it is asked) during the aimed
  // searches, the regrouping or the resumed search.
  for (let seed = 0; seed < 6; seed++)
    for (const stopAtCheck of [1, 2, 3, 5, 8])
      cases.push({
        name: `stopped ${seed} at check ${stopAtCheck}`,
        problem: pool(seed + 500, [2, 3, 4, 6, 8][seed % 5]!, 12 + (seed % 5) * 3, 20_000, 60_000, 0.5),
        budget: 400_000,
        stopAtCheck,
      });
  // The halting check stops the solve inside a regrouping sub-search (its 13th call, on the large pool 14
  // above): the regrouping's counters end with what it finished before.
  cases.push({
    name: 'stopped in a regrouping search',
    problem: pool(514, 8, 24, 20_000, 60_000, 0.5),
    budget: 400_000,
    stopAtCheck: 13,
  });
  // Few distinct values, many ties, six to eight small rooms: the pools regrouping improves.
  for (let seed = 0; seed < 16; seed++)
    for (const budget of [800, 2400, 7200])
      cases.push({ name: `regrouped ${seed} @${budget}`, problem: tiedPool(seed), budget });
  // One node: the single knapsack, solved or halted.
  for (let seed = 0; seed < 8; seed++)
    for (const budget of [30, 60_000])
      cases.push({
        name: `one node ${seed} @${budget}`,
        problem: pool(seed + 900, 1, 10 + seed * 2, 200, 4000, 0.45),
        budget,
      });
  return cases;
}

/**
 * Budget sweeps: a small pool of 2-4 nodes at each budget from 40 to 4,000 units in steps of 40 (the
 * first search's share is a whole unit at each), so that the halts and the first search's pause land at
 * every point of the early search. One line per pool: a digest of its 100 lines (effortLine), and how they ended.
 */
export function sweepLine(seed: number, store: MkpScratchStore): string {
  const problem = pool(seed + 300, 2 + (seed % 3), 12 + (seed % 4) * 2, 200, 4000, 0.45);
  const hash = createHash('sha256');
  let optimal = 0;
  for (let budget = 40; budget <= 4000; budget += 40) {
    const line = effortLine({ name: `sweep ${seed} @${budget}`, problem, budget }, store);
    if (line.includes(' optimal ')) optimal++;
    hash.update(`${line}\n`);
  }
  return `sweep ${seed}: ${hash.digest('hex').slice(0, 16)} (optimal at ${optimal} of 100 budgets)`;
}

/**
 * The searches' outcome of one case, as a line (the plan in kept indices, -1 out). The cases of a corpus
 * share `store`, as a solver's solves do: a search starts on the buffers the one before it left.
 */
export function effortLine(c: EffortCase, store: MkpScratchStore): string {
  let out: MkpOutcome | null = null;
  let work = 0;
  solvePrepared(c.problem, { quantum: 1 }, (packed, base) => {
    const values = nodeIndependentValues(packed);
    if (values === null) throw new Error(`${c.name}: values depend on the node`);
    let checks = 0;
    const meter = new WorkMeter(
      c.budget,
      () => (++checks === c.stopAtCheck ? 'stopped' : undefined),
      () => 'budget',
    );
    out = searchMultipleKnapsack(packed, values, meter, undefined, store, tokenRadix(packed));
    work = meter.work;
    return { node: out.node, stats: base };
  });
  if (out === null) return `${c.name}: nothing fits`;
  const o: MkpOutcome = out;
  const ended = o.optimal ? 'optimal' : `${o.reason} bound ${o.bound ?? '-'}`;
  const counters = Object.entries(o.counters)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${c.name}: value ${o.value} ${ended}${o.reachedCeiling === true ? ' at ceiling' : ''} work ${work} counters ${counters} plan ${o.node.join(',')}`;
}
