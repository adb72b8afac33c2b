/**
 * The WASM kernel as the two DP engines (src/solve/engine.ts): the dense DP over the packed i64 key, and
 * the frontier DP. Each adapter only moves a packed problem's inputs into the kernel and reads its
 * counters; the kernel does the work.
 */
import { DpStatus, type DenseEngine, type DpCounters, type FrontierCounters, type FrontierEngine } from './engine.js';
import { frontierInput, type FrontierSetup } from './frontier.js';
import { nodesKept, sessionsKept, type PackedProblem } from './pack.js';
import type { TaoKernel } from './wasm.js';

/** The dense DP in the kernel over a packed problem whose key fits. */
export function denseWasm(kernel: TaoKernel, packed: PackedProblem): DenseEngine {
  const n = sessionsKept(packed);
  const S = packed.states;
  let done = 0;
  return {
    path: 'dense',
    boundedSteps: false,
    bytes: kernel.bytesNeeded(n, nodesKept(packed), S),
    start(): DpStatus {
      const radix = Array.from(packed.capacity, (c) => c + 1);
      return kernel.denseLoad(radix, packed.qweight, packed.key) ? DpStatus.paused : DpStatus.memory;
    },
    step(quota: number): DpStatus {
      const until = Math.min(n, done + Math.max(1, Math.floor(quota / S)));
      kernel.denseStep(done, until);
      done = until;
      return done === n ? DpStatus.done : DpStatus.paused;
    },
    counters: (): DpCounters => ({ layers: done, work: done * S }),
    finish: () => kernel.denseFinish().node,
  };
}

/** The frontier DP in the kernel over a packed problem whose key fits, with this setup and incumbent. */
export function frontierWasm(
  kernel: TaoKernel,
  packed: PackedProblem,
  setup: FrontierSetup,
  incumbent: Int32Array,
): FrontierEngine {
  return {
    path: 'frontier',
    boundedSteps: false,
    start: () => kernel.frontierStart(frontierInput(packed, setup, incumbent)),
    step: (quota) => kernel.frontierStep(quota),
    counters: (): FrontierCounters => kernel.frontierCounters(),
    finish: () => kernel.frontierFinish().node,
  };
}
