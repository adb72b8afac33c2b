/**
 * The sidecar's state and its answer to each request line: one in-thread solver, one readiness predictor
 * (fed by `observe` and `evaluate`, saved and replaced by `predictor.save` / `predictor.load`), and the
 * counters `stats` reports. Every line gets exactly one response, except a notification (an `observe`
 * without an id), which gets none: its refusal goes to the log. Nothing a line holds can stop the sidecar
 * except `shutdown`.
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
  SIDECAR_PROTOCOL_VERSIONS,
  type ErrorResponse,
  type HelloResponse,
  type RequestId,
  type SidecarErrorCode,
  type SidecarOp,
  type SidecarRequest,
  type SidecarResponse,
  type StatsResponse,
} from './protocol.js';
import type { Line } from './lines.js';
import { checkLoadable, readRequest } from './request.js';
import { tick } from './tick.js';
import { ConnectionState } from './delta.js';

/** A response (undefined for a notification), and whether the sidecar stops after sending it. */
export interface Reply {
  response: SidecarResponse | undefined;
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
  constructor(
    solver: Solver,
    options: { maxLineBytes: number; predictor?: ReadinessPredictor; log: (message: string) => void },
  ) {
    this.#solver = solver;
    this.maxLineBytes = options.maxLineBytes;
    this.#predictor = options.predictor ?? new ReadinessPredictor();
    this.#log = options.log;
    this.#requests = Object.fromEntries([...SIDECAR_OPS, 'invalid'].map((k) => [k, 0])) as Record<
      SidecarOp | 'invalid',
      number
    >;
  }

  /** The predictor `evaluate` and `observe` use now (`predictor.load` replaces it). */
  get predictor(): ReadinessPredictor {
    return this.#predictor;
  }

  /**
   * The response to one line from the splitter, read on `connection` (what a connection keeps between
   * its lines: the base of a `tick` delta). Without one, the line is read as a connection's first.
   */
  handle(line: Line, connection: ConnectionState = new ConnectionState()): Reply {
    if (line.kind === 'oversized') {
      this.#requests.invalid += 1;
      const message = `line must be at most ${this.maxLineBytes} bytes (has ${line.bytes})`;
      return { response: this.#error(null, null, new InvalidValueError(message)), shutdown: false };
    }
    const read = readRequest(line.text, line.nesting);
    if (read.error !== undefined) {
      this.#requests.invalid += 1;
      return { response: this.#error(read.id ?? null, read.op, read.error), shutdown: false };
    }
    const request = read.request;
    this.#requests[request.op] += 1;
    if (read.id === undefined) return { response: this.#notify(request, connection), shutdown: false };
    try {
      return { response: this.#answer(request, read.id, connection), shutdown: request.op === 'shutdown' };
    } catch (err) {
      return { response: this.#error(read.id, request.op, err), shutdown: false };
    }
  }

  /** Runs a notification: no response; a refusal is counted and logged. */
  #notify(request: SidecarRequest, connection: ConnectionState): undefined {
    try {
      this.#answer(request, null, connection);
    } catch (err) {
      const { error } = this.#error(null, request.op, err);
      this.#log(`${request.op} notification refused: ${error.code}: ${error.message}`);
    }
    return undefined;
  }

  #answer(r: SidecarRequest, id: RequestId | null, connection: ConnectionState): SidecarResponse {
    const op = r.op;
    switch (op) {
      case 'hello':
        return this.#hello(id!, r.protocols);
      case 'tick': {
        const answer = tick(this.#solver, this.#predictor, r, id!, connection);
        this.#solveMicros.record(answer.plan.stats.micros);
        return { id: id!, op, ok: true, ...answer };
      }
      case 'solve': {
        // The library validates both and names the field: `problem.sessions[3].weight ...`, `options.quantum ...`.
        const plan = this.#solver.solve(r.problem as unknown as Problem, r.options as SolveOptions | undefined);
        this.#solveMicros.record(plan.stats.micros);
        return { id: id!, op, ok: true, plan };
      }
      case 'evaluate': {
        const problem = evaluate(
          r.snapshot as unknown as Snapshot,
          this.#predictor,
          r.options as EvaluateOptions | undefined,
        );
        return { id: id!, op, ok: true, problem };
      }
      case 'observe': {
        const calls: unknown = r.calls;
        if (!Array.isArray(calls)) throw new InvalidTypeError('calls must be an array');
        // Every call is checked before any is learned: a bad batch leaves the predictor as it was.
        for (let i = 0; i < calls.length; i++) checkCompletedCall(calls[i], `calls[${i}]`, true);
        let learned = 0;
        for (const call of calls) if (this.#predictor.observe(call)) learned += 1;
        return { id: id!, op, ok: true, learned };
      }
      case 'predictor.save': {
        const predictor = this.#predictor.toJSON();
        checkLoadable(predictor, this.maxLineBytes);
        return { id: id!, op, ok: true, predictor };
      }
      case 'predictor.load':
        this.#predictor = ReadinessPredictor.fromJSON(r.predictor, 'predictor');
        return { id: id!, op, ok: true };
      case 'stats':
        return this.#stats(id!);
      case 'shutdown':
        return { id: id!, op, ok: true };
    }
  }

  /** The highest version both sides speak (the current one when the client lists none). */
  #hello(id: RequestId, protocols: unknown): HelloResponse {
    let protocol = SIDECAR_PROTOCOL_VERSION;
    if (protocols !== undefined) {
      if (!Array.isArray(protocols)) throw new InvalidTypeError('protocols must be an array of protocol versions');
      if (protocols.length === 0 || protocols.length > 64) {
        throw new InvalidValueError(`protocols must have from 1 to 64 entries (has ${protocols.length})`);
      }
      protocols.forEach((v: unknown, k) => {
        if (typeof v !== 'number') throw new InvalidTypeError(`protocols[${k}] must be a number`);
        if (!Number.isSafeInteger(v) || v < 1)
          throw new InvalidValueError(`protocols[${k}] must be a positive integer (got ${v})`);
      });
      const shared = (protocols as number[]).filter((v) => SIDECAR_PROTOCOL_VERSIONS.includes(v));
      if (shared.length === 0) {
        throw new InvalidValueError(
          `protocols shares no version with this sidecar: it speaks ${SIDECAR_PROTOCOL_VERSIONS.join(', ')}, the client ${protocols.join(', ')}`,
        );
      }
      protocol = Math.max(...shared);
    }
    return {
      id,
      op: 'hello',
      ok: true,
      protocol,
      protocols: SIDECAR_PROTOCOL_VERSIONS,
      version: PACKAGE_VERSION,
      ops: SIDECAR_OPS,
      maxLineBytes: this.maxLineBytes,
    };
  }

  #stats(id: RequestId): StatsResponse {
    const p = this.#predictor.counts();
    return {
      id,
      op: 'stats',
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

  #error(id: RequestId | null, op: string | null, err: unknown): ErrorResponse {
    let code: SidecarErrorCode;
    let message: string;
    if (TYPED_ERRORS.some((C) => err instanceof C)) {
      ({ code, message } = err as InstanceType<(typeof TYPED_ERRORS)[number]>);
    } else {
      code = 'ERR_TAO_INTERNAL';
      message = err instanceof Error ? err.message : String(err);
      this.#log(
        `internal error on request ${JSON.stringify(id)}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
    }
    this.#errors[code] = (this.#errors[code] ?? 0) + 1;
    return { id, op, ok: false, error: { code, message } };
  }
}
