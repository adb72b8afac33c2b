import { describe, expect, it } from 'vitest';
import type { Snapshot } from './helpers/internals.js';
import {
  evaluate,
  InvalidTypeError,
  InvalidValueError,
  ReadinessPredictor,
  predictReport,
  validateSnapshot,
} from './helpers/internals.js';

const snapshot: Snapshot = { time: 10, nodes: [{ id: 'n', capacity: 100 }], sessions: [{ id: 's', tokens: 5 }] };

/** A persisted predictor with one tool history and a global history, as JSON text would give it back. */
function persisted(): any {
  const p = new ReadinessPredictor();
  p.observe({ name: 'bash', startedAt: 0, returnedAt: 2 });
  return JSON.parse(JSON.stringify(p.toJSON()));
}

describe('refusals name the field', () => {
  it.each([
    ['a number', 5],
    ['an array', []],
    ['null', null],
    ['a string', 'x'],
  ])('predictReport refuses options that are %s, naming options', (_name, options) => {
    expect(() => predictReport([], options as never)).toThrow(new InvalidTypeError('options must be an object'));
  });

  it('predictReport refuses a tick that is not finite, naming options.tick', () => {
    expect(() => predictReport([], { tick: Number.POSITIVE_INFINITY })).toThrow(
      new InvalidValueError('options.tick must be a finite number'),
    );
  });

  it.each([
    ['tools[0].durations', (j: any) => (j.tools[0].durations = 'x'), 'json.tools[0].durations must be an array'],
    ['global.durations', (j: any) => (j.global.durations = {}), 'json.global.durations must be an array'],
    ['probes', (j: any) => (j.probes = {}), 'json.probes must be an array'],
  ])('fromJSON refuses %s that is not an array', (_name, change, message) => {
    const j = persisted();
    change(j);
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(new InvalidTypeError(message));
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['an object without ready', {}],
    ['a function carrying a ready method', Object.assign(() => true, { ready: () => true })],
  ])('evaluate refuses a predictor that is %s, naming predictor.ready', (_name, predictor) => {
    expect(() => evaluate(snapshot, predictor as never)).toThrow(
      new InvalidTypeError('predictor.ready must be a function'),
    );
  });

  it.each([
    ['a number', 5],
    ['an array', []],
  ])('fromJSON refuses a state that is %s, naming it', (_name, json) => {
    expect(() => ReadinessPredictor.fromJSON(json)).toThrow(new InvalidTypeError('json must be an object'));
    expect(() => ReadinessPredictor.fromJSON(json, 'state')).toThrow(new InvalidTypeError('state must be an object'));
  });

  it.each([
    ['tools[0]', (j: any) => (j.tools[0] = 1), 'json.tools[0] must be an object'],
    ['global', (j: any) => (j.global = []), 'json.global must be an object'],
    ['probes[0]', (j: any) => (j.probes = ['x']), 'json.probes[0] must be an object'],
  ])('fromJSON refuses %s that is not a plain object, naming it', (_name, change, message) => {
    const j = persisted();
    change(j);
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(new InvalidTypeError(message));
  });

  it('fromJSON refuses more probe states than maxProbedCalls, naming json.probes', () => {
    const j = persisted();
    j.options.maxProbedCalls = 1;
    j.probes = [{}, {}];
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(
      new InvalidValueError('json.probes must have at most 1 entries (has 2)'),
    );
  });

  it('fromJSON refuses a probe opened before its call started, naming both fields', () => {
    const j = persisted();
    j.probes = [{ key: 'k', name: 'x', startedAt: 10, count: 1, openedAt: 5, until: 6, next: 12 }];
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(
      new InvalidValueError('json.probes[0].openedAt must not be before json.probes[0].startedAt'),
    );
  });

  it('observe refuses a session that is not a string, naming call.session', () => {
    const p = new ReadinessPredictor();
    expect(() => p.observe({ name: 'x', startedAt: 0, returnedAt: 1, session: 5 } as never)).toThrow(
      new InvalidTypeError('call.session must be a string'),
    );
  });

  it('validateSnapshot names an empty tool name by its path', () => {
    const bad = { time: 10, nodes: [], sessions: [{ id: 's', tokens: 1, tool: { name: '', startedAt: 0 } }] };
    expect(() => validateSnapshot(bad)).toThrow(
      new InvalidValueError('snapshot.sessions[0].tool.name must be a non-empty string'),
    );
    expect(() => new ReadinessPredictor().ready({ name: '', startedAt: 0 }, 1)).toThrow(
      new InvalidValueError('tool.name must be a non-empty string'),
    );
  });

  it('validateSnapshot names a reportedAt that is not a number by its path', () => {
    const bad = {
      time: 10,
      nodes: [],
      sessions: [{ id: 's', tokens: 1, tool: { name: 't', startedAt: 0, reportedAt: 'x' } }],
    };
    expect(() => validateSnapshot(bad)).toThrow(
      new InvalidTypeError('snapshot.sessions[0].tool.reportedAt must be a number'),
    );
  });

  it('fromJSON names an empty tool name by its path', () => {
    const j = persisted();
    j.tools[0].name = '';
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(
      new InvalidValueError('json.tools[0].name must be a non-empty string'),
    );
  });

  it('fromJSON names an unknown field of the global history by its path', () => {
    const j = persisted();
    j.global.extra = 1;
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(
      new InvalidValueError('json.global.extra is not a known field'),
    );
  });

  it('validateSnapshot names a node that is not an object by its path', () => {
    expect(() => validateSnapshot({ time: 0, nodes: [5], sessions: [] })).toThrow(
      new InvalidTypeError('snapshot.nodes[0] must be an object'),
    );
  });

  it.each(['startedAt', 'openedAt', 'until', 'next'])('fromJSON names a probe %s that is not a number', (field) => {
    const j = persisted();
    j.probes = [{ key: 'k', name: 'x', startedAt: 0, count: 1, openedAt: 5, until: 6, next: 12, [field]: 'x' }];
    expect(() => ReadinessPredictor.fromJSON(j)).toThrow(
      new InvalidTypeError(`json.probes[0].${field} must be a number`),
    );
  });

  it('the predictor names a delta that is not a number by its path', () => {
    expect(() => new ReadinessPredictor({ delta: 'x' as never })).toThrow(
      new InvalidTypeError('options.delta must be a number'),
    );
  });

  it('validateSnapshot names a cache node that is not a string by its path', () => {
    const bad = {
      time: 0,
      nodes: [{ id: 'n', capacity: 1 }],
      sessions: [{ id: 's', tokens: 1, cache: [{ node: 5 }] }],
    };
    expect(() => validateSnapshot(bad)).toThrow(
      new InvalidTypeError('snapshot.sessions[0].cache[0].node must be a string'),
    );
  });

  it('validateSnapshot names a tool start that is not a number by its path', () => {
    const bad = { time: 10, nodes: [], sessions: [{ id: 's', tokens: 1, tool: { name: 't', startedAt: 'x' } }] };
    expect(() => validateSnapshot(bad)).toThrow(
      new InvalidTypeError('snapshot.sessions[0].tool.startedAt must be a number'),
    );
  });
});
