/**
 * The big-cluster tick shape shared by the `burst` and `big-steady` families: a fleet of m nodes and a
 * pool of n waiting sessions, drawn like a TAO tick grown in nodes and pool.
 *
 * Per session: context tokens uniform integer in [3k, 90k]; weight = tokens + the 512-token reserve;
 * ready with probability 0.3; with probability 0.7 credited on exactly one node, the one it last ran on
 * (uniform over the nodes), with decayed prefix credit tokens * 2^(-age / 10 s), age uniform in [0, 30) s
 * (draw.ts); the other 30% carry no credit (new sessions, or caches long evicted). The families differ only
 * in the room they give the nodes (see burst.ts and big-steady.ts).
 */
import type { Rng } from '../../sim/rng.js';
import type { ProblemNode, ProblemSession } from '../../types.js';
import { between, drawCredit, nodeIds, RESERVE } from './draw.js';

export const CLUSTER = Object.freeze({
  /** Context tokens, uniform integer in this range. */
  tokens: [3_000, 90_000],
  /** Probability that a session is ready. */
  readyRate: 0.3,
  /** Probability that a session is credited on the node it last ran on. */
  creditedRate: 0.7,
  /** (nodes, waiting sessions) of the groups, named `<nodes>x<sessions>`. */
  sizes: [
    [2, 64],
    [4, 160],
    [8, 64],
    [8, 256],
    [16, 512],
    [32, 1024],
    [64, 2048],
    [64, 4096],
  ],
} as const);

/** `n` cluster-shaped sessions over the nodes `ids` (see the file header). */
export function clusterSessions(rng: Rng, ids: readonly string[], n: number): ProblemSession[] {
  return Array.from({ length: n }, (_, i) => {
    const tokens = between(rng, CLUSTER.tokens[0], CLUSTER.tokens[1]);
    const ready = rng.float() < CLUSTER.readyRate;
    const s: ProblemSession = { id: `s${i}`, weight: tokens + RESERVE, tokens, ready };
    if (rng.float() < CLUSTER.creditedRate)
      return { ...s, credit: { [ids[rng.int(ids.length)] as string]: drawCredit(rng, tokens) } };
    return s;
  });
}

/** The nodes of a cluster tick: `room(rng, sessions)` gives each node's capacity in tokens. */
export function clusterTick(
  rng: Rng,
  m: number,
  n: number,
  room: (rng: Rng, ids: readonly string[], sessions: readonly ProblemSession[]) => ProblemNode[],
): { nodes: ProblemNode[]; sessions: ProblemSession[] } {
  const ids = nodeIds(m);
  const sessions = clusterSessions(rng, ids, n);
  return { nodes: room(rng, ids, sessions), sessions };
}
