import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaoDeps, type TaoDeps } from './helpers/internals.js';
import { createPolicy } from './helpers/internals.js';
import type { PolicyName } from './helpers/internals.js';
import { runOnce } from './helpers/internals.js';
import { parseSetting } from './helpers/internals.js';
import type { SimSetting } from './helpers/internals.js';
import { generateTask } from './helpers/internals.js';

let deps: TaoDeps;
beforeAll(async () => {
  deps = await loadTaoDeps();
});

/** The token ledger of tasks 0..n-1 computed from their specs alone, independently of any scheduling. */
function ledger(
  setting: SimSetting,
  seed: number,
  n: number,
): { prompt: number; decoded: number; requests: number; compactions: number } {
  let prompt = 0;
  let decoded = 0;
  let requests = 0;
  let compactions = 0;
  for (let i = 0; i < n; i++) {
    const t = generateTask(setting.workload, seed, i);
    let tokens = t.initialTokens;
    for (let j = 0; j < t.turns; j++) {
      prompt += tokens;
      requests++;
      decoded += t.output[j]!;
      tokens += t.output[j]!;
      if (t.toolKind[j]! < 0) continue;
      if (t.compactTo[j]! >= 0) {
        tokens = t.compactTo[j]!;
        compactions++;
      } else {
        tokens += t.result[j]!;
      }
    }
  }
  return { prompt, decoded, requests, compactions };
}

const SWE = parseSetting({
  name: 'swe-tight',
  extends: 'ds-64',
  workers: 40,
  tasks: 60,
  nodes: [
    { id: 'a', capacity: 140_000 },
    { id: 'b', capacity: 140_000 },
  ],
});

// Claude-Code-like tasks are long and compact at 160k: a small run still goes through compactions.
const CC = parseSetting({
  name: 'cc-small',
  extends: 'qwen-96',
  workers: 24,
  tasks: 24,
  workload: 'claude-code',
  nodes: [
    { id: 'a', capacity: 400_000 },
    { id: 'b', capacity: 400_000 },
  ],
});

describe('tokens are conserved', () => {
  const cases: [string, SimSetting, PolicyName][] = [
    ['swe tao', SWE, 'tao'],
    ['swe thunderagent', SWE, 'thunderagent'],
    ['swe dynamo', SWE, 'dynamo'],
    ['cc tao', CC, 'tao'],
    ['cc round-robin', CC, 'round-robin'],
  ];
  it.each(cases)(
    '%s: prompts, outputs and requests match the tasks; every prompt token is a hit or computed',
    (_label, setting, name) => {
      const seed = 4;
      const expected = ledger(setting, seed, setting.tasks);
      const r = runOnce(
        setting,
        createPolicy(name, { setting, deps }),
        seed,
        { tasks: setting.tasks },
        { checkInvariants: true },
      );
      const t = r.metrics.tokens;
      expect(r.metrics.requests).toBe(expected.requests);
      expect(t.prompt).toBe(expected.prompt);
      expect(t.decoded).toBe(expected.decoded);
      expect(t.hit + t.computed).toBe(t.prompt);
      expect(t.hit).toBeGreaterThan(0);
      expect(t.computed).toBeGreaterThan(0);
    },
  );

  it('the Claude-Code-like case does exercise compaction', () => {
    expect(ledger(CC, 4, CC.tasks).compactions).toBeGreaterThan(0);
  });
});
