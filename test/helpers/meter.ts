/** Work meters for the multiple-knapsack tests: a budget (none by default), no halting check. */
import { WorkMeter } from './internals.js';

/** A meter that halts only past `budget` units of work (never, by default), its reason 'budget'. */
export function meterWithin(budget = Number.POSITIVE_INFINITY): WorkMeter {
  return new WorkMeter(
    budget,
    () => undefined,
    () => 'budget',
  );
}
