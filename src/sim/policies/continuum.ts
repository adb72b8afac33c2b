/**
 * `continuum`: Continuum (Li et al., 2025, "Continuum: Efficient and Robust Multi-Turn LLM Agent Scheduling
 * with KV Cache Time-to-Live", arXiv 2511.02230) as a baseline, under the sticky lifecycle (policy.ts).
 *
 * What the paper does (docs/recommended-policy.md, "Continuum"): when a request ends in a tool call, its KV
 * cache is pinned in GPU memory for a time-to-live tau chosen from the tool's duration distribution
 * (empirical, per tool, from the calls seen so far; an exponential assumption at cold start), the re-prefill
 * (reload) cost and the queueing delay an eviction would add; when the tool returns within tau the next
 * request continues on its cache, and when tau expires the pin is dropped. The waiting queue is served
 * program-level first come first served: by the arrival time of the program (agent task), not of the request,
 * and when memory is short the scheduler unpins pinned caches to make room.
 *
 * What is modelled here:
 * - Pin = the session keeps its admission (its tokens + `reserve`) on its node through the tool; expiry = the
 *   pause of the sticky lifecycle, at the first tick at or after tool start + tau (ticks every `period`).
 * - tau maximises U(tau) = F(tau) * B - (w / C) * E[min(T, tau)] (`continuumTtl`): F the tool's duration
 *   distribution, B = w / rho + q the seconds an eviction costs the program (re-prefill of its w tokens at the
 *   node's idle prefill rate rho, plus q, the mean scheduler wait of the last returning requests), and the
 *   second term the node-seconds the pin withholds (w / C of the node's capacity C while it lasts). F is the
 *   empirical distribution of the last `historyLimit` durations of the same tool (name and command) once it
 *   has `minSamples`, else an exponential of the mean of every duration seen, for which U is
 *   (1 - exp(-tau / m)) * (B - w m / C): pin (for `coldStartMultiple` means) iff B > w m / C, else 0. No
 *   duration seen yet: tau = 0.
 * - Admission: pooled sessions whose request is issued (a new task, or its tool returned after its pin
 *   expired), by program arrival (task index: tasks start in index order), onto the node caching most of its
 *   context among those with room (ties: the most room, then the lower index); the first that fits nowhere
 *   stops the pass (head-of-line FCFS, as vLLM's waiting queue).
 * - Memory pressure, after each tick: if the head fits nowhere, pinned sessions are unpinned on the node
 *   where that frees room for it with the fewest unpins, latest expiry first; a node over capacity (sticky
 *   holds follow the context) unpins its pinned sessions latest expiry first, then marks its reasoning
 *   sessions youngest program first to pause at their next tool boundary.
 * Not modelled: CPU offloading (a reload from DRAM instead of a re-prefill), the paper's exact price of
 * memory against latency (its text gives the shape of the objective; the weighting here is stated above),
 * and its single-engine setting: across nodes the router is the cache-affinity rule above.
 */
import { prefillRate } from '../engine.js';
import type { CompletedToolCall } from '../../evaluate/readiness/predictor.js';
import type { ToolCall } from '../../evaluate/snapshot.js';
import type {
  Admission,
  AdmittedSession,
  Policy,
  PolicyStats,
  PooledSession,
  Rebalance,
  SchedulerView,
} from '../policy.js';
import type { SimSetting } from '../settings.js';

export interface ContinuumParams {
  /** Seconds between checks of the pins' expiry (Continuum checks every engine step). @default 0.1 */
  readonly period: number;
  /** Tokens a session holds beyond its context while admitted. @default 512 (TAO's default reserve) */
  readonly reserve: number;
  /** Durations kept per tool for the empirical distribution. @default 256 */
  readonly historyLimit: number;
  /** Durations of a tool needed before its empirical distribution is used. @default 8 */
  readonly minSamples: number;
  /** Cold start: a pin that pays lasts this many mean durations. @default 3 */
  readonly coldStartMultiple: number;
  /** Returning requests whose scheduler wait makes up the queueing term q. @default 256 */
  readonly waitWindow: number;
}

export const defaultContinuumParams: Readonly<ContinuumParams> = Object.freeze({
  period: 0.1,
  reserve: 512,
  historyLimit: 256,
  minSamples: 8,
  coldStartMultiple: 3,
  waitWindow: 256,
});

/** What the TTL of one pin is decided from. */
export interface TtlInput {
  /** The session's weight w (tokens + reserve). */
  readonly weight: number;
  /** The node's capacity C, tokens. */
  readonly capacity: number;
  /** The node's idle prefill rate rho, tokens per second. */
  readonly prefillRate: number;
  /** Mean scheduler wait q of a returning request, seconds. */
  readonly queueing: number;
  /** Durations of this tool seen so far (any order). */
  readonly samples: readonly number[];
  /** Mean duration of every tool call seen so far; NaN when none. */
  readonly overallMean: number;
  readonly minSamples: number;
  readonly coldStartMultiple: number;
}

/**
 * The time-to-live of a pin: the tau maximising F(tau) * B - (w / C) * E[min(T, tau)] (see the file
 * comment). Empirical F: the maximum is at 0 or at a sample (between samples F is flat and the cost grows);
 * ties go to the shorter tau.
 */
export function continuumTtl(x: TtlInput): number {
  const benefit = x.weight / x.prefillRate + x.queueing;
  const share = x.weight / x.capacity;
  if (x.samples.length < x.minSamples) {
    const m = x.overallMean;
    if (!(m > 0)) return 0;
    return benefit > share * m ? x.coldStartMultiple * m : 0;
  }
  const t = [...x.samples].sort((a, b) => a - b);
  const n = t.length;
  let best = 0;
  let bestU = 0;
  let prefix = 0;
  for (let j = 0; j < n; j++) {
    prefix += t[j]!;
    // Among equal samples only the last one has the full jump of F.
    if (j + 1 < n && t[j + 1] === t[j]) continue;
    const f = (j + 1) / n;
    const expectedHeld = (prefix + (n - j - 1) * t[j]!) / n;
    const u = f * benefit - share * expectedHeld;
    if (u > bestU) {
      bestU = u;
      best = t[j]!;
    }
  }
  return best;
}

/** The key a tool's durations are kept under: its name and command. */
function toolKey(name: string, command: string | undefined): string {
  return command === undefined ? name : `${name}\u0000${command}`;
}

export function createContinuum(setting: SimSetting, params: ContinuumParams = defaultContinuumParams): Policy {
  const stats: PolicyStats = { solverCalls: 0, solverFallbacks: 0 };
  const rho = prefillRate(setting.engine);
  const history = new Map<string, number[]>();
  let durationSum = 0;
  let durationCount = 0;
  const waits: number[] = [];
  let waitSum = 0;
  /** Pins by session index: the tool start they belong to and their expiry. */
  const pins = new Map<number, { startedAt: number; expiresAt: number }>();

  function queueing(): number {
    return waits.length === 0 ? 0 : waitSum / waits.length;
  }

  function ttlOf(a: AdmittedSession, tool: ToolCall, capacity: number): number {
    return continuumTtl({
      weight: a.tokens + params.reserve,
      capacity,
      prefillRate: rho,
      queueing: queueing(),
      samples: history.get(toolKey(tool.name, tool.command)) ?? [],
      overallMean: durationCount > 0 ? durationSum / durationCount : Number.NaN,
      minSamples: params.minSamples,
      coldStartMultiple: params.coldStartMultiple,
    });
  }

  /** Pooled sessions with an issued request, by program arrival. */
  function queue(view: SchedulerView): PooledSession[] {
    return view.pool.filter((s) => s.pending).sort((a, b) => a.index - b.index);
  }

  function schedule(view: SchedulerView): readonly Admission[] {
    const room = view.nodes.map((n) => n.capacity - n.held);
    const out: Admission[] = [];
    for (const s of queue(view)) {
      const weight = s.tokens + params.reserve;
      let best = -1;
      let bestCached = -1;
      for (const n of view.nodes) {
        if (room[n.index]! < weight) continue;
        const cached = view.cachedTokens(s.index, n.index);
        if (best < 0 || cached > bestCached || (cached === bestCached && room[n.index]! > room[best]!)) {
          best = n.index;
          bestCached = cached;
        }
      }
      // Head-of-line: the first program that fits nowhere waits, and so does everything behind it.
      if (best < 0) break;
      room[best] = room[best]! - weight;
      out.push({ session: s.index, node: best, weight });
      if (s.step > 0) {
        const wait = view.time - s.issuedAt;
        waits.push(wait);
        waitSum += wait;
        if (waits.length > params.waitWindow) waitSum -= waits.shift()!;
      }
    }
    return out;
  }

  function rebalance(view: SchedulerView): Rebalance {
    const pause: number[] = [];
    const mark: number[] = [];
    const paused = new Set<number>();
    const byNode: AdmittedSession[][] = view.nodes.map(() => []);
    for (const a of view.admitted) byNode[a.node]!.push(a);
    // New pins, and expired ones.
    for (const a of view.admitted) {
      if (!a.acting || a.tool === undefined) {
        pins.delete(a.index);
        continue;
      }
      let pin = pins.get(a.index);
      if (pin === undefined || pin.startedAt !== a.tool.startedAt) {
        const capacity = view.nodes[a.node]!.capacity;
        pin = { startedAt: a.tool.startedAt, expiresAt: a.tool.startedAt + ttlOf(a, a.tool, capacity) };
        pins.set(a.index, pin);
      }
      if (view.time >= pin.expiresAt) {
        pause.push(a.index);
        paused.add(a.index);
      }
    }
    const held = view.nodes.map((n) => n.held);
    for (const i of paused) {
      const a = view.admitted.find((x) => x.index === i)!;
      held[a.node] = held[a.node]! - a.held;
    }
    /** Pinned sessions of a node still admitted, latest expiry first (ties: younger program first). */
    const pinnedOn = (node: number): AdmittedSession[] =>
      byNode[node]!.filter((a) => a.acting && !paused.has(a.index)).sort(
        (x, y) => pins.get(y.index)!.expiresAt - pins.get(x.index)!.expiresAt || y.index - x.index,
      );
    const unpin = (a: AdmittedSession): void => {
      pause.push(a.index);
      paused.add(a.index);
      held[a.node] = held[a.node]! - a.held;
    };
    // A node over capacity gives up its pins, then marks its youngest reasoning programs.
    for (const n of view.nodes) {
      if (held[n.index]! <= n.capacity) continue;
      for (const a of pinnedOn(n.index)) {
        if (held[n.index]! <= n.capacity) break;
        unpin(a);
      }
      const reasoning = byNode[n.index]!.filter((a) => !a.acting && !a.marked).sort((x, y) => y.index - x.index);
      let over = held[n.index]! - n.capacity;
      for (const a of reasoning) {
        if (over <= 0) break;
        mark.push(a.index);
        over -= a.held;
      }
    }
    // The head of the queue fits nowhere: unpin on the node where the fewest unpins make room for it.
    const head = queue(view)[0];
    if (head !== undefined) {
      const weight = head.tokens + params.reserve;
      if (!view.nodes.some((n) => n.capacity - held[n.index]! >= weight)) {
        let bestNode = -1;
        let bestCount = Number.POSITIVE_INFINITY;
        for (const n of view.nodes) {
          let free = n.capacity - held[n.index]!;
          let count = 0;
          for (const a of pinnedOn(n.index)) {
            if (free >= weight) break;
            free += a.held;
            count++;
          }
          if (free >= weight && count < bestCount) {
            bestCount = count;
            bestNode = n.index;
          }
        }
        if (bestNode >= 0) {
          for (const a of pinnedOn(bestNode)) {
            if (view.nodes[bestNode]!.capacity - held[bestNode]! >= weight) break;
            unpin(a);
          }
        }
      }
    }
    for (const i of paused) pins.delete(i);
    return { pause, mark };
  }

  return {
    name: 'continuum',
    lifecycle: 'sticky',
    stickyReserve: params.reserve,
    period: params.period,
    reactive: true,
    stats,
    schedule: (view) => schedule(view),
    rebalance,
    toolReturned(call: CompletedToolCall): void {
      const d = call.returnedAt - call.startedAt;
      const key = toolKey(call.name, call.command);
      let h = history.get(key);
      if (h === undefined) {
        h = [];
        history.set(key, h);
      }
      h.push(d);
      if (h.length > params.historyLimit) h.shift();
      durationSum += d;
      durationCount++;
    },
  } satisfies Policy;
}
