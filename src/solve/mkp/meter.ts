/**
 * The work meter of the multiple-knapsack path: counts units of work against the state budget and asks
 * the solve's halting check (deadline, stop flag) every METER_CHECK_WORK units. Passing either ends the
 * search by throwing `MkpHalt`, which the search catches at its root and turns into a labelled fallback.
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

  /**
   * @param budget most units of work (the state budget)
   * @param halted the solve's halting check: a reason to stop now, or undefined
   * @param budgetReason the reason reported when the budget is passed
   */
  constructor(
    readonly budget: number,
    private readonly halted: () => string | undefined,
    private readonly budgetReason: (work: number) => string,
  ) {}

  get work(): number {
    return this.#work;
  }

  /**
   * Counts `units` of work about to be done; throws MkpHalt instead when they would pass the budget (the
   * work counted never exceeds it) or when the halting check says so.
   */
  spend(units: number): void {
    if (this.#work + units > this.budget) throw new MkpHalt(this.budgetReason(this.#work), true);
    this.#work += units;
    if (this.#work >= this.#nextCheck) {
      this.#nextCheck = this.#work + METER_CHECK_WORK;
      this.poll();
    }
  }

  /** Units that can be spent now without passing the budget or reaching the next halting check. */
  quiet(): number {
    return Math.max(0, Math.min(this.budget - this.#work, this.#nextCheck - 1 - this.#work));
  }

  /** Asks the halting check now (inside long steps that spend their work up front); throws MkpHalt if it says stop. */
  poll(): void {
    const why = this.halted();
    if (why !== undefined) throw new MkpHalt(why);
  }
}
