/**
 * A progress bar on stderr for long runs. It draws only when enabled (the CLI enables it when stderr is a
 * TTY or `--progress` is given), so piped output and tests stay clean; it never touches results.
 */

export interface ProgressSink {
  write(text: string): unknown;
}

export class ProgressBar {
  private done = 0;
  private lastDrawn = -1;
  private lastLength = 0;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly out: ProgressSink,
    private readonly enabled: boolean,
    private readonly width = 30,
  ) {}

  /** Marks `n` more units done and redraws if the bar moved. */
  tick(n = 1, note = ''): void {
    this.done = Math.min(this.total, this.done + n);
    if (!this.enabled) return;
    const filled = this.total > 0 ? Math.round((this.done / this.total) * this.width) : this.width;
    if (filled === this.lastDrawn && this.done < this.total && note === '') return;
    this.lastDrawn = filled;
    const bar = '#'.repeat(filled) + '.'.repeat(this.width - filled);
    const line = `${this.label} [${bar}] ${this.done}/${this.total}${note === '' ? '' : ` ${note}`}`;
    // Pad over the previous line's tail (notes differ in length).
    this.out.write(`\r${line.padEnd(this.lastLength)}`);
    this.lastLength = line.length;
  }

  /**
   * Writes a whole line of log text above the bar: the bar's line is cleared, the text written, the bar
   * drawn again. Disabled, the text is written as is.
   */
  log(line: string): void {
    if (!this.enabled || this.lastDrawn < 0) {
      this.out.write(line + '\n');
      return;
    }
    this.out.write(`\r${' '.repeat(this.lastLength)}\r${line}\n`);
    this.lastDrawn = -1;
    this.lastLength = 0;
    this.tick(0);
  }

  /** Ends the bar's line. */
  finish(): void {
    if (this.enabled && this.lastDrawn >= 0) this.out.write('\n');
  }
}
