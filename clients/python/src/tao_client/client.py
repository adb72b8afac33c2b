"""The synchronous client: one sidecar, one request at a time, over its stdio or a Unix socket."""
import itertools
import os
import select
import socket as _socket
import subprocess
import time
from typing import IO, Any, Dict, List, Optional, Sequence, Union

from . import protocol
from ._sidecar import DEFAULT_TIMEOUT, EXIT_TIMEOUT, START_TIMEOUT, check_timeout, remove_stale_socket, serve_command
from .errors import InvalidValueError, ProtocolError, SidecarExitedError, TaoTimeoutError
from .locate import TaoCommand
from .types import (
    CompletedCall,
    EvaluateOptions,
    Hello,
    Plan,
    PredictorJSON,
    Previous,
    Problem,
    Snapshot,
    SolveOptions,
    Stats,
    TickResult,
)


class _Lost(Exception):
    """The connection ended or broke (the sidecar exited, closed its end, or was reset)."""


class _Timeout(Exception):
    pass


class _Connection:
    """Lines to and from a file descriptor pair, each read bounded by a deadline."""

    def __init__(self, read_fd: int, write: Any, close: Any, busy_poll: float = 0.0) -> None:
        self._fd = read_fd
        self._busy_poll = busy_poll
        self._write = write
        self._close = close
        self._buffer = bytearray()

    def send(self, data: bytes) -> None:
        try:
            self._write(data)
        except (BrokenPipeError, ConnectionError, OSError, ValueError) as err:
            raise _Lost(str(err)) from None

    def read_line(self, deadline: Optional[float]) -> bytes:
        # Busy poll: the first `busy_poll` seconds are spent polling without blocking, so that a response
        # arriving then is read without this process being put to sleep and woken.
        spin_until = time.perf_counter() + self._busy_poll if self._busy_poll > 0 else 0.0
        while True:
            nl = self._buffer.find(b"\n")
            if nl != -1:
                line = bytes(self._buffer[:nl])
                del self._buffer[: nl + 1]
                return line
            if len(self._buffer) > protocol.MAX_RESPONSE_BYTES:
                raise ProtocolError(f"a response line is over {protocol.MAX_RESPONSE_BYTES} bytes")
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise _Timeout()
            try:
                ready: List[int] = []
                while spin_until > 0 and not ready:
                    ready, _, _ = select.select([self._fd], [], [], 0)
                    if time.perf_counter() >= spin_until:
                        spin_until = 0.0
                if not ready:
                    ready, _, _ = select.select([self._fd], [], [], wait)
                if not ready:
                    raise _Timeout()
                chunk = os.read(self._fd, 1 << 16)
            except (ConnectionError, OSError) as err:
                raise _Lost(str(err)) from None
            if not chunk:
                raise _Lost("the sidecar closed its end")
            self._buffer += chunk

    def close(self) -> None:
        try:
            self._close()
        except OSError:
            pass


class TaoClient:
    """A ``tao serve`` sidecar and the requests it answers.

    ``TaoClient()`` starts ``tao serve`` (found by ``find_tao``) and talks over its stdin and stdout.
    ``TaoClient(socket=PATH)`` starts ``tao serve --socket PATH`` and connects to it;
    ``TaoClient(socket=PATH, spawn=False)`` connects to a sidecar already serving PATH (and never shuts it
    down). At start the client says which protocol versions it speaks (``hello``) and refuses a sidecar
    that shares none (ProtocolError).

    ``timeout`` is the default seconds each call waits for its response (every method also takes
    ``timeout=``); a call that times out drops the connection and raises TaoTimeoutError. With ``restart``
    (the default), a sidecar found dead by a call is started again, the predictor state of the last
    ``save_predictor()``/``load_predictor()`` (or ``predictor=``) is loaded into it, and the call is sent
    once more; ``restarts`` counts how often. Errors are raised as typed exceptions carrying the sidecar's
    ``code`` (tao_client.errors).

    ``busy_poll`` (seconds, 0 to 0.1; 0 by default) is how long each call polls for its response before
    it lets the process sleep: a response within it is read without a wake-up, for that much CPU time per
    call (docs/sidecar.md#latency). The sidecar's own poll is ``args=["--busy-poll-us", "N"]``.
    """

    def __init__(
        self,
        tao: Optional[TaoCommand] = None,
        *,
        socket: Optional[Union[str, "os.PathLike[str]"]] = None,
        spawn: bool = True,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
        restart: bool = True,
        protocols: Sequence[int] = protocol.PROTOCOLS,
        predictor: Optional[PredictorJSON] = None,
        args: Sequence[str] = (),
        stderr: Optional[Union[int, IO[Any]]] = None,
        busy_poll: float = 0.0,
    ) -> None:
        self._busy_poll = protocol.check_busy_poll(busy_poll)
        self._socket_path = None if socket is None else os.fspath(socket)
        self._spawn = spawn
        self._timeout = check_timeout(timeout)
        self._restart = restart
        self._protocols = tuple(protocols)
        self._saved = predictor
        self._stderr = stderr
        self._command: Optional[List[str]] = serve_command(tao, self._socket_path, args) if spawn else None
        self._ids = itertools.count(1)
        self._proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]
        self._conn: Optional[_Connection] = None
        self._closed = False
        #: The last snapshot ticked (whole, or as made by tick_changes), and the id of the tick whose
        #: snapshot the sidecar holds for this connection (None: it holds none, or speaks protocol 1).
        self._last: Optional[Snapshot] = None
        self._base: Optional[int] = None
        self._rid = 0
        self.restarts = 0
        #: The sidecar's answer to ``hello`` at the last start (protocol chosen, version, ops, line cap).
        self.server: Hello
        self._start()

    # ------------------------------------------------------------------ ops

    def hello(self, *, timeout: Optional[float] = None) -> Hello:
        return self._call(protocol.hello(self._protocols), timeout)

    def tick(
        self,
        snapshot: Snapshot,
        *,
        evaluate_options: Optional[EvaluateOptions] = None,
        solve_options: Optional[SolveOptions] = None,
        previous: Optional[Previous] = None,
        timeout: Optional[float] = None,
    ) -> TickResult:
        """One scheduling period in one round trip: evaluate ``snapshot``, carry over what of ``previous`` holds, solve."""
        result = self._call(protocol.tick(snapshot, evaluate_options, solve_options, previous), timeout)
        self._ticked(snapshot)
        return result

    def tick_changes(
        self,
        time: float,
        *,
        sessions: Sequence[Any] = (),
        remove: Sequence[str] = (),
        nodes: Optional[Sequence[Any]] = None,
        evaluate_options: Optional[EvaluateOptions] = None,
        solve_options: Optional[SolveOptions] = None,
        previous: Optional[Previous] = None,
        timeout: Optional[float] = None,
    ) -> TickResult:
        """A tick of the last snapshot ticked, changed: at ``time``, with ``sessions`` replaced (by id) or
        added, the ids in ``remove`` gone, and ``nodes`` when given. Sends only the changes (a ``delta``)
        when the sidecar speaks protocol 2 and holds that snapshot; else the whole snapshot they make.
        The dictionaries passed are kept as they are (not copied): change a session by passing a new one."""
        if self._last is None:
            raise InvalidValueError("tick_changes needs a tick(snapshot) before it: there is no snapshot to change", op="tick")
        fields = protocol.changes(time, sessions, remove, nodes)
        snapshot = protocol.apply_changes(self._last, fields)  # type: ignore[arg-type]
        whole = protocol.tick(snapshot, evaluate_options, solve_options, previous)
        if self._base is None:
            result = self._call(whole, timeout)
        else:
            try:
                result = self._call(protocol.tick_delta(self._base, fields, evaluate_options, solve_options, previous), timeout)
            except InvalidValueError as err:
                if not protocol.stale_base(err):
                    raise
                result = self._call(whole, timeout)  # the sidecar restarted: it holds no snapshot
        self._ticked(snapshot)  # type: ignore[arg-type]
        return result

    def _ticked(self, snapshot: Snapshot) -> None:
        self._last = snapshot
        self._base = self._rid if self.server.get("protocol", 1) >= protocol.DELTA_PROTOCOL else None

    def solve(self, problem: Problem, options: Optional[SolveOptions] = None, *, timeout: Optional[float] = None) -> Plan:
        return self._call(protocol.solve(problem, options), timeout)

    def evaluate(self, snapshot: Snapshot, options: Optional[EvaluateOptions] = None, *, timeout: Optional[float] = None) -> Problem:
        return self._call(protocol.evaluate(snapshot, options), timeout)

    def observe(self, calls: Sequence[CompletedCall], *, wait: bool = True, timeout: Optional[float] = None) -> Optional[int]:
        """Feeds completed tool calls; returns how many were learned from, or None with ``wait=False``
        (a notification: nothing is answered, a refusal only shows on the sidecar's stderr)."""
        call = protocol.observe(calls)
        if wait:
            return self._call(call, timeout)
        self._notify(call)
        return None

    def wake(self) -> None:
        """Sends a blank line, which the sidecar answers with nothing: one started with ``--busy-poll-us``
        then polls for that long, so a tick sent within it is read without the sidecar waking up. Call it
        when you start building a tick."""
        self._ensure()
        assert self._conn is not None
        try:
            self._conn.send(b"\n")
        except _Lost:
            self._drop(graceful=False)  # the next call restarts the sidecar

    def save_predictor(self, *, timeout: Optional[float] = None) -> PredictorJSON:
        """The predictor's state; also kept here, to be restored into a restarted sidecar."""
        saved = self._call(protocol.save_predictor(), timeout)
        self._saved = saved
        return saved

    def load_predictor(self, predictor: PredictorJSON, *, timeout: Optional[float] = None) -> None:
        self._call(protocol.load_predictor(predictor), timeout)
        self._saved = predictor

    def stats(self, *, timeout: Optional[float] = None) -> Stats:
        return self._call(protocol.stats(), timeout)

    def close(self) -> Optional[int]:
        """Shuts a sidecar this client started down (``shutdown``, then waits); returns its exit code."""
        if self._closed:
            return None if self._proc is None else self._proc.returncode
        self._closed = True
        if self._conn is not None and self._spawn:
            try:
                self._exchange(protocol.shutdown(), EXIT_TIMEOUT)
            except Exception:  # noqa: BLE001 - closing: a dead or stuck sidecar is killed below
                pass
        return self._drop(graceful=True)

    def __enter__(self) -> "TaoClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plumbing

    def _start(self) -> None:
        self._base = None  # a new connection holds no snapshot
        deadline = time.monotonic() + START_TIMEOUT
        if self._socket_path is None:
            assert self._command is not None
            proc = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
            assert proc.stdin is not None and proc.stdout is not None
            self._proc = proc
            stdin, stdout = proc.stdin, proc.stdout

            def write(data: bytes) -> None:
                stdin.write(data)
                stdin.flush()

            # Responses are read from the descriptor itself (select + os.read), never through `stdout`'s buffer.
            def close() -> None:
                for stream in (stdin, stdout):
                    try:
                        stream.close()
                    except OSError:  # a flush into a pipe the sidecar closed
                        pass

            self._conn = _Connection(stdout.fileno(), write, close, self._busy_poll)
        else:
            if self._spawn:
                assert self._command is not None
                remove_stale_socket(self._socket_path)
                self._proc = subprocess.Popen(self._command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._stderr)
            sock = self._connect(deadline)
            self._conn = _Connection(sock.fileno(), sock.sendall, sock.close, self._busy_poll)
        try:
            hello = self._exchange(protocol.hello(self._protocols), max(0.001, deadline - time.monotonic()))
        except InvalidValueError as err:
            self._drop(graceful=False)
            raise ProtocolError(err.message, op="hello") from None
        except BaseException:
            self._drop(graceful=False)
            raise
        protocol.check_hello(hello, self._protocols)
        self.server = hello  # type: ignore[assignment]
        if self._saved is not None:
            self._exchange(protocol.load_predictor(self._saved), self._timeout)

    def _connect(self, deadline: float) -> _socket.socket:
        assert self._socket_path is not None
        while True:
            sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
            try:
                sock.connect(self._socket_path)
                return sock
            except OSError as err:
                sock.close()
                if self._proc is not None and self._proc.poll() is not None:
                    raise SidecarExitedError(f"tao serve --socket exited with code {self._proc.returncode} before accepting a connection") from None
                if not self._spawn or time.monotonic() > deadline:
                    raise SidecarExitedError(f"cannot connect to {self._socket_path}: {err}") from None
                time.sleep(0.02)

    def _drop(self, graceful: bool) -> Optional[int]:
        """Closes the connection and, for a sidecar this client started, waits for (or forces) its exit."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        try:
            if not graceful and proc.poll() is None:
                proc.terminate()  # SIGTERM: a socket server removes its socket file
            return proc.wait(timeout=EXIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()

    def _exchange(self, call: protocol.Call, timeout: Optional[float], rid: Optional[int] = None, data: Optional[bytes] = None) -> Any:
        assert self._conn is not None
        if rid is None or data is None:
            rid = next(self._ids)
            data = protocol.encode(call.op, rid, call.fields)
        deadline = None if timeout is None else time.monotonic() + timeout
        self._conn.send(data)
        try:
            line = self._conn.read_line(deadline)
        except _Timeout:
            self._drop(graceful=False)
            raise TaoTimeoutError(f"no response to {call.op} within {timeout} s; the connection was dropped", op=call.op) from None
        return call.result(protocol.decode(line, rid, call.op))

    def _ensure(self) -> None:
        if self._closed:
            raise SidecarExitedError("the client is closed")
        if self._conn is None:
            if not self._restart:
                raise SidecarExitedError("the sidecar is gone and restart=False")
            self.restarts += 1
            self._start()

    def _call(self, call: protocol.Call, timeout: Optional[float]) -> Any:
        timeout = self._timeout if timeout is None else check_timeout(timeout)
        rid = next(self._ids)
        data = protocol.encode(call.op, rid, call.fields)  # refuses NaN and the like before anything is sent
        self._rid = rid
        for attempt in (0, 1):
            self._ensure()
            try:
                return self._exchange(call, timeout, rid, data)
            except _Lost as err:
                self._drop(graceful=False)
                if not self._restart or attempt == 1:
                    raise SidecarExitedError(f"the sidecar went away during {call.op}: {err}", op=call.op) from None
        raise AssertionError("unreachable")

    def _notify(self, call: protocol.Call) -> None:
        data = protocol.encode(call.op, None, call.fields)
        for attempt in (0, 1):
            self._ensure()
            assert self._conn is not None
            try:
                self._conn.send(data)
                return
            except _Lost as err:
                self._drop(graceful=False)
                if not self._restart or attempt == 1:
                    raise SidecarExitedError(f"the sidecar went away during {call.op}: {err}", op=call.op) from None
