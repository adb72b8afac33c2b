/**
 * A maximum-value assignment of rows to columns (each row to at most one column, each column to at most
 * one row): the Hungarian method with potentials (Kuhn 1955, Munkres 1957; the O(rows^2 x columns) form
 * with one shortest augmenting path per row), over a dense row-major value matrix, -Infinity where a pair
 * is not allowed. A row may stay unassigned: every row gets a private "empty" column worth 0.
 *
 * Exactness: the values are integers and the caller keeps every |value| * 4 * (rows + 1) below 2^53, so
 * every potential, reduced cost and sum the method forms is an integer below 2^53, exact in doubles.
 * The working arrays live in a MatchingScratch the caller owns and keeps between calls.
 */

/** The method's working arrays, grown on demand (contents not kept between calls). */
export class MatchingScratch {
  u = new Float64Array(65);
  v = new Float64Array(1024);
  minv = new Float64Array(1024);
  way = new Int32Array(1024);
  owner = new Int32Array(1024);
  used = new Uint8Array(1024);
}

function room(scratch: MatchingScratch, columns: number, rows: number): void {
  if (scratch.u.length < rows + 1) scratch.u = new Float64Array(2 * (rows + 1));
  if (scratch.v.length < columns + 1) {
    const size = 2 * (columns + 1);
    scratch.v = new Float64Array(size);
    scratch.minv = new Float64Array(size);
    scratch.way = new Int32Array(size);
    scratch.owner = new Int32Array(size);
    scratch.used = new Uint8Array(size);
  }
}

/** An assignment and what it cost to find. */
export interface Matching {
  /** Per row, its column, or -1 (the row stays empty). */
  readonly column: Int32Array;
  /** The sum of the values of the assigned pairs. */
  readonly value: number;
  /** Inner-loop steps (one per column scanned per augmenting-path step). */
  readonly steps: number;
}

/**
 * The maximum-value assignment of `rows` rows to `columns` columns, `value[r * columns + c]` the value
 * of row r on column c (-Infinity: not allowed; values >= 0 otherwise).
 */
export function maxAssignment(
  value: Float64Array,
  rows: number,
  columns: number,
  scratch: MatchingScratch = new MatchingScratch(),
): Matching {
  // Columns 1..columns are the real ones, columns + 1..columns + rows the rows' empty columns; index 0
  // is the method's virtual column. Costs are negated values: a minimum-cost perfect assignment of rows.
  const total = columns + rows;
  room(scratch, total, rows);
  const { u, v, minv, way, owner, used } = scratch;
  u.fill(0, 0, rows + 1);
  v.fill(0, 0, total + 1);
  owner.fill(0, 0, total + 1);
  way.fill(0, 0, total + 1);
  let steps = 0;
  for (let i = 1; i <= rows; i++) {
    owner[0] = i;
    let j0 = 0;
    minv.fill(Number.POSITIVE_INFINITY, 0, total + 1);
    used.fill(0, 0, total + 1);
    do {
      used[j0] = 1;
      const i0 = owner[j0]!;
      const base = (i0 - 1) * columns;
      const ui = u[i0]!;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= total; j++) {
        if (used[j] === 1) continue;
        // The row's own empty column costs 0, another row's is not allowed.
        const cost = j <= columns ? -value[base + j - 1]! : j - columns === i0 ? 0 : Number.POSITIVE_INFINITY;
        const cur = cost - ui - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      steps += total;
      for (let j = 0; j <= total; j++) {
        if (used[j] === 1) {
          u[owner[j]!] = u[owner[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else minv[j] = minv[j]! - delta;
      }
      j0 = j1;
    } while (owner[j0] !== 0);
    do {
      const j1 = way[j0]!;
      owner[j0] = owner[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const column = new Int32Array(rows).fill(-1);
  let sum = 0;
  for (let j = 1; j <= columns; j++) {
    const r = owner[j]!;
    if (r === 0) continue;
    column[r - 1] = j - 1;
    sum += value[(r - 1) * columns + j - 1]!;
  }
  return { column, value: sum, steps };
}
