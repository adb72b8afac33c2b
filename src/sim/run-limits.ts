/**
 * The simulator's size limits: what keeps one run's memory bounded. The flags of `tao simulate` and
 * `tao sweep`, the library's `simulate` options and trace files are all checked against these (one source
 * for each number); docs/simulator-runs.md gives their measured cost.
 */

/** Most tasks one run may complete (`--tasks`, a trace's task count). */
export const MAX_SIM_TASKS = 1_000_000;
/** Longest simulated time of a `--duration` run, seconds (~116 days). */
export const MAX_SIM_DURATION = 10_000_000;
/** Most samples of the running-request series one run may hold (`--duration / --sample`, checked as it runs otherwise). */
export const MAX_SERIES_SAMPLES = 1_000_000;
/** Finest `--sample` interval, seconds. */
export const MIN_SAMPLE_EVERY = 0.001;
/** Most seeds of one command (`--seeds N` or a list). */
export const MAX_SEEDS = 1_000;
/** Most (setting, policy, seed) runs one command may hold in its report. */
export const MAX_RUNS = 10_000;
/** Shortest TAO scheduling period `--horizon`, seconds: a finer one means a million DP ticks per 17 simulated minutes. */
export const MIN_HORIZON = 0.001;
/** Most worker threads `--jobs` may start. */
export const MAX_JOBS = 256;
