/**
 * The exact-arithmetic constants the TypeScript side shares (the AssemblyScript side's are in
 * assembly/exact.ts, with the same values).
 */

/**
 * 1 + 2^-50: scales an f64 quotient above the exact one. A term like p * rem / w computed in f64 takes
 * three roundings of at most 2^-53 each; multiplying by UP covers them, so the result is an upper bound.
 */
export const UP = 1 + 2 ** -50;

/** Integers below this are exact in f64 (2^53); products at or above it are not. */
export const EXACT = 2 ** 53;
