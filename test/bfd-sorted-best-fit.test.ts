/**
 * BFD's placement keeps the nodes sorted by residual instead of scanning every node per session: it must
 * place exactly as the direct scan of the documented rule (least quantized capacity left, ties by higher
 * credit on the node, then lower original node index), with ties, eligibility limits and several quanta.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantizedCaseArb } from './helpers/arbitraries.js';
import {
  bfdPacked,
  resolveSolveOptions,
  bfdValueOrder,
  tokensOrder,
  bestCredits,
  packProblem,
  type PackedProblem,
  validateProblem,
} from './helpers/internals.js';

/** The rule scanned directly: every node per session. */
function scanBestFit(packed: PackedProblem, sequence: readonly number[]): Int32Array {
  const m = packed.nodeIndex.length;
  const residual = Array.from(packed.qcapacity);
  const out = new Int32Array(packed.sessionIndex.length).fill(-1);
  for (const j of sequence) {
    const w = packed.qweight[j]!;
    let pick = -1;
    for (let b = 0; b < m; b++) {
      if (packed.candidate[j * m + b] !== 1 || w > residual[b]!) continue;
      if (pick < 0) {
        pick = b;
        continue;
      }
      const [l, lp] = [residual[b]! - w, residual[pick]! - w];
      const [k, kp] = [packed.credit[j * m + b]!, packed.credit[j * m + pick]!];
      if (l < lp || (l === lp && (k > kp || (k === kp && packed.nodeIndex[b]! < packed.nodeIndex[pick]!)))) pick = b;
    }
    if (pick >= 0) {
      out[j] = pick;
      residual[pick] = residual[pick]! - w;
    }
  }
  return out;
}

describe('bfd placement on sorted residuals', () => {
  it('places every session where the direct scan places it, in both orders', () => {
    fc.assert(
      fc.property(
        quantizedCaseArb({ maxNodes: 7, maxSessions: 14, maxCapacity: 30, maxWeight: 10 }),
        ({ problem, quantum }) => {
          const packed = packProblem(validateProblem(problem), resolveSolveOptions({ quantum }));
          expect(bfdPacked(packed, 'value')).toEqual(scanBestFit(packed, bfdValueOrder(packed, bestCredits(packed))));
          expect(bfdPacked(packed, 'tokens')).toEqual(scanBestFit(packed, tokensOrder(packed)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('many nodes of equal capacity: ties go to higher credit, then the lower node index', () => {
    const nodes = Array.from({ length: 12 }, (_, b) => ({ id: `n${b}`, capacity: 10 }));
    const sessions = Array.from({ length: 30 }, (_, i) => ({
      id: `s${i}`,
      weight: 1 + (i % 4),
      tokens: i,
      ready: i % 2 === 0,
      ...(i % 5 === 0 ? { credit: { [`n${(i * 7) % 12}`]: 3 } } : {}),
      ...(i % 7 === 3 ? { eligible: [`n${i % 12}`, `n${(i + 5) % 12}`] } : {}),
    }));
    const packed = packProblem(validateProblem({ nodes, sessions }), resolveSolveOptions({ quantum: 1 }));
    expect(bfdPacked(packed, 'value')).toEqual(scanBestFit(packed, bfdValueOrder(packed, bestCredits(packed))));
  });
});
