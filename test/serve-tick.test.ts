/**
 * The sidecar's one-round-trip tick, its protocol negotiation and its notifications, end to end over
 * pipes: a `tick` answers what `evaluate` then `solve` answer (checked against the library run on a twin
 * predictor); with `previous`, the carried prefix is the library's revalidation and the new plan is the
 * solve of what that prefix leaves, so both admitted together fit every node (checked by summing weights);
 * `hello` picks the highest shared version or refuses; an `observe` without an id is learned from and
 * answered by nothing, and its refusal is one stderr line. Runs the compiled CLI: needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SidecarProcess } from './helpers/sidecar.js';
import {
  evaluate,
  ReadinessPredictor,
  type CompletedCall,
  type Snapshot,
  revalidate,
  SIDECAR_PROTOCOL_VERSION,
  SIDECAR_PROTOCOL_VERSIONS,
  loadSolver,
  type Solver,
  type Assignment,
  type Plan,
  type Problem,
} from './helpers/internals.js';

const json = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

const calls: CompletedCall[] = [
  { name: 'bash', startedAt: 90, returnedAt: 90.6 },
  { name: 'bash', startedAt: 95, returnedAt: 95.7 },
];

/** Three nodes, eight sessions at 100 s: cached prefixes, running and finished tools, new sessions. */
function snapshotAt(time: number, edit: (s: Snapshot) => void = () => {}): Snapshot {
  const s: Snapshot = {
    time,
    nodes: [
      { id: 'a', capacity: 12_000 },
      { id: 'b', capacity: 9_000 },
      { id: 'c', capacity: 6_000 },
    ],
    sessions: Array.from({ length: 8 }, (_, i) => ({
      id: `s${i}`,
      tokens: 1000 + 700 * i,
      ...(i % 3 === 0 ? { tool: { name: 'bash', startedAt: 99.5 } } : {}),
      ...(i % 3 === 1 ? { tool: { name: 'pytest', startedAt: 80, returnedAt: 99 } } : {}),
      ...(i % 2 === 0 ? { cache: [{ node: ['a', 'b', 'c'][i % 3]!, tokens: 800 + 300 * i, observedAt: 95 }] } : {}),
    })),
  };
  edit(s);
  return s;
}

/** Tokens each node holds after admitting `assignments` of `problem`, beside its capacity. */
function load(problem: Problem, assignments: Assignment[]): Map<string, { used: number; capacity: number }> {
  const out = new Map(problem.nodes.map((n) => [n.id, { used: 0, capacity: n.capacity }]));
  const weight = new Map(problem.sessions.map((s) => [s.id, s.weight]));
  for (const a of assignments) out.get(a.node)!.used += weight.get(a.session)!;
  return out;
}

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});
afterAll(() => solver.close());

describe('tao serve: tick', () => {
  it('answers in one round trip the plan evaluate then solve give, with the signatures of its sessions', async () => {
    const s = new SidecarProcess();
    const twin = new ReadinessPredictor();
    await s.request({ id: 0, op: 'observe', calls });
    for (const c of calls) twin.observe(c);
    for (const [k, options] of [
      {},
      { evaluateOptions: { reserve: 256, halfLife: 4 }, solveOptions: { quantum: 64 } },
    ].entries()) {
      const snapshot = snapshotAt(100 + k);
      const r = await s.request({ id: `t${k}`, op: 'tick', snapshot, ...options });
      const problem = evaluate(snapshot, twin, options.evaluateOptions);
      const plan = solver.solve(problem, options.solveOptions);
      expect(r.op).toBe('tick');
      expect(r.ok).toBe(true);
      expect(r.revalidation).toBeUndefined();
      const got = r.plan as Plan;
      expect(got.status).toBe('optimal');
      expect(got.assignments).toEqual(plan.assignments);
      expect(got.value).toEqual(plan.value);
      expect(got.assignments.length).toBeGreaterThan(2);
      const signatures = Object.fromEntries(
        plan.assignments.map((a) => [a.session, problem.sessions.find((x) => x.id === a.session)!.signature]),
      );
      expect(r.signatures).toEqual(signatures);
    }
    expect(await s.request({ id: 'st', op: 'stats' })).toMatchObject({
      requests: { tick: 2, solve: 0, evaluate: 0 },
      solveMicros: { count: 2 },
    });
    await s.shutdown();
    expect(s.stderr).toBe('');
  });

  for (const [label, edit, outcome] of [
    ['nothing changed', () => {}, 'applied'],
    ['a node shrank', (x: Snapshot) => (x.nodes[0]!.capacity = 5_000), 'truncated'],
    ['a planned session changed', (x: Snapshot) => (x.sessions[1]!.tokens += 1), 'dropped'],
  ] as const) {
    it(`with previous (${label}): carries over the library's revalidated prefix and plans the rest around it`, async () => {
      const s = new SidecarProcess();
      const twin = new ReadinessPredictor();
      const first = await s.request({ id: 1, op: 'tick', snapshot: snapshotAt(100) });
      const firstProblem = evaluate(snapshotAt(100), twin);
      const previous = {
        assignments: (first.plan as Plan).assignments,
        signatures: first.signatures as Record<string, string | number>,
      };
      expect(previous.assignments.map((a) => a.session)).toContain('s1');

      const now = snapshotAt(101, edit);
      const second = await s.request({ id: 2, op: 'tick', snapshot: now, previous });
      const problem = evaluate(now, twin);
      const expected = revalidate(previous, firstProblem, problem);
      expect(expected.outcome).toBe(outcome);
      expect(second.revalidation).toEqual(json(expected));

      const applied = expected.applied;
      const taken = new Set(applied.map((a) => a.session));
      const rest = solver.solve({
        nodes: problem.nodes.map((n) => ({ id: n.id, capacity: expected.residual[n.id]! })),
        sessions: problem.sessions.filter((x) => !taken.has(x.id)),
      });
      const plan = second.plan as Plan;
      expect(plan.assignments).toEqual(rest.assignments);
      expect(plan.value).toEqual(rest.value);
      // Admitted together, the carried prefix and the new plan place each session once and fit every node.
      const all = [...applied, ...plan.assignments];
      expect(new Set(all.map((a) => a.session)).size).toBe(all.length);
      for (const [node, { used, capacity }] of load(problem, all)) expect(used, node).toBeLessThanOrEqual(capacity);
      expect(Object.keys(second.signatures as object).sort()).toEqual(all.map((a) => a.session).sort());
      await s.shutdown();
    });
  }
});

describe('tao serve: hello negotiates the protocol', () => {
  it('answers the highest version both sides list, and every version it speaks', async () => {
    const s = new SidecarProcess();
    const r = await s.request({
      id: 1,
      op: 'hello',
      protocols: [SIDECAR_PROTOCOL_VERSION + 5, SIDECAR_PROTOCOL_VERSION],
    });
    expect(r).toMatchObject({
      op: 'hello',
      ok: true,
      protocol: SIDECAR_PROTOCOL_VERSION,
      protocols: [...SIDECAR_PROTOCOL_VERSIONS],
    });
    const none = await s.request({ id: 2, op: 'hello', protocols: [SIDECAR_PROTOCOL_VERSION + 1] });
    expect(none).toEqual({
      id: 2,
      op: 'hello',
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_VALUE',
        message: `protocols shares no version with this sidecar: it speaks ${SIDECAR_PROTOCOL_VERSIONS.join(', ')}, the client ${SIDECAR_PROTOCOL_VERSION + 1}`,
      },
    });
    await s.shutdown();
  });
});

describe('tao serve: observe notifications', () => {
  it('learns from an observe without an id and answers nothing; a refused one is one stderr line and changes nothing', async () => {
    const s = new SidecarProcess();
    s.write(JSON.stringify({ op: 'observe', calls }) + '\n');
    s.write(JSON.stringify({ op: 'observe', calls: [{ name: 'bash', startedAt: 5, returnedAt: 4 }] }) + '\n');
    // The next line out answers the stats request: the notifications got no response.
    const stats = await s.request({ id: 'after', op: 'stats' });
    expect(stats).toMatchObject({
      id: 'after',
      requests: { observe: 2, invalid: 0 },
      errors: { ERR_TAO_INVALID_VALUE: 1 },
      predictor: { tools: 1, globalSamples: 2 },
    });
    await s.shutdown();
    expect(s.stderr).toBe(
      'tao serve: observe notification refused: ERR_TAO_INVALID_VALUE: calls[0].returnedAt must not be before calls[0].startedAt\n',
    );
  });

  it('any other op without an id is answered with an error naming the rule', async () => {
    const s = new SidecarProcess();
    s.write(JSON.stringify({ op: 'stats' }) + '\n');
    expect(await s.next()).toEqual({
      id: null,
      op: 'stats',
      ok: false,
      error: {
        code: 'ERR_TAO_INVALID_TYPE',
        message: 'id is missing (a string or a number; only observe may go without one)',
      },
    });
    await s.shutdown();
  });
});
