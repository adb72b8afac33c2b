/**
 * A node's KV block pool with prefix caching and LRU eviction, at block granularity.
 *
 * Blocks are in three states: pinned (held by a running request), cached (a finished request's blocks,
 * reusable by the next request with the same prefix, evictable) or free. Cached blocks are grouped in
 * entries, one per (session, context epoch, node): an entry is a contiguous prefix of that session's
 * context. Why entries rather than one list node per block:
 * - every block of an entry was last used at the same instant (the end of the request that wrote it), so
 *   a list of entries in order of release *is* the LRU order of their blocks;
 * - within an entry vLLM frees blocks tail first, so eviction takes blocks from the entry's tail and what
 *   remains is still a prefix, which is all a later prefix match can use.
 * So eviction of k blocks is O(entries touched), insert/remove O(1), and the numbers are those of a
 * per-block LRU. Retention is not a curve: a paused session keeps its prefix exactly until enough newer
 * blocks have been needed, which is what makes it fall with load.
 */

/** The cached prefix of one session context on one node. */
export class CacheEntry {
  /** Blocks of the prefix still cached (or pinned, while a request of the session runs). */
  blocks = 0;
  /** In the LRU list (cached) rather than pinned by a running request or fully evicted. */
  linked = false;
  prev: CacheEntry | null = null;
  next: CacheEntry | null = null;

  constructor(
    /** Session (task) index. */
    readonly session: number,
    /** Context epoch: a compaction starts a new one, and old entries can never match again. */
    readonly epoch: number,
  ) {}
}

export class BlockPool {
  /** Blocks held by running requests. */
  pinned = 0;
  /** Blocks in cache entries on the LRU list. */
  cached = 0;
  /** Blocks evicted over the run. */
  evicted = 0;
  private head: CacheEntry | null = null; // least recently used
  private tail: CacheEntry | null = null; // most recently used

  constructor(readonly totalBlocks: number) {}

  get free(): number {
    return this.totalBlocks - this.pinned - this.cached;
  }

  /** Blocks that could be handed to a new request now: free plus evictable. */
  get available(): number {
    return this.totalBlocks - this.pinned;
  }

  /** Puts `entry` (with its `blocks` set) at the most-recently-used end. */
  release(entry: CacheEntry): void {
    if (entry.linked) throw new Error('cache entry released twice');
    if (entry.blocks === 0) return;
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail === null) this.head = entry;
    else this.tail.next = entry;
    this.tail = entry;
    entry.linked = true;
    this.cached += entry.blocks;
  }

  /** Takes `entry` off the LRU list (its blocks are about to be pinned by a request). */
  unlink(entry: CacheEntry): void {
    if (!entry.linked) return;
    if (entry.prev === null) this.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === null) this.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = null;
    entry.next = null;
    entry.linked = false;
    this.cached -= entry.blocks;
  }

  /** Evicts least recently used cached blocks until `n` blocks are free. Returns false if it cannot. */
  makeFree(n: number): boolean {
    if (this.totalBlocks - this.pinned < n) return false;
    let need = n - this.free;
    while (need > 0) {
      const e = this.head!;
      const take = e.blocks <= need ? e.blocks : need;
      e.blocks -= take;
      this.cached -= take;
      this.evicted += take;
      need -= take;
      if (e.blocks === 0) {
        // Fully evicted: off the list; the owner sees blocks = 0 and gets no hit.
        this.head = e.next;
        if (this.head === null) this.tail = null;
        else this.head.prev = null;
        e.next = null;
        e.linked = false;
      }
    }
    return true;
  }

  /** Sum of blocks over the LRU list, for invariant checks. */
  countCached(): number {
    let s = 0;
    for (let e = this.head; e !== null; e = e.next) s += e.blocks;
    return s;
  }
}
