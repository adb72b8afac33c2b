import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { EngineNode } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import type { PolicyName } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { Session } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import { DEEPSEEK_ENGINE } from './helpers/internals.js';
import { generateTask, SWE_BENCH_PROFILE } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

/** A session whose current request has `prompt` tokens and `output` tokens to generate. */
function request(index: number, prompt: number, output: number): Session {
  const s = new Session(generateTask(SWE_BENCH_PROFILE, 1, index), 1, 0);
  s.prompt = prompt;
  s.output = output;
  s.requestOutput = output;
  s.tokens = prompt;
  s.node = 0;
  return s;
}

describe('recompute preemption', () => {
  it('a node that runs out of blocks preempts the most recently scheduled request and caches its prefix', () => {
    // 10 blocks of 16 tokens; three prompts of 40 tokens take 3 blocks each, one block is left for growth.
    const node = new EngineNode(0, 'n0', 160, DEEPSEEK_ENGINE);
    const [a, b, c] = [request(0, 40, 100), request(1, 40, 100), request(2, 40, 100)];
    for (const s of [a, b, c]) {
      expect(node.allocate(s)).toBe(0);
      s.state = 'prefill';
      node.enqueuePrefill(s);
    }
    expect(node.blocks.pinned).toBe(9);
    // Run the engine event by event until something is preempted.
    let victims: Session[] = [];
    for (let guard = 0; guard < 100 && victims.length === 0; guard++) {
      const next = node.reschedule();
      expect(Number.isFinite(next)).toBe(true);
      node.advance(next);
      for (let p = node.takeFinishedPrefill(); p !== undefined; p = node.takeFinishedPrefill()) {
        p.state = 'decode';
        node.startDecode(p);
      }
      victims = node.grow();
    }
    expect(victims).toEqual([c]);
    expect(c.state).toBe('queued');
    expect(c.preempted).toBe(true);
    expect(node.waitingHead()).toBe(c);
    expect(node.preemptions).toBe(1);
    // c had generated some tokens: they are now part of the prompt to recompute, and out of its output.
    const generated = c.prompt - 40;
    expect(generated).toBeGreaterThan(0);
    expect(c.output).toBe(100 - generated);
    // Its full blocks stay cached (evictable), the survivors' blocks are pinned and within the pool.
    expect(node.cachedTokensOf(c)).toBe(Math.floor(c.prompt / 16) * 16);
    expect(a.blocks + b.blocks).toBe(node.blocks.pinned);
    expect(node.blocks.pinned + node.blocks.cached).toBeLessThanOrEqual(10);
    // The restart reuses the cached prefix.
    node.advance(node.reschedule());
    expect(node.allocate(c)).toBeLessThan(0); // not enough room while a and b decode
  });

  // Nodes far below the sessions' demand with engines that admit on prompt blocks only: they preempt.
  const TIGHT = parseSetting({
    name: 'preempting',
    extends: 'ds-64',
    workers: 24,
    tasks: 40,
    nodes: [
      { id: 'a', capacity: 50_000 },
      { id: 'b', capacity: 50_000 },
    ],
    workload: { extends: 'swe-bench', contextLimit: 40_000 },
  });

  it.each(['round-robin', 'cache-aware', 'tao', 'thunderagent'] as PolicyName[])(
    '%s: under preemption tokens are conserved and every task completes exactly once',
    (name) => {
      const seed = 5;
      let decoded = 0;
      let requests = 0;
      for (let i = 0; i < TIGHT.tasks; i++) {
        const t = generateTask(TIGHT.workload, seed, i);
        requests += t.turns;
        for (let j = 0; j < t.turns; j++) decoded += t.output[j]!;
      }
      const r = runOnce(
        TIGHT,
        createPolicy(name, { setting: TIGHT, deps }),
        seed,
        { tasks: TIGHT.tasks },
        { checkInvariants: true },
      );
      expect([...r.completedTasks].sort((x, y) => x - y)).toEqual(Array.from({ length: TIGHT.tasks }, (_, i) => i));
      expect(r.metrics.requests).toBe(requests);
      expect(r.metrics.tokens.decoded).toBe(decoded);
      if (name === 'round-robin' || name === 'cache-aware') {
        expect(r.metrics.preemptions).toBeGreaterThan(0);
        expect(r.metrics.tokens.recomputed).toBeGreaterThan(0);
      }
    },
  );
});
