/**
 * The exact-arithmetic constants the kernels share (the TypeScript side's are in src/solve/exact.ts, with
 * the same values).
 */

/** 1 + 2^-50: scales an f64 quotient above the exact one (three roundings of at most 2^-53 each). */
export const UP: f64 = 1.0 + 8.881784197001252e-16;

/** Integers below this are exact in f64 (2^53). */
export const EXACT: f64 = 9007199254740992.0;
