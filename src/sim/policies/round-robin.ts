/** `round-robin`: vLLM behind a round-robin router. Each issued request goes to the next node in turn. */
import type { Policy } from '../policy.js';
import { RoutedQueues, routerPolicy } from './router-queues.js';

export function createRoundRobin(nodeCount: number): Policy {
  let next = 0;
  return routerPolicy('round-robin', new RoutedQueues(nodeCount), () => {
    const b = next;
    next = (next + 1) % nodeCount;
    return b;
  });
}
