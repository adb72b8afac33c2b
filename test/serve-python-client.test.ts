/**
 * The Python example client (examples/python/tao_client.py) against the compiled sidecar: a session of
 * hello, solve, evaluate, observe, predictor save/load, stats and shutdown, and an error response raised
 * as TaoError with its code. Needs python3 on PATH; without it the test is reported as skipped.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers/sidecar.js';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;
const examples = fileURLToPath(new URL('../examples/python/', import.meta.url));

const script = String.raw`
import json, sys
sys.path.insert(0, sys.argv[1])
from tao_client import TaoSidecar, TaoError

out = {}
tao = TaoSidecar([sys.argv[2], sys.argv[3], "serve"])
out["protocol"] = tao.hello()["protocol"]
problem = {"nodes": [{"id": "node1", "capacity": 25600}, {"id": "node2", "capacity": 25088}],
           "sessions": [{"id": "P109", "weight": 9728, "tokens": 9216, "ready": True, "credit": {"node1": 8800, "node2": 256}},
                        {"id": "P89", "weight": 4608, "tokens": 4096, "ready": True, "credit": {"node2": 256}}]}
plan = tao.solve(problem, {"quantum": 512})
out["assignments"] = plan["assignments"]
out["credit"] = plan["value"]["credit"]
snapshot = {"time": 100, "nodes": [{"id": "a", "capacity": 20000}],
            "sessions": [{"id": "s1", "tokens": 3000, "tool": {"name": "bash", "startedAt": 99.5}}]}
out["ready_before"] = tao.evaluate(snapshot)["sessions"][0]["ready"]
out["learned"] = tao.observe([{"name": "bash", "startedAt": 90, "returnedAt": 90.6},
                              {"name": "bash", "startedAt": 95, "returnedAt": 95.7}])
out["ready_after"] = tao.evaluate(snapshot)["sessions"][0]["ready"]
saved = tao.save_predictor()
tao.load_predictor(saved)
out["round_trip"] = tao.save_predictor() == saved
try:
    tao.solve({"nodes": [], "sessions": [{"id": "s", "weight": 0, "tokens": 0, "ready": True}]})
except TaoError as e:
    out["error"] = [e.code, e.message]
out["solves"] = tao.stats()["requests"]["solve"]
out["exit"] = tao.close()
print(json.dumps(out))
`;

describe('examples/python/tao_client.py', () => {
  it.skipIf(!hasPython)('runs a sidecar session from Python', () => {
    const r = spawnSync('python3', ['-c', script, examples, process.execPath, CLI], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      protocol: 1,
      assignments: [
        { session: 'P109', node: 'node1' },
        { session: 'P89', node: 'node2' },
      ],
      credit: 9056,
      ready_before: false,
      learned: 2,
      ready_after: true,
      round_trip: true,
      error: ['ERR_TAO_INVALID_VALUE', 'problem.sessions[0].weight must be a positive integer <= 4294967295'],
      solves: 2,
      exit: 0,
    });
  });
});
