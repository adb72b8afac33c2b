/**
 * The throughput model of one inference engine (one node or replica). Deliberately simple and stated:
 *
 * The engine runs iterations ("steps"). Every running decode sequence emits one token per step. While
 * prompts are waiting for prefill, each step also prefills `prefillChunk` of their tokens (chunked prefill,
 * first come first served). One step takes
 *
 *     stepBase + stepPerSeq * n + stepPerKToken * K / 1000 + (prefilling ? prefillPerKToken * prefillChunk / 1000 : 0)
 *
 * seconds, with n the decode batch size and K the KV tokens the batch reads (each sequence counted at its
 * prompt plus half its output). Every request also costs a fixed `requestOverhead` seconds of engine time
 * (scheduling, sampling setup, detokenization, the HTTP round trip), served in the prefill queue as
 * `requestOverhead x prefill rate` extra tokens: a floor under TTFT that also takes engine time. The first output token comes with the end of a request's prefill, so a
 * request of `output` tokens then needs `output - 1` decode steps. The model is fluid: a prefill smaller
 * than a chunk costs a fraction of a step. Decode throughput rises with n and saturates as stepPerSeq
 * and the KV term take over, which is the batch dependence the schedulers compete on.
 */

export interface EngineModel {
  /** Label for reports. */
  readonly name: string;
  /** Tokens per KV block; the cache keeps and evicts whole blocks (vLLM default: 16). */
  readonly blockSize: number;
  /** Seconds of one step with an empty batch (weight reads, launch overhead). */
  readonly stepBase: number;
  /** Seconds each decode sequence adds to a step. */
  readonly stepPerSeq: number;
  /** Seconds each 1000 KV tokens read by the decode batch add to a step. */
  readonly stepPerKToken: number;
  /** Seconds each 1000 prefilled tokens add to a step. */
  readonly prefillPerKToken: number;
  /** Prefill tokens per step while prompts wait (the chunked-prefill token budget). */
  readonly prefillChunk: number;
  /** Seconds of engine time every request costs on top of its tokens, at the idle prefill rate. */
  readonly requestOverhead: number;
}

/** Prefill-queue tokens that stand for a request's fixed overhead. */
export function overheadTokens(e: EngineModel): number {
  return e.requestOverhead * prefillRate(e);
}

/** Seconds of one step. */
export function stepTime(e: EngineModel, decodeBatch: number, decodeKvTokens: number, prefilling: boolean): number {
  let t = e.stepBase + e.stepPerSeq * decodeBatch + (e.stepPerKToken * decodeKvTokens) / 1000;
  if (prefilling) t += (e.prefillPerKToken * e.prefillChunk) / 1000;
  return t;
}

/** Prefill throughput of an otherwise idle engine, tokens per second (for reports). */
export function prefillRate(e: EngineModel): number {
  return e.prefillChunk / stepTime(e, 0, 0, true);
}

/** Decode throughput at batch n with `kvPerSeq` KV tokens per sequence, tokens per second (for reports). */
export function decodeRate(e: EngineModel, n: number, kvPerSeq: number): number {
  return n / stepTime(e, n, n * kvPerSeq, false);
}
