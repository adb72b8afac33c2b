/**
 * The credit profiles of a packed problem by enumeration: every plan (each kept session on a candidate
 * node with room, or nowhere), the largest credit, and the per-node credited sets of the plans reaching it.
 */
import { nodesKept, type PackedProblem, sessionsKept } from '../helpers/internals.js';

/**
 * Every plan of the packed problem (each kept session on a candidate node with room, or nowhere), by
 * enumeration: the largest credit, and the per-node credited sets of the plans reaching it, each as a
 * canonical string.
 */
export function enumerateCreditProfiles(packed: PackedProblem): { credit: number; profiles: Set<string> } {
  const n = sessionsKept(packed);
  const m = nodesKept(packed);
  const used = new Float64Array(m);
  const on = new Int32Array(n).fill(-1);
  let credit = -1;
  let profiles = new Set<string>();
  const visit = (j: number, c: number): void => {
    if (j === n) {
      if (c < credit) return;
      if (c > credit) {
        credit = c;
        profiles = new Set();
      }
      profiles.add(
        profileOf(
          (b) => Array.from({ length: n }, (_, i) => i).filter((i) => on[i] === b && packed.credit[i * m + b]! > 0),
          m,
        ),
      );
      return;
    }
    visit(j + 1, c);
    for (let b = 0; b < m; b++) {
      if (packed.candidate[j * m + b] !== 1 || used[b]! + packed.qweight[j]! > packed.qcapacity[b]!) continue;
      used[b] = used[b]! + packed.qweight[j]!;
      on[j] = b;
      visit(j + 1, c + packed.credit[j * m + b]!);
      on[j] = -1;
      used[b] = used[b]! - packed.qweight[j]!;
    }
  };
  visit(0, 0);
  return { credit, profiles };
}

export function profileOf(setOf: (b: number) => readonly number[], m: number): string {
  return Array.from({ length: m }, (_, b) => [...setOf(b)].sort((x, y) => x - y).join(',')).join('|');
}
