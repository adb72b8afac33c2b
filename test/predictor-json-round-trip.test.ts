import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { ToolCall } from './helpers/internals.js';

/** A predictor with several tool histories, a wrapped window, an evicted tool and open probes. */
function busy(): ReadinessPredictor {
  const p = new ReadinessPredictor({ window: 5, maxTools: 3, delta: 0.1 });
  let t = 0;
  for (let i = 0; i < 40; i++) {
    // 12 calls each of bash, edit, grep, then ci, which evicts bash (the least recently observed).
    const name = i < 36 ? ['bash', 'edit', 'grep'][i % 3]! : 'ci';
    const d = 0.1 + ((i * 7919) % 113) / 17; // irregular durations, 0.1 to 6.7 s
    p.observe({ name, startedAt: t, returnedAt: t + d });
    t += 1.3;
  }
  p.ready({ name: 'bash', startedAt: 0 }, 60, 's1');
  p.ready({ name: 'grep', startedAt: 10 }, 45, 's2');
  return p;
}

const queries: [ToolCall, number, string][] = [];
for (let k = 0; k < 200; k++) {
  // Elapsed times from 0 to 60 s: calls not yet due, due within the horizon, and overdue.
  const now = 40 + k * 0.7;
  queries.push([
    { name: ['bash', 'edit', 'grep', 'ci', 'new'][k % 5]!, startedAt: now - (k % 41) * 1.5 },
    now,
    `s${k % 3}`,
  ]);
}
queries.push([{ name: 'bash', startedAt: 0 }, 60.5, 's1']);
queries.push([{ name: 'grep', startedAt: 10 }, 100, 's2']);

describe('predictor JSON round trip', () => {
  it('restores a predictor that gives identical predictions', () => {
    const original = busy();
    expect(original.toJSON().tools.map((t) => [t.name, t.durations.length])).toEqual([
      ['edit', 5],
      ['grep', 5],
      ['ci', 4],
    ]);
    const restored = ReadinessPredictor.fromJSON(JSON.parse(JSON.stringify(original)));
    expect(restored.toJSON()).toEqual(original.toJSON());
    expect(restored.options).toEqual(original.options);
    // Same queries in the same order (probes change state): bit-identical answers.
    const seen = new Set<string>();
    for (const [tool, now, session] of queries) {
      const expected = original.predict(tool, now, session);
      expect(restored.predict(tool, now, session)).toEqual(expected);
      seen.add(expected.source);
      if (expected.probing) seen.add('probing');
      if (expected.ready && !expected.probing) seen.add('due');
    }
    // The queries reach every path the state holds.
    expect([...seen].sort()).toEqual(['due', 'global-history', 'probing', 'tool-history']);
    expect(restored.toJSON()).toEqual(original.toJSON());
  });

  it('restores an empty predictor', () => {
    const p = new ReadinessPredictor({ horizon: 2 });
    const json = p.toJSON();
    expect(json.global).toEqual({ durations: [], lastSampleAt: null });
    const r = ReadinessPredictor.fromJSON(JSON.parse(JSON.stringify(json)));
    expect(r.options.probeWindow).toBe(2);
    expect(r.predict({ name: 'x', startedAt: 0 }, 0)).toEqual(p.predict({ name: 'x', startedAt: 0 }, 0));
  });

  it('keeps learning after a restore the way the original does', () => {
    const a = busy();
    const b = ReadinessPredictor.fromJSON(JSON.parse(JSON.stringify(a)));
    for (const p of [a, b]) {
      p.observe({ name: 'zip', startedAt: 100, returnedAt: 101 }); // evicts the least recent tool
      p.observe({ name: 'bash', startedAt: 100, returnedAt: 103 });
    }
    expect(b.toJSON()).toEqual(a.toJSON());
  });

  type Case = [string, (j: any) => void, typeof InvalidTypeError | typeof InvalidValueError, string];
  const cases: Case[] = [
    ['a wrong format tag', (j) => (j.format = 'x'), InvalidValueError, 'json.format must be "tao-readiness-predictor"'],
    ['a future version', (j) => (j.version = 2), InvalidValueError, 'json.version must be 1'],
    ['an unknown field', (j) => (j.extra = 1), InvalidValueError, 'json.extra is not a known field'],
    ['bad options', (j) => (j.options.delta = 2), InvalidValueError, 'json.options.delta must be a number in (0, 1)'],
    ['tools not an array', (j) => (j.tools = {}), InvalidTypeError, 'json.tools must be an array'],
    [
      'more tools than maxTools',
      (j) => (j.options.maxTools = 2),
      InvalidValueError,
      'json.tools must have at most 2 entries (has 3)',
    ],
    [
      'a duplicate tool',
      (j) => (j.tools[1].name = j.tools[0].name),
      InvalidValueError,
      'json.tools[1].name duplicates tool "edit"',
    ],
    [
      'a NaN duration',
      (j) => (j.tools[0].durations[3] = NaN),
      InvalidValueError,
      'json.tools[0].durations[3] must be a finite number',
    ],
    [
      'a string duration',
      (j) => (j.tools[0].durations[3] = '1'),
      InvalidTypeError,
      'json.tools[0].durations[3] must be a number',
    ],
    [
      'a negative duration',
      (j) => (j.global.durations[0] = -1),
      InvalidValueError,
      'json.global.durations[0] must be a non-negative duration',
    ],
    [
      'more durations than the window',
      (j) => j.tools[0].durations.push(1),
      InvalidValueError,
      'json.tools[0].durations must have from 1 to 5 entries (has 6)',
    ],
    [
      'an empty tool history',
      (j) => (j.tools[0].durations = []),
      InvalidValueError,
      'json.tools[0].durations must have from 1 to 5 entries (has 0)',
    ],
    [
      'a null lastSampleAt with durations',
      (j) => (j.global.lastSampleAt = null),
      InvalidValueError,
      'json.global.lastSampleAt must be a finite number when there are durations',
    ],
    [
      'a probe over maxProbes',
      (j) => (j.probes[0].count = 4),
      InvalidValueError,
      'json.probes[0].count must be an integer from 1 to 3',
    ],
    [
      'a probe closing before it opens',
      (j) => (j.probes[1].until = j.probes[1].openedAt),
      InvalidValueError,
      'json.probes[1].until must be after json.probes[1].openedAt',
    ],
    [
      'a duplicate probe key',
      (j) => (j.probes[1].key = j.probes[0].key),
      InvalidValueError,
      'json.probes[1].key duplicates a probed call',
    ],
    [
      'a probe without its call',
      (j) => delete j.probes[0].startedAt,
      InvalidTypeError,
      'json.probes[0].startedAt must be a number',
    ],
    [
      'a probe with an empty tool name',
      (j) => (j.probes[0].name = ''),
      InvalidValueError,
      'json.probes[0].name must be a non-empty string',
    ],
  ];

  it.each(cases)('rejects %s with a typed error naming the path', (_name, mutate, cls, message) => {
    const json = JSON.parse(JSON.stringify(busy()));
    mutate(json);
    expect(() => ReadinessPredictor.fromJSON(json)).toThrow(cls);
    expect(() => ReadinessPredictor.fromJSON(json)).toThrow(new cls(message));
  });

  it('rejects a non-object', () => {
    expect(() => ReadinessPredictor.fromJSON('{}')).toThrow(new InvalidTypeError('json must be an object'));
  });
});
