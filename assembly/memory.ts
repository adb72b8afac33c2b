// Linear memory: alignment and growth, shared by the dense layout (index.ts) and the frontier's arena
// (frontier.ts).

import { PAGE } from './limits';

/** x rounded up to a multiple of 16. */
// @ts-ignore: decorator
@inline export function align16(x: usize): usize {
  return (x + 15) & ~(<usize>15);
}

/** x rounded up to a multiple of 16, in f64 (byte counts that may pass the 32-bit address space). */
// @ts-ignore: decorator
@inline export function align16f(x: f64): f64 {
  return Math.ceil(x / 16) * 16;
}

/**
 * Grows linear memory so that it holds at least `end` bytes. False, without trapping, if it cannot grow
 * that far (the module's declared maximum, which is the solver's memory cap).
 */
export function ensureMemory(end: f64): bool {
  const have = <f64>memory.size() * <f64>PAGE;
  if (end <= have) return true;
  return memory.grow(<i32>Math.ceil((end - have) / <f64>PAGE)) >= 0;
}
