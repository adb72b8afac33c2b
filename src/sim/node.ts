/**
 * One node at run time: admission accounting, the KV block pool, and the engine (see engine.ts) as a
 * fluid step clock.
 *
 * The engine's state is piecewise linear in time: between two events the step time `tau` is constant, the
 * step counter `vStep` grows at 1/tau and the prefill counter `prefillDone` at prefillChunk/tau (while a
 * prompt waits). Each decode request finishes at a fixed step count and each prefill at a fixed prefill
 * count, so the next completion is found from a heap minimum and a queue head, in O(log n), and the node
 * only needs a new event when its batch changes. Stale node events are skipped by `version`.
 */
import { BlockPool, CacheEntry } from './cache.js';
import { type EngineModel, stepTime } from './engine.js';
import { MinHeap } from './heap.js';
import type { NodeView } from './policy.js';
import type { Session } from './session.js';

/** Tolerances for "this completion is due now", in steps and prefill tokens; far below one token. */
const STEP_EPS = 1e-6;
const PREFILL_EPS = 1e-4;

export class EngineNode implements NodeView {
  held = 0;
  readonly blocks: BlockPool;
  version = 0;
  private vStep = 0;
  private lastTime = 0;
  private tau: number;
  private prefillQueue: Session[] = [];
  private prefillHead = 0;
  private prefillDone = 0;
  private prefillTail = 0;
  private readonly decodeSet = new MinHeap(64);
  private decodeSeq = 0;
  private nDecode = 0;
  private kvDecode = 0;
  private waitQueue: Session[] = [];
  private waitHead = 0;
  /** Integral of held capacity over time, for utilization. */
  heldSeconds = 0;
  private heldSince = 0;

  constructor(
    readonly index: number,
    readonly id: string,
    readonly capacity: number,
    readonly engine: EngineModel,
  ) {
    this.blocks = new BlockPool(Math.floor(capacity / engine.blockSize));
    this.tau = stepTime(engine, 0, 0, false);
  }

  get running(): number {
    return this.prefillQueue.length - this.prefillHead + this.nDecode;
  }

  get queued(): number {
    return this.waitQueue.length - this.waitHead;
  }

  get activeTokens(): number {
    return this.blocks.pinned * this.engine.blockSize;
  }

  get prefillBacklog(): number {
    return this.prefillHead < this.prefillQueue.length ? this.prefillTail - this.prefillDone : 0;
  }

  get decodeBatch(): number {
    return this.nDecode;
  }

  /** Current step count (valid after `advance`). */
  get steps(): number {
    return this.vStep;
  }

  /** Brings the engine counters to `now`. Call before any change. */
  advance(now: number): void {
    const dt = now - this.lastTime;
    if (dt > 0) {
      const steps = dt / this.tau;
      this.vStep += steps;
      if (this.prefillHead < this.prefillQueue.length) this.prefillDone += steps * this.engine.prefillChunk;
      this.lastTime = now;
    }
  }

  /** Changes the held capacity by `delta` at `now`, keeping the utilization integral. */
  hold(delta: number, now: number): void {
    this.heldSeconds += this.held * (now - this.heldSince);
    this.heldSince = now;
    this.held += delta;
  }

  /** Closes the utilization integral at `now`. */
  flushHeld(now: number): void {
    this.hold(0, now);
  }

  /**
   * Tries to give `s` the KV blocks of its request (prompt + output), reusing its cached prefix on this
   * node and evicting least recently used blocks of others. Sets `s.hit` and `s.blocks`. Returns the
   * blocks of its prefix that were still cached, or -1 if the blocks are not available now.
   */
  allocate(s: Session): number {
    const bs = this.engine.blockSize;
    const need = Math.ceil((s.prompt + s.output) / bs);
    // Its own cached prefix is evictable too, so "available" already counts it.
    if (this.blocks.available < need) return -1;
    const entry = s.entries[this.index];
    let reuse = 0;
    if (entry !== null && entry !== undefined && entry.epoch === s.epoch) {
      this.blocks.unlink(entry);
      reuse = entry.blocks;
      entry.blocks = 0;
      // Pinned before evicting, so eviction cannot count the reused prefix as room.
      this.blocks.pinned += reuse;
    }
    const ok = this.blocks.makeFree(need - reuse);
    if (!ok) throw new Error('block accounting: available blocks could not be freed');
    this.blocks.pinned += need - reuse;
    s.blocks = need;
    // A fully cached prompt still computes its last token (the engine needs one position to sample from).
    s.hit = Math.min(reuse * bs, s.prompt - 1);
    return reuse;
  }

  /** Returns the request's blocks: full blocks of the new context stay cached as the session's entry. */
  releaseBlocks(s: Session): void {
    this.blocks.pinned -= s.blocks;
    s.blocks = 0;
    let entry = s.entries[this.index] ?? null;
    if (entry === null || entry.epoch !== s.epoch) {
      entry = new CacheEntry(s.index, s.epoch);
      s.entries[this.index] = entry;
    }
    entry.blocks = Math.floor(s.tokens / this.engine.blockSize);
    this.blocks.release(entry);
  }

  /** Tokens of `s`'s current context cached here now. */
  cachedTokensOf(s: Session): number {
    const entry = s.entries[this.index];
    if (entry === null || entry === undefined || entry.epoch !== s.epoch || !entry.linked) return 0;
    return entry.blocks * this.engine.blockSize;
  }

  enqueueWait(s: Session): void {
    this.waitQueue.push(s);
  }

  /** Head of the queue of requests waiting for blocks, if any. */
  waitingHead(): Session | undefined {
    return this.waitHead < this.waitQueue.length ? this.waitQueue[this.waitHead] : undefined;
  }

  shiftWait(): void {
    this.waitQueue[this.waitHead++] = undefined as unknown as Session;
    if (this.waitHead > 256 && this.waitHead * 2 > this.waitQueue.length) {
      this.waitQueue = this.waitQueue.slice(this.waitHead);
      this.waitHead = 0;
    }
  }

  /** Queues `s`'s uncached prompt tokens for prefill (FCFS). */
  enqueuePrefill(s: Session): void {
    const uncached = s.prompt - s.hit;
    const base = this.prefillHead < this.prefillQueue.length ? this.prefillTail : this.prefillDone;
    s.prefillTarget = base + uncached;
    this.prefillTail = s.prefillTarget;
    this.prefillQueue.push(s);
  }

  /** The first prefill that is done by now, removed from the queue; undefined if none. */
  takeFinishedPrefill(): Session | undefined {
    if (this.prefillHead >= this.prefillQueue.length) return undefined;
    const s = this.prefillQueue[this.prefillHead]!;
    if (s.prefillTarget > this.prefillDone + PREFILL_EPS) return undefined;
    this.prefillQueue[this.prefillHead++] = undefined as unknown as Session;
    if (this.prefillHead >= this.prefillQueue.length) {
      this.prefillQueue.length = 0;
      this.prefillHead = 0;
    } else if (this.prefillHead > 256 && this.prefillHead * 2 > this.prefillQueue.length) {
      this.prefillQueue = this.prefillQueue.slice(this.prefillHead);
      this.prefillHead = 0;
    }
    return s;
  }

  /** Starts decoding the remaining `s.output - 1` tokens. */
  startDecode(s: Session): void {
    s.decodeStartStep = this.vStep;
    s.decodeTarget = this.vStep + (s.output - 1);
    this.decodeSet.push(s.decodeTarget, this.decodeSeq++, s.index, 0);
    this.nDecode++;
    this.kvDecode += s.prompt + s.output / 2;
  }

  /** The index of a session whose decode is done by now, removed from the batch; -1 if none. */
  takeFinishedDecode(sessions: readonly (Session | undefined)[]): Session | undefined {
    if (this.decodeSet.size === 0 || this.decodeSet.peekKey() > this.vStep + STEP_EPS) return undefined;
    const s = sessions[this.decodeSet.peekA()]!;
    this.decodeSet.pop();
    this.nDecode--;
    this.kvDecode -= s.prompt + s.output / 2;
    if (this.nDecode === 0) this.kvDecode = 0; // no float residue on an empty batch
    return s;
  }

  /** Output tokens emitted so far by requests still decoding (for a run cut at a duration). */
  decodedInFlight(sessions: readonly (Session | undefined)[]): number {
    let total = 0;
    this.decodeSet.forEach((idx) => {
      const s = sessions[idx]!;
      total += 1 + Math.min(s.output - 1, Math.floor(this.vStep - s.decodeStartStep));
    });
    return total;
  }

  /** Recomputes the step time after a change and returns the time of the next completion (Infinity if idle). */
  reschedule(): number {
    const prefilling = this.prefillHead < this.prefillQueue.length;
    this.tau = stepTime(this.engine, this.nDecode, this.kvDecode, prefilling);
    this.version++;
    let next = Number.POSITIVE_INFINITY;
    if (prefilling) {
      const head = this.prefillQueue[this.prefillHead]!;
      const left = Math.max(0, head.prefillTarget - this.prefillDone);
      next = this.lastTime + (left / this.engine.prefillChunk) * this.tau;
    }
    if (this.nDecode > 0) {
      const left = Math.max(0, this.decodeSet.peekKey() - this.vStep);
      const t = this.lastTime + left * this.tau;
      if (t < next) next = t;
    }
    return next;
  }
}
