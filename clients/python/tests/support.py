"""Test support: the client from the source tree, and the `tao` it drives (TAO_BIN, else the checkout's dist/cli.js)."""
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

TAO = os.environ.get("TAO_BIN") or str(ROOT / "dist" / "cli.js")
if not os.path.exists(TAO):
    raise SystemExit(f"{TAO} is missing: run `npm run build` first (or set TAO_BIN)")

CALLS = [
    {"name": "bash", "startedAt": 90, "returnedAt": 90.6},
    {"name": "bash", "startedAt": 95, "returnedAt": 95.7},
]


def snapshot(time=100.0, a_capacity=4096, extra=()):
    """Two nodes; s1's bash call has run 0.5 s and has 2048 cached tokens on b; s2 is new."""
    return {
        "time": time,
        "nodes": [{"id": "a", "capacity": a_capacity}, {"id": "b", "capacity": 2048}],
        "sessions": [
            {"id": "s1", "tokens": 1536, "tool": {"name": "bash", "startedAt": 99.5}, "cache": [{"node": "b", "tokens": 2048, "observedAt": 90}]},
            {"id": "s2", "tokens": 2560},
            *extra,
        ],
    }


def socket_path():
    """A fresh path for `tao serve --socket` (short: the platform caps it near 107 bytes)."""
    d = tempfile.mkdtemp(prefix="tao-py-")
    return os.path.join(d, "tao.sock")


BAD_PROBLEM = {"nodes": [], "sessions": [{"id": "s", "weight": 0, "tokens": 0, "ready": True}]}
BAD_MESSAGE = "problem.sessions[0].weight must be a positive integer <= 4294967295"


def wait_until_listening(path, timeout=30.0):
    """Blocks until a Unix socket at `path` accepts a connection: its file appears at bind, before listen."""
    import socket
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.connect(path)
            return
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)
