/** `round-robin`: vLLM behind a round-robin router. Each issued request goes to the next node in turn. */
import type { Admission, CompletedToolCall, Policy, PolicyStats, SchedulerView } from '../policy.js';
import { RoutedQueues } from './router-queues.js';

export function createRoundRobin(nodeCount: number): Policy {
  const queues = new RoutedQueues(nodeCount);
  let next = 0;
  const stats: PolicyStats = { solverCalls: 0, solverFallbacks: 0 };
  return {
    name: 'round-robin',
    period: 1,
    reactive: true,
    stats,
    schedule(view: SchedulerView): readonly Admission[] {
      return queues.schedule(view, () => {
        const b = next;
        next = (next + 1) % nodeCount;
        return b;
      });
    },
    toolReturned(_call: CompletedToolCall): void {},
  } satisfies Policy;
}
