/**
 * The `tick` that carries a delta (protocol 2): applied to the connection's last snapshot it makes the
 * snapshot the scheduler would have sent whole (changed sessions in place, arrivals appended, departures
 * gone), checked against snapshots written out by hand; over pipes and a socket, a chain of delta ticks
 * answers the plans the library gives on the whole snapshots (a twin predictor); each connection keeps its
 * own base, a refused tick leaves it, and every bad delta is refused with a message naming the field. The
 * busy poll (`--busy-poll-us`) changes no answer. The end-to-end parts run the compiled CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyDelta,
  evaluate,
  loadSolver,
  ReadinessPredictor,
  type Plan,
  type Snapshot,
  type Solver,
} from './helpers/internals.js';
import { CLI, type Json, SidecarProcess, SocketClient, socketSidecar } from './helpers/sidecar.js';

const calls = [
  { name: 'bash', startedAt: 90, returnedAt: 90.6 },
  { name: 'bash', startedAt: 95, returnedAt: 95.7 },
];

const base: Snapshot = {
  time: 100,
  nodes: [
    { id: 'a', capacity: 6000 },
    { id: 'b', capacity: 4000 },
  ],
  sessions: [
    { id: 's1', tokens: 1500, tool: { name: 'bash', startedAt: 99.5 } },
    { id: 's2', tokens: 2500, cache: [{ node: 'b', tokens: 2000, observedAt: 95 }] },
    { id: 's3', tokens: 1200, tool: { name: 'bash', startedAt: 98 } },
    { id: 's4', tokens: 3100 },
  ],
};

describe('applyDelta', () => {
  it('makes the snapshot sent whole: changed sessions in place, arrivals appended in order, departures gone', () => {
    const s3 = { id: 's3', tokens: 1200, tool: { name: 'bash', startedAt: 98, returnedAt: 100.1 } };
    const made = applyDelta(
      {
        base: 7,
        time: 100.2,
        sessions: [{ id: 'n2', tokens: 10 }, s3, { id: 'n1', tokens: 20 }],
        remove: ['s2'],
      },
      { id: 7, snapshot: base },
    );
    expect(made).toEqual({
      time: 100.2,
      nodes: base.nodes,
      sessions: [
        { id: 's1', tokens: 1500, tool: { name: 'bash', startedAt: 99.5 } },
        { id: 's3', tokens: 1200, tool: { name: 'bash', startedAt: 98, returnedAt: 100.1 } },
        { id: 's4', tokens: 3100 },
        { id: 'n2', tokens: 10 },
        { id: 'n1', tokens: 20 },
      ],
    });
    const nodes = [{ id: 'a', capacity: 10 }];
    expect(applyDelta({ base: 'x', time: 101, nodes }, { id: 'x', snapshot: base })).toEqual({
      time: 101,
      nodes,
      sessions: base.sessions,
    });
  });

  const held = { id: 3, snapshot: base };
  for (const [label, delta, tickBase, message] of [
    ['not an object', [], held, 'delta must be an object'],
    ['an unknown field', { base: 3, time: 101, add: [] }, held, 'delta.add is not a known field'],
    ['no base', { time: 101 }, held, 'delta.base must be a string or a number (the id of the tick it applies to)'],
    [
      'no tick yet',
      { base: 3, time: 101 },
      undefined,
      'delta.base is 3, but no tick has been planned on this connection yet: send a snapshot',
    ],
    [
      'another base',
      { base: 2, time: 101 },
      held,
      'delta.base is 2, but the last tick planned on this connection is 3: send a snapshot',
    ],
    ['no time', { base: 3 }, held, 'delta.time must be a number'],
    [
      'a bad session',
      { base: 3, time: 101, sessions: [{ id: 'n', tokens: -1 }] },
      held,
      'delta.sessions[0].tokens must be an integer from 0 to 4294967295',
    ],
    [
      'a session twice',
      {
        base: 3,
        time: 101,
        sessions: [
          { id: 'n', tokens: 1 },
          { id: 'n', tokens: 2 },
        ],
      },
      held,
      'delta.sessions[1].id duplicates session "n"',
    ],
    ['a bad removal', { base: 3, time: 101, remove: [5] }, held, 'delta.remove[0] must be a string'],
    ['a removal twice', { base: 3, time: 101, remove: ['s1', 's1'] }, held, 'delta.remove[1] repeats session "s1"'],
    [
      'an unknown removal',
      { base: 3, time: 101, remove: ['s1', 'zz'] },
      held,
      'delta.remove[1] names session "zz", which the base snapshot does not hold',
    ],
    [
      'a session removed and sent',
      { base: 3, time: 101, sessions: [{ id: 's1', tokens: 1 }], remove: ['s1'] },
      held,
      'delta.sessions[0] is session "s1", which delta.remove also names',
    ],
  ] as const) {
    it(`refuses a delta with ${label}, naming the field`, () => {
      expect(() => applyDelta(delta, tickBase)).toThrow(message);
    });
  }
});

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

/** A chain of ticks 0.2 s apart, each whole and as the delta from the one before (written independently). */
function chain(): { snapshot: Snapshot; delta: Json }[] {
  const out: { snapshot: Snapshot; delta: Json }[] = [{ snapshot: base, delta: {} }];
  let s = base;
  for (let k = 1; k <= 8; k++) {
    const time = 100 + k / 5;
    const nodes = [
      { id: 'a', capacity: 6000 - 300 * k },
      { id: 'b', capacity: 4000 + 200 * (k % 3) },
    ];
    const leaving = s.sessions[k % s.sessions.length]!.id;
    const arriving = { id: `n${k}`, tokens: 700 + 150 * k, tool: { name: 'bash', startedAt: time - 0.1 } };
    const sessions = s.sessions.filter((x) => x.id !== leaving).map((x) => x);
    const changed = [];
    const running = sessions.findIndex((x) => x.tool !== undefined && x.tool.returnedAt === undefined);
    if (k % 2 === 0 && running !== -1) {
      const r = sessions[running]!;
      sessions[running] = { ...r, tool: { ...r.tool!, returnedAt: time - 0.05 } };
      changed.push(sessions[running]);
    }
    sessions.push(arriving);
    s = { time, nodes, sessions };
    out.push({ snapshot: s, delta: { time, nodes, sessions: [...changed, arriving], remove: [leaving] } });
  }
  return out;
}

/** The plan the library gives on a whole snapshot, with a predictor that saw `calls`. */
function libraryPlans(): Plan[] {
  const twin = new ReadinessPredictor();
  for (const c of calls) twin.observe(c);
  return chain().map((t) => solver.solve(evaluate(t.snapshot, twin)));
}

type Requester = { request(r: Json): Promise<Json> };

/** Ticks the chain through `c` as deltas; returns the plans. */
async function tickChain(c: Requester, prefix: string): Promise<Plan[]> {
  const plans: Plan[] = [];
  for (const [k, t] of chain().entries()) {
    const id = `${prefix}${k}`;
    const r =
      k === 0
        ? await c.request({ id, op: 'tick', snapshot: t.snapshot })
        : await c.request({ id, op: 'tick', delta: { base: `${prefix}${k - 1}`, ...t.delta } });
    expect(r, JSON.stringify(r)).toMatchObject({ id, op: 'tick', ok: true });
    plans.push(r.plan as Plan);
  }
  return plans;
}

const same = (got: Plan[], want: Plan[]): void => {
  expect(got.map((p) => p.assignments)).toEqual(want.map((p) => p.assignments));
  expect(got.map((p) => p.value)).toEqual(want.map((p) => p.value));
};

describe('tao serve: a tick carrying a delta', () => {
  it('over stdio: a chain of delta ticks answers the plans of the whole snapshots', async () => {
    const s = new SidecarProcess();
    await s.request({ id: 0, op: 'observe', calls });
    same(await tickChain(s, 't'), libraryPlans());
    await s.shutdown();
    expect(s.stderr).toBe('');
  });

  it('a refused tick leaves the base; a whole snapshot replaces it', async () => {
    const s = new SidecarProcess();
    const [t0, t1] = chain();
    await s.request({ id: 1, op: 'tick', snapshot: t0!.snapshot });
    const bad = await s.request({ id: 2, op: 'tick', delta: { base: 1, time: 99 } });
    expect(bad).toEqual({
      id: 2,
      op: 'tick',
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message: 'snapshot.sessions[0].tool.startedAt must not be after snapshot.time',
      },
    });
    expect(await s.request({ id: 3, op: 'tick', delta: { base: 1, ...t1!.delta } })).toMatchObject({ ok: true });
    expect(await s.request({ id: 4, op: 'tick', snapshot: base })).toMatchObject({ ok: true });
    expect(await s.request({ id: 5, op: 'tick', delta: { base: 3, time: 101 } })).toMatchObject({
      ok: false,
      error: { message: 'delta.base is 3, but the last tick planned on this connection is 4: send a snapshot' },
    });
    expect(await s.request({ id: 6, op: 'tick', snapshot: base, delta: { base: 4, time: 101 } })).toMatchObject({
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message: 'a tick carries a snapshot or a delta against the last one, not both',
      },
    });
    await s.shutdown();
  });

  it('over a socket: each connection keeps its own base, and a new one has none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tao-delta-'));
    try {
      const path = join(dir, 'tao.sock');
      const s = await socketSidecar(path);
      const a = await SocketClient.connect(path);
      const b = await SocketClient.connect(path);
      await a.request({ id: 0, op: 'observe', calls });
      // The two connections' requests interleave and use the same ids; b's snapshot has no tool call, so that
      // it leaves the shared predictor as it was.
      const other = { time: 200, nodes: base.nodes, sessions: [{ id: 'x', tokens: 100 }] };
      const plans: Plan[] = [];
      for (const [k, t] of chain().entries()) {
        const r =
          k === 0
            ? await a.request({ id: k, op: 'tick', snapshot: t.snapshot })
            : await a.request({ id: k, op: 'tick', delta: { base: k - 1, ...t.delta } });
        plans.push(r.plan as Plan);
        expect(await b.request({ id: k, op: 'tick', snapshot: other })).toMatchObject({ ok: true });
      }
      same(plans, libraryPlans());
      const last = await b.request({
        id: 9,
        op: 'tick',
        delta: { base: 8, time: 200.2, sessions: [{ id: 'y', tokens: 50 }] },
      });
      expect((last.plan as Plan).assignments.map((x) => x.session).sort()).toEqual(['x', 'y']);
      const c = await SocketClient.connect(path);
      expect(await c.request({ id: 9, op: 'tick', delta: { base: 8, time: 102 } })).toMatchObject({
        ok: false,
        error: { message: 'delta.base is 8, but no tick has been planned on this connection yet: send a snapshot' },
      });
      expect(await c.request({ id: 10, op: 'shutdown' })).toMatchObject({ ok: true });
      expect(await s.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tao serve --busy-poll-us', () => {
  it('answers the same while it polls, and blank lines (a wake-up) get no response', async () => {
    const s = new SidecarProcess(['--busy-poll-us', '2000']);
    await s.request({ id: 0, op: 'observe', calls });
    const plans: Plan[] = [];
    for (const [k, t] of chain().entries()) {
      s.write('\n');
      const r =
        k === 0
          ? await s.request({ id: k, op: 'tick', snapshot: t.snapshot })
          : await s.request({ id: k, op: 'tick', delta: { base: k - 1, ...t.delta } });
      plans.push(r.plan as Plan);
    }
    same(plans, libraryPlans());
    await s.shutdown();
    expect(s.stderr).toBe('');
  });

  for (const [value, rule] of [
    ['-1', 'an integer from 0 to 100000'],
    ['100001', 'an integer from 0 to 100000'],
    ['1.5', 'an integer'],
  ] as const) {
    it(`refuses --busy-poll-us ${value}: exit 2, one line`, () => {
      const r = spawnSync(process.execPath, [CLI, 'serve', '--busy-poll-us', value], { encoding: 'utf8', input: '' });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`tao serve: --busy-poll-us must be ${rule} (got "${value}")\n`);
    });
  }
});
