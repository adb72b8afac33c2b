/** Hard limits of the package. Input beyond them is rejected with an InvalidValueError naming the field. */

/** Most nodes (capacity dimensions) a problem may have. */
export const MAX_NODES = 64;
/** Most waiting sessions a problem may have. */
export const MAX_SESSIONS = 4096;
/** Largest weight, tokens or credit of one session: 2^32 - 1. */
export const MAX_U32 = 0xffff_ffff;
/** Largest state budget (units of work, see SolveOptions.stateBudget) a caller may ask for. Bounds WASM memory, see MEMORY_CAP_BYTES. */
export const MAX_STATE_BUDGET = 2 ** 26;
/** WASM linear memory never grows past this (the module's declared maximum): 1 GiB. */
export const MEMORY_CAP_BYTES = 2 ** 30;
/**
 * Longest `tool.command` (in UTF-16 code units) a snapshot or the readiness predictor accepts: 16,000.
 * Bounds the work of reading a command's `sleep`, and keeps every command within the length V8 hashes in
 * full (16,383), so that the predictor's cache of parsed commands stays a constant-time lookup.
 */
export const MAX_COMMAND_LENGTH = 16_000;
/**
 * Most duration slots a readiness predictor may hold over its tool histories (`maxTools * window`),
 * whoever sets the options (a constructor call or a persisted JSON): 2^20 slots, 8 MiB.
 */
export const MAX_PREDICTOR_HISTORY_SLOTS = 2 ** 20;
/**
 * Most bytes a `tao` command reads from stdin or an input file: 32 MiB, over twice the largest Problem the
 * solver accepts (64 nodes x 4096 sessions with every credit and eligibility given: 8.6 MB as compact JSON,
 * 13.9 MB indented), so a 10^6-session input is refused before it is parsed.
 */
export const MAX_INPUT_BYTES = 32 * 2 ** 20;
/** Most bytes a benchmark corpus file may hold, decompressed: 64 MiB. */
export const MAX_CORPUS_BYTES = 64 * 2 ** 20;
