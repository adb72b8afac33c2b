/**
 * The dense DP's engine (src/solve/dp/protocol.ts): a DpEngine that also knows the bytes it will hold, so
 * the driver can refuse it before `start`. Its WebAssembly adapter is src/solve/dp/dense/wasm.ts (the
 * kernel: assembly/dense.ts), its TypeScript mirror src/solve/dp/dense/mirror.ts.
 */
import type { DpCounters, DpEngine } from '../protocol.js';

export interface DenseEngine extends DpEngine<DpCounters> {
  readonly bytes: number;
}
