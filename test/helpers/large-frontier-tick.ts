/** A tick whose frontier DP runs far past a millisecond: 16 nodes x 500 sessions, for the deadline tests. */
import { type Problem, randomTickProblem } from './internals.js';

export function largeFrontierTick(): Problem {
  return randomTickProblem(16, { nodes: 16, sessions: 500, capacity: 360_000, minTokens: 2000, maxTokens: 40_000 });
}
