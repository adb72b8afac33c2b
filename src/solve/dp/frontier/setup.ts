/**
 * What the frontier DP needs besides the packed problem, computed once per solve and shared by the WASM
 * frontier (assembly/frontier.ts) and its TypeScript mirror (src/solve/dp/frontier/mirror.ts), so the two
 * fold the same sessions in the same order over the same slots:
 *
 * - the DP order of the kept sessions: most valuable first (best credit, then ready, then tokens, all
 *   descending; ties by smaller weight, then input order). Valuable sessions early make the first
 *   layers' best states good incumbents, so the bound prunes from the start (fewer frontier states
 *   than weight-descending or input order on the recorded corpora);
 * - the slot order of the kept nodes, with interchangeable nodes contiguous. Two nodes are
 *   interchangeable when they have the same DP capacity and every kept session has the same candidacy
 *   and the same credit on both: swapping them maps every plan to a plan of the same value. The DP then
 *   keeps each class's usages sorted ascending (one canonical state per permutation) and the walk back
 *   assigns real nodes (see `assignClassNodes`);
 * - the indifferent tail: the longest suffix of that order made of sessions that are candidates on
 *   every node they fit on and have the same credit on all of them (`tailStart` = its first position;
 *   uncredited sessions sort last, so it is usually all of them). From that layer on, the
 *   remaining sessions value every node alike and only ask for room, so nodes are interchangeable up to
 *   their residual capacity; the DP then keeps one state per multiset of residuals (see
 *   src/solve/dp/frontier/mirror.ts). Sessions with no cache credit at all are indifferent: this is what
 *   helps packings of many uncredited sessions (synthetic 3-node ticks, 30% credited, quantum 1024:
 *   fallbacks 5.6% -> 1.4%);
 * - the incumbent: the best heuristic plan (src/solve/incumbent.ts), the value every kept state must be able
 *   to beat.
 */
import { bfdPacked } from '../../bfd.js';
import { frontierOrder } from '../../orders.js';
import { bestCredits, nodesKept, sessionsKept, type PackedProblem } from '../../pack.js';

/** Largest DP capacity (quanta) of one node the frontier accepts: usage fields are at most 31 bits. */
export const FRONTIER_MAX_CAPACITY = 0x7fff_ffff;

export interface FrontierSetup {
  /** DP position t -> kept session index. */
  readonly order: Int32Array;
  /** Slot s -> kept node index. Interchangeable nodes occupy contiguous slots. */
  readonly slotNode: Int32Array;
  /** Slot s -> the first slot of its class. */
  readonly classStart: Int32Array;
  /** Number of classes of interchangeable nodes. */
  readonly classes: number;
  /** First DP position of the indifferent tail (n when there is none). */
  readonly tailStart: number;
  /** Per DP position t: the incumbent's slot for session order[t], or -1 (not admitted). */
  readonly incumbentSlot: Int32Array;
}

/** Whether the frontier can represent the problem's usages (every DP capacity within 31 bits). */
export function frontierApplies(packed: PackedProblem): boolean {
  for (let b = 0; b < packed.capacity.length; b++) if (packed.capacity[b]! > FRONTIER_MAX_CAPACITY) return false;
  return true;
}

function interchangeable(packed: PackedProblem, a: number, b: number, n: number, m: number): boolean {
  if (packed.capacity[a] !== packed.capacity[b]) return false;
  for (let j = 0; j < n; j++) {
    const ea = j * m + a;
    const eb = j * m + b;
    if (packed.candidate[ea] !== packed.candidate[eb]) return false;
    if (packed.candidate[ea] === 1 && packed.credit[ea] !== packed.credit[eb]) return false;
  }
  return true;
}

/**
 * Session j is a candidate on every kept node it fits on (quantized weight within the node's quantized
 * capacity) and has the same credit on all of them: it values every node alike.
 */
export function indifferent(packed: PackedProblem, j: number, m: number): boolean {
  let credit = -1;
  for (let b = 0; b < m; b++) {
    const e = j * m + b;
    const fits = packed.qweight[j]! <= packed.qcapacity[b]!;
    if ((packed.candidate[e] === 1) !== fits) return false;
    if (!fits) continue;
    if (credit < 0) credit = packed.credit[e]!;
    else if (packed.credit[e] !== credit) return false;
  }
  return true;
}

/** Computes the DP order, the slot order with its classes, and the BFD incumbent. Pure. */
export function frontierSetup(packed: PackedProblem, incumbent: Int32Array = bfdPacked(packed)): FrontierSetup {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const tail = new Uint8Array(n);
  if (m > 1) for (let j = 0; j < n; j++) if (indifferent(packed, j, m)) tail[j] = 1;
  const order = Int32Array.from(frontierOrder(packed, bestCredits(packed)));

  const slotNode = new Int32Array(m);
  const classStart = new Int32Array(m);
  const placed = new Uint8Array(m);
  let slot = 0;
  let classes = 0;
  for (let b = 0; b < m; b++) {
    if (placed[b] === 1) continue;
    const start = slot;
    classes++;
    for (let c = b; c < m; c++) {
      if (placed[c] === 1 || (c !== b && !interchangeable(packed, b, c, n, m))) continue;
      placed[c] = 1;
      slotNode[slot] = c;
      classStart[slot] = start;
      slot++;
    }
  }

  const slotOf = new Int32Array(m);
  for (let s = 0; s < m; s++) slotOf[slotNode[s]!] = s;
  const incumbentSlot = new Int32Array(n);
  for (let t = 0; t < n; t++) {
    const b = incumbent[order[t]!]!;
    incumbentSlot[t] = b < 0 ? -1 : slotOf[b]!;
  }
  // The tail is the longest suffix of the order made of indifferent sessions (uncredited ones sort last).
  let tailStart = n;
  while (tailStart > 0 && tail[order[tailStart - 1]!] === 1) tailStart--;
  return { order, slotNode, classStart, classes, tailStart, incumbentSlot };
}

/**
 * Maps a frontier answer (per DP position: the slot the session was placed in, -1 = not admitted) to
 * kept nodes: per kept session, its kept node or -1.
 */
export function slotsToNodes(setup: FrontierSetup, slotByPosition: Int32Array): Int32Array {
  const out = new Int32Array(setup.order.length).fill(-1);
  for (let t = 0; t < slotByPosition.length; t++) {
    const s = slotByPosition[t]!;
    if (s >= 0) out[setup.order[t]!] = setup.slotNode[s]!;
  }
  return out;
}

/** Grid cells per node of the frontier's credit tables (see CreditTable); a shared fact of the mirror and the kernel. */
export const CREDIT_GRID = 256;
/** Most entries of all credit tables of one run; past it the grid is made coarser. */
export const CREDIT_TABLE_MAX_ENTRIES = 1 << 20;

/** The grid of a run's credit tables: CREDIT_GRID, coarser when the tables would pass CREDIT_TABLE_MAX_ENTRIES (at least 1). */
export function creditGrid(rows: number): number {
  return Math.max(1, Math.min(CREDIT_GRID, Math.floor(CREDIT_TABLE_MAX_ENTRIES / Math.max(1, rows)) - 1));
}

/** Rows of a run's credit tables: per kept node, its credited candidates plus one. */
export function creditTableRows(packed: PackedProblem): number {
  const m = nodesKept(packed);
  let rows = m;
  for (let e = 0; e < packed.credit.length; e++) if (packed.candidate[e] === 1 && packed.credit[e]! > 0) rows++;
  return rows;
}
