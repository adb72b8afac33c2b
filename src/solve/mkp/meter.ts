/**
 * The work meter of the multiple-knapsack path: counts units of work against the state budget and asks
 * the solve's halting check (deadline, stop flag) every METER_CHECK_WORK units. Passing either halts the
 * meter: `spend` and `poll` return false from then on, and `halt` says why. Every frame that spends returns
 * at once when they do, so the search stops where the halt happened, with the best plan it had, and the
 * search's root turns the halt into a labelled fallback: the same status path as the DPs' steps.
 */

/** Units of work between two halting checks (~10-50 us). */
export const METER_CHECK_WORK = 1 << 14;

/** Why the search stopped before proving its plan optimal. */
export class MkpHalt {
  /**
   * @param reason why, for the plan's `reason`
   * @param atBudget the work budget stopped it (not the deadline, the stop flag or the memory cap)
   */
  constructor(
    readonly reason: string,
    readonly atBudget = false,
  ) {}
}

export class WorkMeter {
  #work = 0;
  #nextCheck = METER_CHECK_WORK;
  #halt: MkpHalt | null = null;

  /**
   * @param budget most units of work (the state budget): what the search divides into its phases' shares
   * @param halted the solve's halting check: a reason to stop now, or undefined
   * @param budgetReason the reason reported when the budget is passed
   * @param limit where the meter halts, as when the budget is passed (at most `budget`; by default it):
   *   a search that ends before it runs as it would on `budget` alone
   */
  constructor(
    readonly budget: number,
    private readonly halted: () => string | undefined,
    private readonly budgetReason: (work: number) => string,
    readonly limit = budget,
  ) {}

  get work(): number {
    return this.#work;
  }

  /** Why the meter halted, or null while it runs. */
  get halt(): MkpHalt | null {
    return this.#halt;
  }

  /**
   * Counts `units` of work about to be done: false (halted) instead when they would pass the budget (the
   * work counted never exceeds it), when the halting check says so, or when the meter halted before.
   */
  spend(units: number): boolean {
    if (this.#halt !== null) return false;
    if (this.#work + units > this.limit) return this.stop(new MkpHalt(this.budgetReason(this.#work), true));
    this.#work += units;
    if (this.#work >= this.#nextCheck) {
      this.#nextCheck = this.#work + METER_CHECK_WORK;
      return this.poll();
    }
    return true;
  }

  /** Units that can be spent now without passing the budget or reaching the next halting check. */
  quiet(): number {
    return Math.max(0, Math.min(this.limit - this.#work, this.#nextCheck - 1 - this.#work));
  }

  /** Asks the halting check now (inside long steps that spend their work up front); false if it says stop. */
  poll(): boolean {
    if (this.#halt !== null) return false;
    const why = this.halted();
    return why === undefined ? true : this.stop(new MkpHalt(why));
  }

  /** Halts the meter for `halt` (a memory cap, say), unless it halted before; false. */
  stop(halt: MkpHalt): false {
    if (this.#halt === null) this.#halt = halt;
    return false;
  }
}
