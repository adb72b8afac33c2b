/**
 * The bounded options: validation by field name, the preset, and the default being the paper's evaluation
 * bit for bit even on snapshots that carry the new fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidTypeError, InvalidValueError } from './helpers/internals.js';
import { boundedEvaluateOptions, defaultBoundedOptions } from './helpers/internals.js';
import { evaluate } from './helpers/internals.js';
import { resolveEvaluateOptions } from './helpers/internals.js';
import { ReadinessPredictor } from './helpers/internals.js';
import type { Snapshot, SnapshotSession } from './helpers/internals.js';
import { validateSnapshot } from './helpers/internals.js';
import * as root from '../src/index.js';

describe('bounded options', () => {
  it('are off by default and the preset turns every part on', () => {
    expect(defaultBoundedOptions).toEqual({
      waitThreshold: Infinity,
      waitServiceMultiple: Infinity,
      waitReserve: false,
      waitQuantum: 16,
      holdHorizon: Infinity,
      creditSource: 'observed',
    });
    expect(boundedEvaluateOptions.waitThreshold).toBeLessThan(Infinity);
    expect(boundedEvaluateOptions.holdHorizon).toBeLessThan(Infinity);
    expect(boundedEvaluateOptions.waitReserve).toBe(true);
    expect(boundedEvaluateOptions.creditSource).toBe('live');
    expect(Object.isFrozen(boundedEvaluateOptions)).toBe(true);
    expect(resolveEvaluateOptions(boundedEvaluateOptions)).toMatchObject(boundedEvaluateOptions);
    expect(root.boundedEvaluateOptions).toBe(boundedEvaluateOptions);
  });

  it.each([
    [{ waitThreshold: -1 }, InvalidValueError, 'options.waitThreshold must be a non-negative number or Infinity'],
    [{ waitThreshold: NaN }, InvalidValueError, 'options.waitThreshold must be a non-negative number or Infinity'],
    [{ waitThreshold: '5' }, InvalidTypeError, 'options.waitThreshold must be a number'],
    [
      { waitServiceMultiple: 0 },
      InvalidValueError,
      'options.waitServiceMultiple must be a positive number or Infinity',
    ],
    [{ waitReserve: 1 }, InvalidTypeError, 'options.waitReserve must be a boolean'],
    [{ waitQuantum: 0 }, InvalidValueError, 'options.waitQuantum must be a positive integer'],
    [{ waitQuantum: 2.5 }, InvalidValueError, 'options.waitQuantum must be a positive integer'],
    [{ holdHorizon: -0.5 }, InvalidValueError, 'options.holdHorizon must be a non-negative number or Infinity'],
    [{ holdHorizon: null }, InvalidTypeError, 'options.holdHorizon must be a number'],
    [{ creditSource: 'fresh' }, InvalidValueError, 'options.creditSource must be "observed" or "live"'],
    [{ creditSource: 1 }, InvalidTypeError, 'options.creditSource must be a string'],
    [{ waitthreshold: 5 }, InvalidValueError, 'options.waitthreshold is not a known option'],
  ] as const)('rejects %j with an exact message', (options, cls, message) => {
    expect(() => resolveEvaluateOptions(options as never)).toThrow(new cls(message));
    expect(() => evaluate({ time: 0, nodes: [], sessions: [] }, new ReadinessPredictor(), options as never)).toThrow(
      new cls(message),
    );
  });
});

describe('snapshot fields of the bounded options', () => {
  const base = (s: Partial<SnapshotSession>): Snapshot => ({
    time: 10,
    nodes: [{ id: 'n0', capacity: 100 }],
    sessions: [{ id: 'a', tokens: 5, ...s }],
  });

  it.each([
    [{ waitingSince: 11 }, InvalidValueError, 'snapshot.sessions[0].waitingSince must not be after snapshot.time'],
    [{ waitingSince: '1' }, InvalidTypeError, 'snapshot.sessions[0].waitingSince must be a number'],
    [{ waitingSince: Infinity }, InvalidValueError, 'snapshot.sessions[0].waitingSince must be a finite number'],
    [
      { waitingSince: 5, tool: { name: 'bash', startedAt: 1 } },
      InvalidValueError,
      'snapshot.sessions[0].waitingSince must be absent while snapshot.sessions[0].tool is running (no returnedAt)',
    ],
    [
      { waitingSince: 2, tool: { name: 'bash', startedAt: 1, returnedAt: 3 } },
      InvalidValueError,
      'snapshot.sessions[0].waitingSince must not be before snapshot.sessions[0].tool.returnedAt',
    ],
    [
      { expectedService: 0 },
      InvalidValueError,
      'snapshot.sessions[0].expectedService must be a positive finite number',
    ],
    [
      { expectedService: Infinity },
      InvalidValueError,
      'snapshot.sessions[0].expectedService must be a positive finite number',
    ],
    [
      { cache: [{ node: 'n0', tokens: 5, observedAt: 0, live: -1 }] },
      InvalidValueError,
      'snapshot.sessions[0].cache[0].live must be an integer from 0 to snapshot.sessions[0].cache[0].tokens (5)',
    ],
  ] as const)('rejects %j with an exact message', (fields, cls, message) => {
    expect(() => validateSnapshot(base(fields as never))).toThrow(new cls(message));
  });

  it('accepts the fields where they are consistent', () => {
    expect(() =>
      validateSnapshot(
        base({
          waitingSince: 4,
          expectedService: 0.5,
          tool: { name: 'bash', startedAt: 1, returnedAt: 4 },
          cache: [{ node: 'n0', tokens: 5, observedAt: 0, live: 5 }],
        }),
      ),
    ).not.toThrow();
  });
});

/** Random snapshots with every new field present. */
const snapshotArb: fc.Arbitrary<Snapshot> = fc
  .array(
    fc.record({
      tokens: fc.integer({ min: 0, max: 5_000 }),
      cached: fc.integer({ min: 0, max: 5_000 }),
      liveShare: fc.double({ min: 0, max: 1, noNaN: true }),
      observedAt: fc.integer({ min: 0, max: 60 }),
      tool: fc.constantFrom('none', 'running', 'returned'),
      started: fc.integer({ min: 0, max: 50 }),
      service: fc.double({ min: 0.1, max: 30, noNaN: true }),
    }),
    { maxLength: 12 },
  )
  .map((rows) => ({
    time: 60,
    nodes: [
      { id: 'n0', capacity: 8_000 },
      { id: 'n1', capacity: 3_000 },
    ],
    sessions: rows.map((r, i): SnapshotSession => {
      const s: SnapshotSession = {
        id: `s${i}`,
        tokens: r.tokens,
        expectedService: r.service,
        cache: [
          {
            node: i % 2 === 0 ? 'n0' : 'n1',
            tokens: r.cached,
            observedAt: r.observedAt,
            live: Math.floor(r.cached * r.liveShare),
          },
        ],
      };
      if (r.tool === 'none') s.waitingSince = r.started;
      if (r.tool === 'running') s.tool = { name: 'bash', startedAt: r.started };
      if (r.tool === 'returned') {
        s.tool = { name: 'bash', startedAt: r.started, returnedAt: r.started + 5 };
        s.waitingSince = r.started + 5;
      }
      return s;
    }),
  }));

/** The snapshot without the fields only the bounded options read. */
function paperCopy(snapshot: Snapshot): Snapshot {
  return {
    time: snapshot.time,
    nodes: snapshot.nodes,
    sessions: snapshot.sessions.map(({ waitingSince: _w, expectedService: _e, cache, ...rest }) =>
      cache === undefined ? rest : { ...rest, cache: cache.map(({ live: _l, ...obs }) => obs) },
    ),
  };
}

describe('default evaluation is the paper evaluation', () => {
  it('gives the same Problem with no options, explicit off options, and on a copy without the new fields', () => {
    fc.assert(
      fc.property(snapshotArb, (snapshot) => {
        const reference = evaluate(paperCopy(snapshot), new ReadinessPredictor());
        expect(evaluate(snapshot, new ReadinessPredictor())).toStrictEqual(reference);
        expect(evaluate(snapshot, new ReadinessPredictor(), { ...defaultBoundedOptions })).toStrictEqual(reference);
      }),
      { numRuns: 200 },
    );
  });

  it('differs once a part is on, so the comparison above can fail', () => {
    let differs = 0;
    fc.assert(
      fc.property(snapshotArb, (snapshot) => {
        const reference = evaluate(paperCopy(snapshot), new ReadinessPredictor());
        const on = evaluate(snapshot, new ReadinessPredictor(), boundedEvaluateOptions);
        if (JSON.stringify(on) !== JSON.stringify(reference)) differs++;
      }),
      { numRuns: 100 },
    );
    expect(differs).toBeGreaterThan(10);
  });
});
