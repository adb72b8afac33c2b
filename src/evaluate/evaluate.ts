/**
 * Evaluation (paper section 2): turns a raw Snapshot into the solver's Problem, one value triple
 * (credit, ready, tokens) per eligible (session, node) pair, plus each session's admission weight and
 * state signature.
 */
import { InvalidTypeError, InvalidValueError } from '../errors.js';
import { resolveEvaluateOptions, type EvaluateOptions } from './options.js';
import { waitBoundOn } from './bounded-options.js';
import { holdEligible, remainingOf } from './hold.js';
import { boostStarved } from './wait-boost.js';
import { MAX_U32 } from '../limits.js';
import type { ReadinessSource } from './readiness/predictor.js';
import { sessionSignature } from './signature.js';
import type { Snapshot } from './snapshot.js';
import { indexSnapshot } from './validate-snapshot.js';
import type { Problem, ProblemSession } from '../types.js';

/**
 * Decayed cache credit k = round(tokens * 2^(-age / halfLife)) to the nearest multiple of `unit` (halves
 * up). A negative age (an observation stamped after now) counts as 0: no decay, never growth.
 */
export function decayCredit(tokens: number, age: number, halfLife: number, unit: number): number {
  const x = age > 0 ? tokens * Math.pow(2, -age / halfLife) : tokens;
  return unit === 1 ? Math.round(x) : Math.round(x / unit) * unit;
}

/**
 * Evaluates `snapshot` at `snapshot.time`:
 * - `credit[node]`: `decayCredit` of each cache observation on a node the session is eligible on; zero
 *   credits and credit on ineligible nodes are left out (both mean 0 to the solver);
 * - `ready`: true for a session without a tool call (new) or whose call returned, else
 *   `predictor.ready(tool, time, session.id)`;
 * - `weight`: tokens + reserve (the session's own, else `options.reserve`);
 * - `eligible`: passed through (same array);
 * - `signature`: `sessionSignature`, see src/evaluate/signature.ts for what it covers.
 * The Problem's `nodes` is `snapshot.nodes` itself. The result always passes `validateProblem`.
 *
 * Beyond the paper, each off by default (README, "Beyond the paper"): `creditSource: 'live'` caps each credit
 * by the observation's `live` prefix; a finite `holdHorizon` makes a session whose tool still runs
 * ineligible on the nodes where holding it does not pay (see hold.ts; `eligible` is then a new array);
 * a finite `waitThreshold` or `waitServiceMultiple` boosts the credit of starved sessions (wait-boost.ts).
 * The signature is computed from the snapshot's session, before these.
 *
 * Throws InvalidTypeError / InvalidValueError naming the path for a malformed snapshot or options, and
 * for a session whose weight (tokens + reserve) is 0 or above 2^32 - 1, or whose boosted credit would be.
 */
export function evaluate(snapshot: Snapshot, predictor: ReadinessSource, options?: EvaluateOptions): Problem {
  const o = resolveEvaluateOptions(options);
  const nodeIndex = indexSnapshot(snapshot, 'snapshot');
  if (typeof predictor !== 'object' || predictor === null || typeof predictor.ready !== 'function') {
    throw new InvalidTypeError('predictor.ready must be a function');
  }
  const hold = o.holdHorizon !== Number.POSITIVE_INFINITY;
  if (hold && typeof predictor.remaining !== 'function') {
    throw new InvalidTypeError('predictor.remaining must be a function when options.holdHorizon is finite');
  }
  const live = o.creditSource === 'live';
  const { time, sessions } = snapshot;
  const { halfLife, creditUnit, reserve: defaultReserve } = o;
  const out: ProblemSession[] = new Array<ProblemSession>(sessions.length);
  // eligibleStamp[b] === i + 1 marks node b eligible for session i: one allocation per call.
  const eligibleStamp = new Int32Array(snapshot.nodes.length);

  for (let i = 0; i < sessions.length; i++) {
    const s = sessions[i]!;
    const weight = s.tokens + (s.reserve ?? defaultReserve);
    if (weight < 1 || weight > MAX_U32) {
      throw new InvalidValueError(
        `snapshot.sessions[${i}].tokens + reserve must be from 1 to ${MAX_U32} (is ${weight})`,
      );
    }
    const tool = s.tool;
    let ready = true;
    if (tool !== undefined && tool.returnedAt === undefined) {
      const r: unknown = predictor.ready(tool, time, s.id);
      if (typeof r !== 'boolean') throw new InvalidTypeError('predictor.ready must return a boolean');
      ready = r;
    }

    // Null prototype: a node id such as "__proto__" must become an own key, not a prototype change.
    let credit: Record<string, number> | undefined;
    const cache = s.cache;
    if (cache !== undefined && cache.length > 0) {
      const eligible = s.eligible;
      if (eligible !== undefined) {
        for (let e = 0; e < eligible.length; e++) eligibleStamp[nodeIndex.get(eligible[e]!)!] = i + 1;
      }
      for (let c = 0; c < cache.length; c++) {
        const obs = cache[c]!;
        if (eligible !== undefined && eligibleStamp[nodeIndex.get(obs.node)!] !== i + 1) continue;
        let k = decayCredit(obs.tokens, time - obs.observedAt, halfLife, creditUnit);
        if (live && obs.live !== undefined) k = Math.min(k, decayCredit(obs.live, 0, halfLife, creditUnit));
        if (k > MAX_U32) {
          // Only rounding up a near-maximal, undecayed count can get here; the solver's credits are u32.
          throw new InvalidValueError(
            `snapshot.sessions[${i}].cache[${c}].tokens rounds to ${k} at creditUnit ${creditUnit}, above ${MAX_U32}`,
          );
        }
        if (k > 0) {
          credit ??= Object.create(null) as Record<string, number>;
          credit[obs.node] = k;
        }
      }
    }

    let eligible = s.eligible;
    if (hold && tool !== undefined && tool.returnedAt === undefined) {
      const remaining = remainingOf(predictor, tool, time, s.id);
      const held = holdEligible(snapshot.nodes, eligible, credit, weight, remaining, o.holdHorizon);
      eligible = held.eligible;
      credit = held.credit;
    }

    const ps: ProblemSession = {
      id: s.id,
      weight,
      tokens: s.tokens,
      ready,
      signature: sessionSignature(s, weight, ready),
    };
    if (credit !== undefined) ps.credit = credit;
    if (eligible !== undefined) ps.eligible = eligible;
    out[i] = ps;
  }
  if (waitBoundOn(o)) boostStarved(snapshot, out, o);
  return { nodes: snapshot.nodes, sessions: out };
}
