/**
 * The per-session state signature the asynchronous planner compares between the snapshot a plan was solved
 * on and the live state (paper section 4): a plan that selected a session whose signature changed is
 * dropped.
 *
 * What goes in: every input of the DP for that session except its cache credit, i.e.
 * - `tokens` (the t component) and the admission `weight` (tokens + reserve): the capacity every other
 *   placement of the plan was packed around;
 * - the eligibility set (order-insensitive; absent = "every node" is distinct from any explicit list);
 * - the tool call's identity, `name` and `startedAt`: a session that finished one turn and waits on the
 *   next call is a different decision even if its numbers happen to match;
 * - whether the call has returned and the evaluated readiness `ready`: r is binary, a flip is outside the
 *   linear value drift the loss bound assumes, so it invalidates the plan rather than eroding it.
 *
 * What stays out: cache credit. It decays continuously (it would change at every tick and drop every plan)
 * and new observations only move value, never feasibility; both are the value-drift term of the bound.
 * Likewise `deadline`, `progress` and `command` matter only through `ready`.
 *
 * The digest is a 53-bit integer (two 32-bit lanes, cyrb53 finalizer) computed without allocating, so
 * `evaluate` can produce one per session every scheduling period. It is deterministic across processes
 * (no seed), so a worker and the main thread agree. Collisions (probability ~2^-53 per comparison) would
 * only keep a plan that should have been dropped, which revalidation's capacity check still guards.
 */
import type { SnapshotSession } from './snapshot.js';

let h1 = 0;
let h2 = 0;
// Scratch for reading a float64's two 32-bit words.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

function mix(word: number): void {
  h1 = Math.imul(h1 ^ word, 2654435761);
  h2 = Math.imul(h2 ^ word, 1597334677);
}

function mixNumber(x: number): void {
  f64[0] = x === 0 ? 0 : x; // -0 and +0 are the same time
  mix(u32[0]!);
  mix(u32[1]!);
}

function mixString(s: string): void {
  mix(s.length);
  for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i));
}

// Lanes of one string hashed on its own, for the order-insensitive eligibility sum.
let s1 = 0;
let s2 = 0;
function hashAlone(s: string): void {
  let a = 0x9e3779b9 ^ s.length;
  let b = 0x85ebca6b ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 2654435761);
    b = Math.imul(b ^ c, 1597334677);
  }
  s1 = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  s2 = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
}

// Field tags keep fields from running into each other (e.g. an absent tool vs a tool named "").
const TAG_TOKENS = 1;
const TAG_WEIGHT = 2;
const TAG_ALL_NODES = 3;
const TAG_ELIGIBLE = 4;
const TAG_NO_TOOL = 5;
const TAG_TOOL = 6;
const TAG_READY = 7;

/**
 * The signature of a validated session evaluated with admission `weight` and readiness `ready`; see the
 * file comment for what it covers and why.
 */
export function sessionSignature(session: SnapshotSession, weight: number, ready: boolean): number {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  mix(TAG_TOKENS);
  mix(session.tokens);
  mix(TAG_WEIGHT);
  mix(weight);
  const eligible = session.eligible;
  if (eligible === undefined) {
    mix(TAG_ALL_NODES);
  } else {
    // Sum of per-id hashes: the same set in any order gives the same value (ids are unique).
    let a = 0;
    let b = 0;
    for (let e = 0; e < eligible.length; e++) {
      hashAlone(eligible[e]!);
      a = (a + s1) | 0;
      b = (b + s2) | 0;
    }
    mix(TAG_ELIGIBLE);
    mix(eligible.length);
    mix(a);
    mix(b);
  }
  const tool = session.tool;
  if (tool === undefined) {
    mix(TAG_NO_TOOL);
  } else {
    mix(TAG_TOOL);
    mixString(tool.name);
    mixNumber(tool.startedAt);
    mix(tool.returnedAt === undefined ? 0 : 1);
  }
  mix(TAG_READY);
  mix(ready ? 1 : 0);
  let x = h1;
  let y = h2;
  x = Math.imul(x ^ (x >>> 16), 2246822507);
  x ^= Math.imul(y ^ (y >>> 13), 3266489909);
  y = Math.imul(y ^ (y >>> 16), 2246822507);
  y ^= Math.imul(x ^ (x >>> 13), 3266489909);
  return 4294967296 * (2097151 & y) + (x >>> 0);
}
