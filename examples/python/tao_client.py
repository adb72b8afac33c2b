"""A minimal client of the tao-solver sidecar (`tao serve`), standard library only.

    from tao_client import TaoSidecar

    with TaoSidecar(["npx", "tao", "serve"]) as tao:
        plan = tao.solve({"nodes": [{"id": "a", "capacity": 4096}],
                          "sessions": [{"id": "s", "weight": 1024, "tokens": 512, "ready": True}]})
        print(plan["assignments"])      # [{'session': 's', 'node': 'a'}]

One request per line on the sidecar's stdin, one response per line on its stdout (protocol 1, see
docs/sidecar.md). Requests are sent one at a time; an error response raises TaoError with its code.
"""
import itertools
import json
import subprocess


class TaoError(Exception):
    """An error response: `code` is stable (ERR_TAO_INVALID_TYPE, ERR_TAO_INVALID_VALUE, ...)."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class TaoSidecar:
    """Starts `command` (e.g. ["npx", "tao", "serve"]) and talks to it over its stdin and stdout."""

    def __init__(self, command, cwd=None):
        self._proc = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
        )
        self._ids = itertools.count(1)

    def request(self, op, **fields):
        """Sends one request and returns its response (a dict with "ok": true) or raises TaoError."""
        rid = next(self._ids)
        self._proc.stdin.write(json.dumps({"id": rid, "op": op, **fields}, separators=(",", ":")) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise EOFError("the sidecar closed its output")
        response = json.loads(line)
        if response["id"] != rid:
            raise RuntimeError(f"response id {response['id']!r} does not answer request {rid}")
        if not response["ok"]:
            raise TaoError(response["error"]["code"], response["error"]["message"])
        return response

    def hello(self):
        return self.request("hello")

    def solve(self, problem, options=None):
        fields = {"problem": problem} if options is None else {"problem": problem, "options": options}
        return self.request("solve", **fields)["plan"]

    def evaluate(self, snapshot, options=None):
        fields = {"snapshot": snapshot} if options is None else {"snapshot": snapshot, "options": options}
        return self.request("evaluate", **fields)["problem"]

    def observe(self, calls):
        return self.request("observe", calls=calls)["learned"]

    def save_predictor(self):
        return self.request("predictor.save")["predictor"]

    def load_predictor(self, predictor):
        self.request("predictor.load", predictor=predictor)

    def stats(self):
        return self.request("stats")

    def close(self):
        """Asks the sidecar to shut down and waits for it; returns its exit code."""
        if self._proc.poll() is None:
            self.request("shutdown")
            self._proc.stdin.close()
        return self._proc.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":
    import sys

    command = sys.argv[1:] or ["npx", "tao", "serve"]
    with TaoSidecar(command) as tao:
        print("protocol", tao.hello()["protocol"])
        problem = {
            "nodes": [{"id": "a", "capacity": 4096}, {"id": "b", "capacity": 2048}],
            "sessions": [
                {"id": "s1", "weight": 2048, "tokens": 1536, "ready": True, "credit": {"b": 1024}},
                {"id": "s2", "weight": 3072, "tokens": 2560, "ready": False},
            ],
        }
        plan = tao.solve(problem)
        print(plan["status"], plan["assignments"], plan["value"])
