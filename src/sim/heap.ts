/**
 * A binary min-heap of (primary, secondary) float keys with two int payloads, in growable typed arrays.
 * The simulator's event queue and each node's decode set are instances.
 *
 * Ties on `primary` are broken by `secondary`, which callers make unique (an insertion sequence, possibly
 * offset by a priority class): pop order is then a pure function of the pushes, which the determinism of
 * a run depends on. A heap of plain objects would also work; typed arrays keep 10^6 events allocation-free.
 */
export class MinHeap {
  private primary: Float64Array;
  private secondary: Float64Array;
  private a: Int32Array;
  private b: Int32Array;
  private n = 0;

  constructor(initialCapacity = 64) {
    const cap = Math.max(4, initialCapacity);
    this.primary = new Float64Array(cap);
    this.secondary = new Float64Array(cap);
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
  }

  get size(): number {
    return this.n;
  }

  /** Primary key of the minimum; `Infinity` when empty. */
  peekKey(): number {
    return this.n === 0 ? Number.POSITIVE_INFINITY : this.primary[0]!;
  }

  /** First payload of the minimum (undefined behaviour when empty: check `size`). */
  peekA(): number {
    return this.a[0]!;
  }

  peekB(): number {
    return this.b[0]!;
  }

  push(primary: number, secondary: number, a: number, b: number): void {
    if (this.n === this.primary.length) this.grow();
    let i = this.n++;
    // Sift up with a hole instead of swaps.
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pp = this.primary[p]!;
      if (pp < primary || (pp === primary && this.secondary[p]! <= secondary)) break;
      this.primary[i] = pp;
      this.secondary[i] = this.secondary[p]!;
      this.a[i] = this.a[p]!;
      this.b[i] = this.b[p]!;
      i = p;
    }
    this.primary[i] = primary;
    this.secondary[i] = secondary;
    this.a[i] = a;
    this.b[i] = b;
  }

  /** Removes the minimum. Read it first with `peekKey`/`peekA`/`peekB`. */
  pop(): void {
    const last = --this.n;
    if (last <= 0) {
      this.n = Math.max(0, last);
      return;
    }
    const kp = this.primary[last]!;
    const ks = this.secondary[last]!;
    const va = this.a[last]!;
    const vb = this.b[last]!;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let c = 2 * i + 1;
      const r = c + 1;
      if (
        r < last &&
        (this.primary[r]! < this.primary[c]! ||
          (this.primary[r] === this.primary[c] && this.secondary[r]! < this.secondary[c]!))
      ) {
        c = r;
      }
      const cp = this.primary[c]!;
      if (kp < cp || (kp === cp && ks <= this.secondary[c]!)) break;
      this.primary[i] = cp;
      this.secondary[i] = this.secondary[c]!;
      this.a[i] = this.a[c]!;
      this.b[i] = this.b[c]!;
      i = c;
    }
    this.primary[i] = kp;
    this.secondary[i] = ks;
    this.a[i] = va;
    this.b[i] = vb;
  }

  clear(): void {
    this.n = 0;
  }

  /** Calls `f(a, b, primary)` for every entry, in heap (not sorted) order. */
  forEach(f: (a: number, b: number, primary: number) => void): void {
    for (let i = 0; i < this.n; i++) f(this.a[i]!, this.b[i]!, this.primary[i]!);
  }

  private grow(): void {
    const cap = this.primary.length * 2;
    const p = new Float64Array(cap);
    p.set(this.primary);
    this.primary = p;
    const s = new Float64Array(cap);
    s.set(this.secondary);
    this.secondary = s;
    const a = new Int32Array(cap);
    a.set(this.a);
    this.a = a;
    const b = new Int32Array(cap);
    b.set(this.b);
    this.b = b;
  }
}
