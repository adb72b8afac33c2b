// Every size limit of the module, in one place. The static regions of index.ts, dense.ts and
// frontier.ts are sized from these; src/solve/wasm/abi.ts reads MAX_NODES and MAX_SESSIONS from the layout
// table, and src/limits.ts states the same problem limits for validation (a test checks they agree).

/** Most kept nodes of a problem: one candidate per node at most, one usage field per node. */
export const MAX_NODES: i32 = 64;

/** Most kept sessions of a problem. */
export const MAX_SESSIONS: i32 = 4096;

/** Most frontier layers: one per folded session. */
export const MAX_LAYERS: i32 = MAX_SESSIONS;

/** Most i64 words of one packed frontier usage vector: at most one field per word in the worst case. */
export const MAX_WORDS: i32 = MAX_NODES;

/** Child lists of the frontier's merge: skip, plus one per slot. */
export const MAX_LISTS: i32 = MAX_NODES + 1;

/** The frontier's counters (layers, generated, kept, maxLayer, prunedBound, prunedDominance, comparisons, work, prunedCredit). */
export const COUNTERS: i32 = 9;

/**
 * Longest digit of node 0 the dense kernel folds in plane mode (see dense.ts, where the measurement
 * that chose it is recorded); also the rows of its lane-mask table.
 */
export const PLANE_MAX_RADIX0: i32 = 24;

/** Bytes of one page of linear memory. */
export const PAGE: i32 = 65536;
