/**
 * One node at run time: admission accounting, the KV block pool, and the engine (see engine.ts) as a
 * fluid step clock.
 *
 * The engine's state is piecewise linear in time: between two events the step time `tau` is constant, the
 * step counter `vStep` grows at 1/tau and the prefill counter `prefillDone` at prefillChunk/tau (while a
 * prompt waits). Each decode request finishes at a fixed step count and each prefill at a fixed prefill
 * count, so the next completion is found from a heap minimum and a queue head, in O(log n), and the node
 * only needs a new event when its batch changes. Stale node events are skipped by `version`.
 *
 * KV blocks are allocated incrementally, as in vLLM: a request gets the blocks of its prompt when it is
 * scheduled and one more block each time its context crosses a block boundary while it decodes. When a
 * growing request finds no free or evictable block, the engine preempts by recomputation (vLLM V1): the
 * most recently scheduled running request is the victim, its blocks go back to the cache as an evictable
 * prefix of its context (prompt plus the tokens generated so far), and it is requeued at the head of the
 * node's waiting queue, to be prefilled again (what is still cached is a hit) when blocks free up.
 * Block demand is piecewise constant in the step count, so the next exhaustion is computed exactly and is
 * one more node event (see `reschedule`).
 */
import { BlockPool, CacheEntry } from './cache.js';
import { type EngineModel, overheadTokens, stepTime } from './engine.js';
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
  /** Requests holding blocks (prefill or decode), in the order they were scheduled: the victim is last. */
  private order: Session[] = [];
  /** Preemptions on this node. */
  preemptions = 0;
  /** Integral of held capacity over time, for utilization. */
  heldSeconds = 0;
  private heldSince = 0;

  constructor(
    readonly index: number,
    readonly id: string,
    /** What admitted weights are counted against (the policy's admission capacity, see Policy). */
    readonly capacity: number,
    readonly engine: EngineModel,
    /** KV tokens the engine's blocks hold. */
    readonly kvCapacity: number = capacity,
  ) {
    this.blocks = new BlockPool(Math.floor(kvCapacity / engine.blockSize));
    this.tau = stepTime(engine, 0, 0, false);
    this.overhead = overheadTokens(engine);
  }

  /** Prefill-queue tokens of a request's fixed overhead (see engine.ts). */
  private readonly overhead: number;

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
   * Tries to give `s` the KV blocks of its prompt, reusing its cached prefix on this node and evicting
   * least recently used blocks of others. Sets `s.hit` and `s.blocks`. Returns the blocks of its prefix
   * that were still cached, or -1 if the blocks are not available now. Output blocks come as it decodes.
   */
  allocate(s: Session): number {
    const bs = this.engine.blockSize;
    const need = Math.ceil(s.prompt / bs);
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
    this.order.push(s);
    return reuse;
  }

  /**
   * Returns the request's blocks: the full blocks of its first `tokens` context tokens stay cached as the
   * session's entry (the rest are freed).
   */
  releaseBlocks(s: Session, tokens: number = s.tokens): void {
    const held = s.blocks;
    this.blocks.pinned -= held;
    s.blocks = 0;
    const k = this.order.lastIndexOf(s);
    if (k >= 0) this.order.splice(k, 1);
    let entry = s.entries[this.index] ?? null;
    if (entry === null || entry.epoch !== s.epoch) {
      entry = new CacheEntry(s.index, s.epoch);
      s.entries[this.index] = entry;
    }
    entry.blocks = Math.min(held, Math.floor(tokens / this.engine.blockSize));
    this.blocks.release(entry);
  }

  /** Blocks a decoding request needs at step `v`: its prompt, the tokens out so far and the next one's slot. */
  private decodeNeed(s: Session, v: number): number {
    const bs = this.engine.blockSize;
    const cap = Math.ceil((s.prompt + s.output) / bs);
    return Math.min(cap, Math.ceil((s.prompt + 1 + Math.max(0, v - s.decodeStartStep)) / bs));
  }

  /**
   * Brings every decoding request's blocks up to its context at the current step (call after `advance`),
   * evicting cached blocks as needed; when even that is not enough, preempts the most recently scheduled
   * request until the rest fit. Returns the victims, already requeued at the head of the waiting queue.
   */
  grow(): Session[] {
    const victims: Session[] = [];
    for (;;) {
      let extra = 0;
      for (const s of this.order) if (s.state === 'decode') extra += this.decodeNeed(s, this.vStep) - s.blocks;
      if (extra <= this.blocks.available) break;
      const victim = this.order[this.order.length - 1]!;
      this.preempt(victim);
      victims.push(victim);
    }
    for (const s of this.order) {
      if (s.state !== 'decode') continue;
      const add = this.decodeNeed(s, this.vStep) - s.blocks;
      if (add <= 0) continue;
      if (!this.blocks.makeFree(add)) throw new Error('block accounting: growth blocks could not be freed');
      this.blocks.pinned += add;
      s.blocks += add;
    }
    // Each victim is put at the head in turn (vLLM's `waiting.prepend_request`), so the last one preempted,
    // the oldest of them, ends up first.
    for (const v of victims) this.unshiftWait(v);
    return victims;
  }

  /** Stops `s`'s prefill or decode, keeps what it computed as a cached prefix, and marks it for recompute. */
  private preempt(s: Session): void {
    this.preemptions++;
    let kept: number;
    if (s.state === 'decode') {
      const generated = Math.min(s.output - 1, 1 + Math.floor(this.vStep - s.decodeStartStep + STEP_EPS));
      this.nDecode--;
      this.kvDecode -= s.prompt + s.output / 2;
      if (this.nDecode === 0) this.kvDecode = 0;
      s.decodeGen++;
      s.prompt += generated;
      s.output -= generated;
      kept = s.prompt;
    } else {
      // The newest request in prefill is the prefill queue's tail.
      const tail = this.prefillQueue[this.prefillQueue.length - 1];
      if (tail !== s) throw new Error('preemption: the newest request is neither decoding nor the last prefill');
      // The request's overhead is served before its tokens.
      const start = s.prefillTarget - (s.prompt - s.hit);
      const computed = Math.max(0, Math.min(s.prompt - s.hit, this.prefillDone - start));
      this.prefillQueue.pop();
      if (this.prefillHead >= this.prefillQueue.length) {
        this.prefillQueue.length = 0;
        this.prefillHead = 0;
        this.prefillTail = this.prefillDone;
      } else {
        this.prefillTail = this.prefillQueue[this.prefillQueue.length - 1]!.prefillTarget;
      }
      kept = s.hit + computed;
    }
    this.releaseBlocks(s, kept);
    s.state = 'queued';
    s.preempted = true;
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

  /** Puts `s` at the head of the waiting queue (a preempted request). */
  unshiftWait(s: Session): void {
    if (this.waitHead > 0) this.waitQueue[--this.waitHead] = s;
    else this.waitQueue.unshift(s);
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
    const uncached = s.prompt - s.hit + this.overhead;
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
    this.decodeSet.push(s.decodeTarget, this.decodeSeq++, s.index, s.decodeGen);
    this.nDecode++;
    this.kvDecode += s.prompt + s.output / 2;
  }

  /** The index of a session whose decode is done by now, removed from the batch; -1 if none. */
  takeFinishedDecode(sessions: readonly (Session | undefined)[]): Session | undefined {
    this.dropStale(sessions);
    if (this.decodeSet.size === 0 || this.decodeSet.peekKey() > this.vStep + STEP_EPS) return undefined;
    const s = sessions[this.decodeSet.peekA()]!;
    this.decodeSet.pop();
    this.nDecode--;
    this.kvDecode -= s.prompt + s.output / 2;
    if (this.nDecode === 0) this.kvDecode = 0; // no float residue on an empty batch
    return s;
  }

  /** Pops heap entries of preempted decodes (lazy deletion: their generation moved on). */
  private dropStale(sessions: readonly (Session | undefined)[]): void {
    while (this.decodeSet.size > 0) {
      const s = sessions[this.decodeSet.peekA()];
      if (s !== undefined && s.state === 'decode' && s.node === this.index && s.decodeGen === this.decodeSet.peekB())
        return;
      this.decodeSet.pop();
    }
  }

  /** Output tokens emitted so far by requests still decoding (for a run cut at a duration). */
  decodedInFlight(): number {
    let total = 0;
    for (const s of this.order) {
      if (s.state !== 'decode') continue;
      total += s.requestOutput - s.output + 1 + Math.min(s.output - 1, Math.floor(this.vStep - s.decodeStartStep));
    }
    return total;
  }

  /**
   * Steps from now until the decoding requests need more blocks than are free or evictable (Infinity if
   * never). Request i needs a new block each time its context crosses a block boundary, i.e. every
   * `blockSize` steps from its own phase o_i (steps until its next boundary); the (A+1)-th crossing over
   * all requests, with A blocks available, is at o_(A mod n) + blockSize * floor(A / n) over the phases
   * sorted ascending. Crossings a request would make after its last token are never reached before its
   * completion, which is an earlier event.
   */
  private stepsToExhaustion(): number {
    const bs = this.engine.blockSize;
    const phases: number[] = [];
    for (const s of this.order) {
      if (s.state !== 'decode') continue;
      if (s.blocks >= Math.ceil((s.prompt + s.output) / bs)) continue;
      // Boundary when prompt + 1 + (v - start) passes blocks * bs.
      phases.push(Math.max(0, s.blocks * bs - s.prompt - 1 + s.decodeStartStep - this.vStep));
    }
    if (phases.length === 0) return Number.POSITIVE_INFINITY;
    phases.sort((a, b) => a - b);
    const a = this.blocks.available;
    return phases[a % phases.length]! + bs * Math.floor(a / phases.length);
  }

  /** Recomputes the step time after a change and returns the time of the next event (Infinity if idle). */
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
      // Just past the boundary crossing (ten step tolerances), so the block count has moved when it fires.
      const exhaust = this.lastTime + (this.stepsToExhaustion() + STEP_EPS * 10) * this.tau;
      if (exhaust < next) next = exhaust;
    }
    return next;
  }
}
