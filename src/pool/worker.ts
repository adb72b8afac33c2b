/**
 * The pool's worker: Piscina loads this file (compiled, `dist/pool/worker.js`) in each thread. Top-level await
 * loads one WASM solver when the thread starts, so Piscina reports the worker ready only once it can
 * solve, and every task reuses that instance and its memory.
 */
import { threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { SolverTrapError } from '../errors.js';
import { POOL_PROTOCOL, type PoolWorkerData, type WorkerReply, type WorkerTask } from './protocol.js';
import { loadSolver, type RawSolution } from '../solve/solver.js';

function readWorkerData(data: unknown): PoolWorkerData {
  if (typeof data !== 'object' || data === null) throw new TypeError('tao worker: workerData must be an object');
  const { build } = data as Partial<PoolWorkerData>;
  if (build !== 'release' && build !== 'debug')
    throw new TypeError('tao worker: workerData.build must be "release" or "debug"');
  return { build };
}

const config = readWorkerData(workerData);
const solver = await loadSolver({ build: config.build });
/** Set after a failure: the pool terminates this thread, and nothing may run on it meanwhile. */
let retired: string | undefined;

/** The solution's node array on its own buffer, so transferring it detaches nothing else. */
function ownBuffer(raw: RawSolution): RawSolution {
  const n = raw.node;
  const own = n.buffer instanceof ArrayBuffer && n.byteOffset === 0 && n.byteLength === n.buffer.byteLength;
  return own ? raw : { ...raw, node: n.slice() };
}

function failed(err: unknown): WorkerReply {
  // The solver reports every WebAssembly trap as a SolverTrapError (and retires its instance).
  const failure = err instanceof SolverTrapError ? 'trap' : 'error';
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  retired = reason;
  return { kind: 'failed', protocol: POOL_PROTOCOL, threadId, failure, reason };
}

/** Piscina's task handler. Failures are replies, not exceptions, so the pool keeps the reason and thread id. */
export default function handle(task: WorkerTask): unknown {
  if (task.kind === 'ping') {
    const reply: WorkerReply = { kind: 'pong', protocol: POOL_PROTOCOL, threadId };
    return reply;
  }
  if (retired !== undefined) {
    return failed(new Error(`worker retired after an earlier failure (${retired})`));
  }
  try {
    const t0 = performance.now();
    const raw = ownBuffer(solver.runPacked(task.packed, task.options, t0 - task.elapsedMs, task.stop));
    const reply: WorkerReply = {
      kind: 'solved',
      protocol: POOL_PROTOCOL,
      threadId,
      raw,
      micros: Math.round((performance.now() - t0) * 1000),
    };
    return move({ [transferableSymbol]: [raw.node.buffer], [valueSymbol]: reply });
  } catch (err) {
    return failed(err);
  }
}
