/**
 * The sidecar's state and its answer to each request line: one in-thread solver, one readiness predictor
 * (fed by `observe` and `evaluate`, saved and replaced by `predictor.save` / `predictor.load`), and the
 * counters `stats` reports. Every line gets exactly one response; nothing a line holds can stop the
 * sidecar except `shutdown`.
 */
import { AbortedError, ClosedError, InvalidTypeError, InvalidValueError, SolverTrapError } from '../errors.js';
import { evaluate } from '../evaluate/evaluate.js';
import type { EvaluateOptions } from '../evaluate/options.js';
import { checkCompletedCall, ReadinessPredictor } from '../evaluate/readiness/predictor.js';
import type { Snapshot } from '../evaluate/snapshot.js';
import { LatencyHistogram } from '../planner/histogram.js';
import type { SolveOptions } from '../solve/options.js';
import type { Solver } from '../solve/solver.js';
import type { Problem } from '../types.js';
import { PACKAGE_VERSION } from '../version.js';
import {
  SIDECAR_OPS,
  SIDECAR_PROTOCOL_VERSION,
  type ErrorResponse,
  type RequestId,
  type SidecarErrorCode,
  type SidecarOp,
  type SidecarRequest,
  type SidecarResponse,
  type StatsResponse,
} from './protocol.js';
import type { Line } from './lines.js';
import { checkLoadable, readRequest } from './request.js';

/** A response, and whether the sidecar stops after sending it. */
export interface Reply {
  response: SidecarResponse;
  shutdown: boolean;
}

const TYPED_ERRORS = [InvalidTypeError, InvalidValueError, ClosedError, SolverTrapError, AbortedError] as const;

export class Dispatcher {
  readonly maxLineBytes: number;
  readonly #solver: Solver;
  #predictor: ReadinessPredictor;
  readonly #started = performance.now();
  readonly #requests: Record<SidecarOp | 'invalid', number>;
  readonly #errors: Partial<Record<SidecarErrorCode, number>> = {};
  readonly #solveMicros = new LatencyHistogram();
  readonly #log: (message: string) => void;

  /**
   * `solver` is used, not owned: the caller closes it. `log` receives diagnostics (failures that are not
   * the request's fault); they never go into a response stream.
   */
  constructor(solver: Solver, options: { maxLineBytes: number; predictor?: ReadinessPredictor; log: (message: string) => void }) {
    this.#solver = solver;
    this.maxLineBytes = options.maxLineBytes;
    this.#predictor = options.predictor ?? new ReadinessPredictor();
    this.#log = options.log;
    this.#requests = Object.fromEntries([...SIDECAR_OPS, 'invalid'].map((k) => [k, 0])) as Record<SidecarOp | 'invalid', number>;
  }

  /** The predictor `evaluate` and `observe` use now (`predictor.load` replaces it). */
  get predictor(): ReadinessPredictor {
    return this.#predictor;
  }

  /** The response to one line from the splitter. */
  handle(line: Line): Reply {
    if (line.kind === 'oversized') {
      this.#requests.invalid += 1;
      const message = `line must be at most ${this.maxLineBytes} bytes (has ${line.bytes})`;
      return { response: this.#error(null, new InvalidValueError(message)), shutdown: false };
    }
    const read = readRequest(line.text);
    if (read.error !== undefined) {
      this.#requests.invalid += 1;
      return { response: this.#error(read.id, read.error), shutdown: false };
    }
    const request = read.request;
    this.#requests[request.op] += 1;
    try {
      return { response: this.#answer(request), shutdown: request.op === 'shutdown' };
    } catch (err) {
      return { response: this.#error(request.id, err), shutdown: false };
    }
  }

  #answer(r: SidecarRequest): SidecarResponse {
    const id = r.id;
    switch (r.op) {
      case 'hello':
        return { id, ok: true, protocol: SIDECAR_PROTOCOL_VERSION, version: PACKAGE_VERSION, ops: SIDECAR_OPS, maxLineBytes: this.maxLineBytes };
      case 'solve': {
        // The library validates both and names the field: `problem.sessions[3].weight ...`, `options.quantum ...`.
        const plan = this.#solver.solve(r.problem as unknown as Problem, r.options as SolveOptions | undefined);
        this.#solveMicros.record(plan.stats.micros);
        return { id, ok: true, plan };
      }
      case 'evaluate': {
        const problem = evaluate(r.snapshot as unknown as Snapshot, this.#predictor, r.options as EvaluateOptions | undefined);
        return { id, ok: true, problem };
      }
      case 'observe': {
        const calls: unknown = r.calls;
        if (!Array.isArray(calls)) throw new InvalidTypeError('calls must be an array');
        // Every call is checked before any is learned: a bad batch leaves the predictor as it was.
        for (let i = 0; i < calls.length; i++) checkCompletedCall(calls[i], `calls[${i}]`, true);
        let learned = 0;
        for (const call of calls) if (this.#predictor.observe(call)) learned += 1;
        return { id, ok: true, learned };
      }
      case 'predictor.save': {
        const predictor = this.#predictor.toJSON();
        checkLoadable(predictor, this.maxLineBytes);
        return { id, ok: true, predictor };
      }
      case 'predictor.load':
        this.#predictor = ReadinessPredictor.fromJSON(r.predictor, 'predictor');
        return { id, ok: true };
      case 'stats':
        return this.#stats(id);
      case 'shutdown':
        return { id, ok: true };
    }
  }

  #stats(id: RequestId): StatsResponse {
    const p = this.#predictor.counts();
    return {
      id,
      ok: true,
      protocol: SIDECAR_PROTOCOL_VERSION,
      version: PACKAGE_VERSION,
      uptimeMs: Math.round(performance.now() - this.#started),
      maxLineBytes: this.maxLineBytes,
      requests: { ...this.#requests },
      errors: { ...this.#errors },
      solveMicros: this.#solveMicros.summary(),
      predictor: { tools: p.tools, globalSamples: p.globalSamples },
    };
  }

  #error(id: RequestId | null, err: unknown): ErrorResponse {
    let code: SidecarErrorCode;
    let message: string;
    if (TYPED_ERRORS.some((C) => err instanceof C)) {
      ({ code, message } = err as InstanceType<(typeof TYPED_ERRORS)[number]>);
    } else {
      code = 'ERR_TAO_INTERNAL';
      message = err instanceof Error ? err.message : String(err);
      this.#log(`internal error on request ${JSON.stringify(id)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    this.#errors[code] = (this.#errors[code] ?? 0) + 1;
    return { id, ok: false, error: { code, message } };
  }
}
