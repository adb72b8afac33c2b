/**
 * Bundled example problems for `tao demo`, the solver benchmark and documentation: reconstructions of
 * the paper's appendix H snapshots (section 3 of the spec) and seeded random problems shaped like one
 * scheduling tick of the paper's DeepSeek-V4 Flash (2 nodes) and Qwen3-32B (4 replicas) settings.
 */
import type { Problem, ProblemSession } from '../types.js';

/** Per-session admission reserve (tokens) the paper's figures use. */
export const RESERVE_TOKENS = 512;

/** A named example with the quantum it is meant to be solved at. */
export interface Example {
  name: string;
  description: string;
  problem: Problem;
  quantum: number;
}

function session(id: string, tokens: number, ready: boolean, credit: Record<string, number> = {}): ProblemSession {
  return { id, weight: tokens + RESERVE_TOKENS, tokens, ready, credit };
}

/**
 * Appendix H, cache example (reconstruction: the paper gives the narrative and the credit totals, the
 * sizes here are ours). Every session has part of a shared prompt prefix cached on node 2; P109 and P111
 * also have their own long prefixes on node 1 (8.8k and 6.6k tokens). Best-fit decreasing places P109
 * and P111 first, on node 2 where they fit tightest, so P89 and P123 take node 1 and the two long
 * prefixes are lost: credit 13,624. The DP swaps the two pairs: 16,791 (+23.2%), with all four admitted
 * in both plans (same total free space). Quantum 512 keeps every weight exact.
 */
export const appendixHCache: Example = {
  name: 'appendix-h-cache',
  description: 'paper appendix H, cache example: BFD credit 13,624, DP 16,791',
  quantum: 512,
  problem: {
    nodes: [
      { id: 'node1', capacity: 25_600 },
      { id: 'node2', capacity: 25_088 },
    ],
    sessions: [
      session('P109', 12_800, true, { node1: 8_812, node2: 3_200 }),
      session('P111', 10_752, true, { node1: 6_617, node2: 3_100 }),
      session('P89', 7_168, true, { node1: 3_812, node2: 702 }),
      session('P123', 6_656, true, { node1: 3_512, node2: 660 }),
    ],
  },
};

/**
 * Appendix H, admission example (reconstruction). 181 and 186 have prefixes cached on node 1, 170 and
 * 188 on node 2, 195 and 193 a shared prefix on both; 177 (~21k tokens) has none, so best-fit decreasing
 * places it last. Node 1 is the tighter node, so BFD fills it with the four short sessions (181, 186,
 * 195, 193), leaving ~14k; 170 and 188 go to node 2, leaving ~15k; 177 fits nowhere: 6 admitted. The DP
 * moves 195 and 193 to node 2 (same credit there), which frees a block on node 1 for 177: 7 admitted,
 * same credit.
 */
export const appendixHAdmission: Example = {
  name: 'appendix-h-admission',
  description: 'paper appendix H, admission example: BFD admits 6, DP admits 7',
  quantum: 512,
  problem: {
    nodes: [
      { id: 'node1', capacity: 33_792 },
      { id: 'node2', capacity: 46_592 },
    ],
    sessions: [
      session('177', 20_992, true),
      session('195', 4_096, true, { node1: 3_000, node2: 3_000 }),
      session('193', 3_584, true, { node1: 2_800, node2: 2_800 }),
      session('181', 4_608, true, { node1: 4_000 }),
      session('186', 5_120, true, { node1: 3_500 }),
      session('170', 15_360, true, { node2: 1_000 }),
      session('188', 14_848, true, { node2: 800 }),
    ],
  },
};

/** mulberry32: a small, fast, seeded PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shape of a random tick. */
export interface TickShape {
  nodes: number;
  sessions: number;
  /** Free capacity per node in tokens. */
  capacity: number;
  /** Context tokens are drawn uniformly from [minTokens, maxTokens]. */
  minTokens: number;
  maxTokens: number;
  /** Probability a session's tool returns within the horizon. */
  readyRate: number;
  /** Probability a session has a prefix cached on one node (its last). */
  cachedRate: number;
}

/** The paper's snapshots: sessions of ~5-21k tokens, ~14-15k free per node after admission. */
export const defaultTickShape: Readonly<TickShape> = Object.freeze({
  nodes: 2,
  sessions: 24,
  capacity: 64_000,
  minTokens: 4_000,
  maxTokens: 21_000,
  readyRate: 0.5,
  cachedRate: 0.7,
});

/**
 * A random waiting pool at one tick: each session may have a decayed, rounded prefix credit on the node
 * it last ran on (a fraction of its tokens), and every pair is eligible.
 */
export function randomTickProblem(seed: number, shape: Partial<TickShape> = {}): Problem {
  const s = { ...defaultTickShape, ...shape };
  const rnd = seededRandom(seed);
  const nodes = Array.from({ length: s.nodes }, (_, b) => ({ id: `node${b + 1}`, capacity: s.capacity }));
  const sessions = Array.from({ length: s.sessions }, (_, i): ProblemSession => {
    const tokens = Math.floor(s.minTokens + rnd() * (s.maxTokens - s.minTokens + 1));
    const credit: Record<string, number> = {};
    if (rnd() < s.cachedRate) {
      const home = nodes[Math.floor(rnd() * s.nodes)]!.id;
      // Retention times 2^(-age / 10 s): ages of 0-30 s, rounded to whole tokens.
      credit[home] = Math.round(tokens * 2 ** (-(rnd() * 30) / 10));
    }
    return session(`s${i}`, tokens, rnd() < s.readyRate, credit);
  });
  return { nodes, sessions };
}

/** Every example `tao demo` solves. */
export function demoExamples(): Example[] {
  return [
    appendixHCache,
    appendixHAdmission,
    {
      name: 'tick-2x16',
      description: 'random tick, 2 nodes x 64k free, 16 waiting sessions',
      quantum: 1024,
      problem: randomTickProblem(16, { sessions: 16 }),
    },
    {
      name: 'tick-2x32',
      description: 'random tick, 2 nodes x 96k free, 32 waiting sessions',
      quantum: 1024,
      problem: randomTickProblem(32, { sessions: 32, capacity: 96_000 }),
    },
    {
      name: 'tick-4x12',
      description: 'random tick, 4 replicas x 24k free, 12 waiting sessions',
      quantum: 1024,
      problem: randomTickProblem(412, {
        nodes: 4,
        sessions: 12,
        capacity: 24_000,
        minTokens: 2_000,
        maxTokens: 12_000,
      }),
    },
    {
      name: 'tick-4x40-budget',
      description: 'random tick, 4 replicas x 96k free, 40 waiting sessions',
      quantum: 1024,
      problem: randomTickProblem(440, { nodes: 4, sessions: 40, capacity: 96_000 }),
    },
  ];
}
