/**
 * Problems whose nodes hold few sessions each, solved as assignments (docs/solver.md, "Nodes that hold
 * one session: the assignment path").
 *
 * Call a kept node b "single" when no two of its candidate sessions fit on it together (fewer than two
 * candidates, or the two lightest quantized weights sum to more than its DP capacity C'_b). A plan puts
 * at most one session on a single node, so on a problem whose nodes are all single a plan is a matching
 * of sessions to nodes along candidate pairs, worth the sum of its pairs' values, and the lexicographic
 * optimum is a maximum-value matching when each pair is worth its packed key (numeric order of key sums
 * is lexicographic order of value sums: src/solve/pack.ts).
 *
 * A few nodes that are not single ("multi" nodes) are handled by enumeration: every set of two or more
 * candidates that fits on a multi node is one of its patterns. A plan puts on each multi node either a
 * pattern or at most one session, so the optimum is the best, over every choice per multi node (one of
 * its patterns, disjoint from the others chosen, or "at most one"), of the chosen patterns' values plus a
 * maximum-value matching of the remaining sessions to the single nodes and the "at most one" multi nodes.
 *
 * The matching reads, for each of its k rows (nodes), only the k most valuable free candidates (ties:
 * lower kept index): some maximum matching uses only those. Proof: take a maximum matching where row b
 * holds a session i outside its list L_b; the other k - 1 rows hold at most k - 1 sessions of L_b, so
 * some s in L_b is free, and moving b from i to s does not lower the value (s is worth at least i on b)
 * nor uses any pair outside the candidates. Repeating this for each such row (each move puts one more
 * row inside its list and takes none out) ends in a maximum matching within the lists.
 *
 * The path applies when at most half the nodes are multi nodes, the patterns and their combinations stay
 * within PATTERN_LIMIT and COMBO_LIMIT (`AssignmentLimits`)
 * and every value sum stays below 2^53 (exact doubles); it spends at most `limit` steps (a candidate read,
 * a session per combination for its set-up and plan, a matching's inner step), else it is abandoned for
 * the later stages. Its working arrays are kept in an AssignmentScratch between solves.
 */
import { MAX_NODES } from '../../limits.js';
import { keyWords, LOW_WORD, nodesKept, sessionsKept, type PackedProblem } from '../pack.js';
import { MatchingScratch, maxAssignment } from './matching.js';

/** Most patterns (sets of two or more sessions that fit on a multi node) over all multi nodes. */
export const PATTERN_LIMIT = 4096;
/** Most combinations of per-multi-node choices (each costs one matching). */
export const COMBO_LIMIT = 4096;

/** The path's limits on its enumeration (the solver's are the defaults; tests set smaller ones). */
export interface AssignmentLimits {
  /** Most patterns over all multi nodes. */
  readonly patterns: number;
  /** Most combinations of per-multi-node choices. */
  readonly combos: number;
}

/** A key whose high word reaches this is at least 2^53. */
const HIGH_LIMIT = 2 ** 21;

/** The path's working arrays, grown on demand and kept between solves (contents not kept between calls). */
export class AssignmentScratch {
  /** The matching's arrays. */
  readonly matching = new MatchingScratch();
  /** Per kept session, its column in the matching being built; -1 between calls. */
  private columnOf = new Int32Array(64).fill(-1);
  private columns = new Int32Array(64);
  /** A matching's rows: kept nodes, at most MAX_NODES. */
  readonly rows = new Int32Array(MAX_NODES);
  private matrix = new Float64Array(1024);

  columnOfFor(sessions: number): Int32Array {
    if (this.columnOf.length < sessions) this.columnOf = new Int32Array(2 * sessions).fill(-1);
    return this.columnOf;
  }

  columnsFor(size: number): Int32Array {
    if (this.columns.length < size) this.columns = new Int32Array(2 * size);
    return this.columns;
  }

  matrixFor(size: number): Float64Array {
    if (this.matrix.length < size) this.matrix = new Float64Array(2 * size);
    return this.matrix;
  }
}

/** The assignment path's answer. */
export type AssignmentOutcome =
  /** The optimal plan (kept node per kept session, -1 = not admitted) and the matching steps it cost. */
  | { readonly node: Int32Array; readonly work: number }
  /** The problem is not of this shape (or its values are too large for exact doubles). */
  | 'not-applicable'
  /** The matchings passed `limit` steps (`work` spent). */
  | { readonly abandoned: true; readonly work: number };

/**
 * The pair values (packed keys as doubles, -1 where not a candidate), or null when the packed key does
 * not fit or some sum the path forms could reach 2^53.
 */
function pairValues(packed: PackedProblem): Float64Array | null {
  if (!packed.keyFits) return null;
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const words = keyWords(packed.key);
  const out = new Float64Array(n * m);
  let top = 0;
  for (let e = 0; e < n * m; e++) {
    if (packed.candidate[e] !== 1) {
      out[e] = -1;
      continue;
    }
    const high = words[2 * e + 1 - LOW_WORD]!;
    if (high >= HIGH_LIMIT) return null;
    const k = high * 4_294_967_296 + words[2 * e + LOW_WORD]!;
    out[e] = k;
    if (k > top) top = k;
  }
  // A plan's value is a sum of at most n pair values; a matching's potentials stay within 4 (m + 1) of them.
  if (top * (n + 4 * (m + 1)) >= 2 ** 53) return null;
  return out;
}

/** Per multi node, its patterns (sets of kept sessions, lightest first); null past `limit` in all. */
function patternsOf(
  packed: PackedProblem,
  multi: readonly number[],
  candidates: readonly number[][],
  limit: number,
): number[][][] | null {
  let count = 0;
  const out: number[][][] = [];
  for (const b of multi) {
    const items = candidates[b]!;
    const cap = packed.capacity[b]!;
    const w = packed.qweight;
    const list: number[][] = [];
    const chosen: number[] = [];
    // Depth-first over the candidates by weight ascending: a prefix that overflows ends its branch.
    const grow = (from: number, used: number): boolean => {
      for (let t = from; t < items.length; t++) {
        const j = items[t]!;
        if (used + w[j]! > cap) break;
        chosen.push(j);
        if (chosen.length >= 2) {
          if (++count > limit) return false;
          list.push(chosen.slice());
        }
        if (!grow(t + 1, used + w[j]!)) return false;
        chosen.pop();
      }
      return true;
    };
    if (!grow(0, 0)) return null;
    out.push(list);
  }
  return out;
}

/**
 * The optimal plan of `packed` when its nodes hold few sessions (see the module comment), within `limit`
 * matching steps and the enumeration's `limits`.
 */
export function assignmentPlan(
  packed: PackedProblem,
  limit: number,
  scratch: AssignmentScratch = new AssignmentScratch(),
  limits: AssignmentLimits = { patterns: PATTERN_LIMIT, combos: COMBO_LIMIT },
): AssignmentOutcome {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const w = packed.qweight;
  // The two lightest candidate weights per node: single nodes need no candidate lists for this test.
  const light1 = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  const light2 = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
  for (let j = 0; j < n; j++) {
    const wj = w[j]!;
    for (let b = 0; b < m; b++) {
      if (packed.candidate[j * m + b] !== 1) continue;
      if (wj < light1[b]!) {
        light2[b] = light1[b]!;
        light1[b] = wj;
      } else if (wj < light2[b]!) light2[b] = wj;
    }
  }
  const multi: number[] = [];
  for (let b = 0; b < m; b++) if (light1[b]! + light2[b]! <= packed.capacity[b]!) multi.push(b);
  // The path is for nodes that hold one session but for a few: at most half the nodes may hold more
  // (problems of nodes that all hold several are multiple knapsacks, the search's).
  if (2 * multi.length > m) return 'not-applicable';
  // The multi nodes' patterns first (a node that fits many sessions refuses the path before any other
  // O(n m) pass), then the single nodes' candidates and the pair values.
  const candidates: number[][] = Array.from({ length: m }, () => []);
  for (const b of multi) {
    const list = candidates[b]!;
    for (let j = 0; j < n; j++) if (packed.candidate[j * m + b] === 1) list.push(j);
    list.sort((a, c) => w[a]! - w[c]!); // stable, from index order: equal weights stay in it
  }
  const patterns = patternsOf(packed, multi, candidates, limits.patterns);
  if (patterns === null) return 'not-applicable';
  let combos = 1;
  for (const list of patterns) {
    combos *= list.length + 1;
    if (combos > limits.combos) return 'not-applicable';
  }
  const value = pairValues(packed);
  if (value === null) return 'not-applicable';
  for (let j = 0; j < n; j++) {
    for (let b = 0, t = 0; b < m; b++) {
      if (t < multi.length && multi[t] === b) {
        t++;
        continue;
      }
      if (packed.candidate[j * m + b] === 1) candidates[b]!.push(j);
    }
  }

  // Each node's candidates by value descending (ties: lower kept index), once: a matching reads the first
  // free ones of these lists.
  const byValue: number[][] = candidates.map((list, b) =>
    list.slice().sort((a, c) => value[c * m + b]! - value[a * m + b]! || a - c),
  );
  const taken = new Uint8Array(n);
  const choice = new Int32Array(multi.length).fill(-1);
  const rows = scratch.rows;
  let best: Int32Array | null = null;
  let bestValue = -1;
  let work = 0;
  let over = false;

  const evaluate = (fixedValue: number): void => {
    // The rows: the multi nodes at "at most one", then the single nodes, in node order within each.
    let k = 0;
    for (let t = 0; t < multi.length; t++) if (choice[t]! < 0) rows[k++] = multi[t]!;
    for (let b = 0, t = 0; b < m; b++) {
      if (t < multi.length && multi[t] === b) t++;
      else rows[k++] = b;
    }
    // A step per session for the combination's set-up and the plan it may write (charged before, so a
    // combination never passes the limit).
    if (work + n > limit) {
      over = true;
      return;
    }
    work += n;
    const match = matchRows(packed, value, byValue, rows, k, taken, limit - work, scratch);
    work += match.steps;
    if (match.column === null) {
      over = true;
      return;
    }
    const total = fixedValue + match.value;
    if (total <= bestValue) return;
    bestValue = total;
    const plan = (best ??= new Int32Array(n));
    plan.fill(-1);
    for (let t = 0; t < multi.length; t++) {
      const c = choice[t]!;
      if (c >= 0) for (const j of patterns[t]![c]!) plan[j] = multi[t]!;
    }
    for (let r = 0; r < k; r++) if (match.column[r]! >= 0) plan[match.column[r]!] = rows[r]!;
  };

  // Pruning (see `completionBound`): a combination, or every completion of a partial one, whose bound is at
  // most the best value found so far cannot replace it (a plan replaces the best only when strictly better),
  // so skipping it leaves the result and the order of the evaluated combinations as they were.
  const bounds = completionBounds(packed, value, multi, patterns, byValue);
  // A bound's session reads are steps too; a bound above the best so far lets the walk go on.
  const within = (bound: number): boolean => {
    work += bounds.reads;
    if (work > limit) over = true;
    return !over && bound > bestValue;
  };
  const walk = (t: number, fixedValue: number): void => {
    if (over) return;
    if (t === multi.length) {
      evaluate(fixedValue);
      return;
    }
    choice[t] = -1;
    if (within(bounds.of(taken, fixedValue, t + 1, choice))) walk(t + 1, fixedValue);
    const list = patterns[t]!;
    const worth = bounds.patternValue[t]!;
    for (let c = 0; c < list.length && !over; c++) {
      const set = list[c]!;
      if (anyTaken(set, taken)) continue;
      for (const j of set) taken[j] = 1;
      choice[t] = c;
      const fixed = fixedValue + worth[c]!;
      if (within(bounds.of(taken, fixed, t + 1, choice))) walk(t + 1, fixed);
      for (const j of set) taken[j] = 0;
    }
    choice[t] = -1;
  };
  walk(0, 0);
  if (over) return { abandoned: true, work };
  return { node: best!, work };
}

/** Whether any of `set` is taken. */
function anyTaken(set: readonly number[], taken: Uint8Array): boolean {
  for (const j of set) if (taken[j] === 1) return true;
  return false;
}

/**
 * A maximum-value matching of the first `k` nodes of `rows` to the sessions not `taken`, each row reading
 * its k most valuable free candidates (`byValue`: each node's candidates by value descending, ties: lower
 * kept index); column null past `limit` steps (a candidate read is a step, and the matching's inner
 * steps). Column entries are kept sessions, -1 = row empty.
 */
function matchRows(
  packed: PackedProblem,
  value: Float64Array,
  byValue: readonly number[][],
  rows: Int32Array,
  k: number,
  taken: Uint8Array,
  limit: number,
  scratch: AssignmentScratch,
): { column: Int32Array | null; value: number; steps: number } {
  const m = nodesKept(packed);
  if (k === 0) return { column: new Int32Array(0), value: 0, steps: 0 };
  // The columns: the union of every row's list, in first-seen order (columnOf is -1 outside a call).
  const columnOf = scratch.columnOfFor(sessionsKept(packed));
  const columns = scratch.columnsFor(k * k);
  let c = 0;
  let read = 0;
  for (let r = 0; r < k; r++) {
    const list = byValue[rows[r]!]!;
    let found = 0;
    for (let t = 0; t < list.length && found < k; t++) {
      read++;
      const j = list[t]!;
      if (taken[j] === 1) continue;
      found++;
      if (columnOf[j]! < 0) {
        columnOf[j] = c;
        columns[c++] = j;
      }
    }
  }
  for (let t = 0; t < c; t++) columnOf[columns[t]!] = -1;
  if (read + k * k * (c + k) > limit) return { column: null, value: 0, steps: read };
  const matrix = scratch.matrixFor(k * c);
  for (let r = 0; r < k; r++) {
    const b = rows[r]!;
    for (let t = 0; t < c; t++) {
      const v = value[columns[t]! * m + b]!;
      matrix[r * c + t] = v >= 0 ? v : Number.NEGATIVE_INFINITY;
    }
  }
  const match = maxAssignment(matrix, k, c, scratch.matching);
  const column = match.column;
  for (let r = 0; r < k; r++) if (column[r]! >= 0) column[r] = columns[column[r]!]!;
  return { column, value: match.value, steps: read + match.steps };
}

/**
 * Upper bounds on every completion of a partial choice over the multi nodes, the first t decided
 * (`choice`: a pattern's index, or -1 for "at most one"), `fixedValue` the decided patterns' value and
 * `taken` their sessions. A completion is worth its patterns plus a maximum matching of its rows (the
 * single nodes and the multi nodes at "at most one") to the sessions not taken:
 * - the single nodes' part matches distinct sessions, each worth at most its best value on a single node
 *   (`single`), so at most the sum of the k best such values among the free sessions (k single nodes);
 * - a decided multi node at "at most one" adds at most its most valuable free candidate;
 * - an undecided multi node adds at most the larger of its most valuable pattern and its most valuable
 *   free candidate (the sessions later patterns take only lower the rest).
 * Each read of a session is counted in `reads` (the caller charges them as steps).
 */
function completionBounds(
  packed: PackedProblem,
  value: Float64Array,
  multi: readonly number[],
  patterns: readonly (readonly (readonly number[])[])[],
  byValue: readonly (readonly number[])[],
): {
  of(taken: Uint8Array, fixedValue: number, t: number, choice: Int32Array): number;
  readonly patternValue: readonly Float64Array[];
  /** The sessions the last `of` read. */
  readonly reads: number;
} {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const isMulti = new Uint8Array(m);
  for (const b of multi) isMulti[b] = 1;
  const singles = m - multi.length;
  const single = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let top = 0;
    for (let b = 0; b < m; b++) if (isMulti[b] === 0 && value[j * m + b]! > top) top = value[j * m + b]!;
    single[j] = top;
  }
  const order = Array.from({ length: n }, (_, j) => j).sort((a, c) => single[c]! - single[a]! || a - c);
  const patternValue = patterns.map((list, t) =>
    Float64Array.from(list, (set) => set.reduce((sum, j) => sum + value[j * m + multi[t]!]!, 0)),
  );
  const topPattern = patternValue.map((list) => list.reduce((top, v) => Math.max(top, v), 0));
  const out = {
    patternValue,
    reads: 0,
    of(taken: Uint8Array, fixedValue: number, t: number, choice: Int32Array): number {
      let reads = 0;
      let sum = fixedValue;
      for (let u = 0; u < multi.length; u++) {
        if (u < t && choice[u]! >= 0) continue;
        const b = multi[u]!;
        const list = byValue[b]!;
        let free = 0;
        for (let x = 0; x < list.length; x++) {
          reads++;
          if (taken[list[x]!] === 1) continue;
          free = value[list[x]! * m + b]!;
          break;
        }
        sum += u < t ? free : Math.max(free, topPattern[u]!);
      }
      for (let x = 0, found = 0; x < n && found < singles && single[order[x]!]! > 0; x++) {
        reads++;
        const j = order[x]!;
        if (taken[j] === 1) continue;
        sum += single[j]!;
        found++;
      }
      out.reads = reads;
      return sum;
    },
  };
  return out;
}
