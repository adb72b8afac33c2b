/**
 * `dynamo`: NVIDIA Dynamo's KV-aware router. It hears the engines' KV cache events, so it knows each
 * node's cached blocks of the prompt (the overlap), and routes each issued request to the node of least
 *
 *     cost = overlapWeight * prefillBlocks + decodeBlocks
 *     prefillBlocks = (prompt blocks - overlap blocks) + blocks waiting for prefill on the node
 *     decodeBlocks  = active KV blocks on the node + prompt blocks
 *
 * counting requests it routed there that have not started yet in both loads; lowest index on ties.
 */
import type { Policy, PooledSession, SchedulerView } from '../policy.js';
import { RoutedQueues, routerPolicy } from './router-queues.js';

export interface DynamoParams {
  /** Weight of prefill blocks against decode blocks. @default 1 (Dynamo's default) */
  readonly overlapWeight: number;
  /** Tokens per block. */
  readonly blockSize: number;
}

export function createDynamo(nodeCount: number, params: DynamoParams): Policy {
  const queues = new RoutedQueues(nodeCount);
  const bs = params.blockSize;

  function choose(s: PooledSession, view: SchedulerView): number {
    const promptBlocks = Math.ceil(s.tokens / bs);
    let best = 0;
    let bestCost = Number.POSITIVE_INFINITY;
    view.nodes.forEach((n, b) => {
      const overlap = Math.floor(view.cachedTokens(s.index, b) / bs);
      const routed = Math.ceil(queues.queuedTokens[b]! / bs);
      const prefill = promptBlocks - overlap + Math.ceil(n.prefillBacklog / bs) + routed;
      const decode = Math.ceil(n.activeTokens / bs) + routed + promptBlocks;
      const cost = params.overlapWeight * prefill + decode;
      if (cost < bestCost) {
        bestCost = cost;
        best = b;
      }
    });
    return best;
  }

  return routerPolicy('dynamo', queues, choose);
}
