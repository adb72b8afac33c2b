/**
 * A tick whose credit level decides one credit-optimal leaf and whose remainder's search passes a small
 * budget or a deadline: 4 nodes x 60 sessions, for the credit-split leaf-bound tests.
 */
import { type Problem, randomTickProblem } from './internals.js';

export function creditSplitTick(): Problem {
  return randomTickProblem(1, {
    nodes: 4,
    sessions: 60,
    capacity: 120_000,
    minTokens: 2000,
    maxTokens: 20_000,
    cachedRate: 0.3,
  });
}
