/** Hard limits of the solver. Problems beyond them are rejected with an InvalidValueError. */

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
