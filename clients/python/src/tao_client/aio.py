"""The asyncio client: the same operations as TaoClient, awaitable, and safe to call from many tasks at
once (requests are written in call order and pipelined; the sidecar answers in order).
"""
import asyncio
import collections
import itertools
import os
import time
from typing import IO, Any, Deque, List, Optional, Sequence, Tuple, Union

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
    """The connection ended or broke."""


class _Connection:
    """One sidecar connection: the writer, the responses awaited in order, and the task reading them."""

    def __init__(self, proc: Optional[asyncio.subprocess.Process], reader: asyncio.StreamReader, writer: Any) -> None:
        self.proc = proc
        self.writer = writer
        self.pending: Deque["asyncio.Future[bytes]"] = collections.deque()
        self.lost: Optional[str] = None
        self.task = asyncio.ensure_future(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        reason = "the sidecar closed its end"
        try:
            while True:
                line = await reader.readline()
                if not line.endswith(b"\n"):
                    break
                if not self.pending:
                    reason = f"a response line answers no request: {line[:200]!r}"
                    break
                future = self.pending.popleft()
                if not future.done():
                    future.set_result(line[:-1])
        except (ConnectionError, OSError, ValueError, asyncio.LimitOverrunError) as err:
            reason = str(err)
        finally:
            self.fail(reason)

    def fail(self, reason: str) -> None:
        self.lost = self.lost or reason
        while self.pending:
            future = self.pending.popleft()
            if not future.done():
                future.set_exception(_Lost(self.lost))

    def send(self, data: bytes, future: Optional["asyncio.Future[bytes]"]) -> None:
        """Queues one line (and the future its response resolves, unless it is a notification)."""
        if self.lost is not None:
            raise _Lost(self.lost)
        if future is not None:
            self.pending.append(future)
        self.writer.write(data)

    async def drain(self) -> None:
        try:
            await self.writer.drain()
        except (ConnectionError, OSError) as err:
            raise _Lost(str(err)) from None

    async def close(self, graceful: bool) -> Optional[int]:
        self.fail("the connection was closed")
        try:
            self.writer.close()
        except (ConnectionError, OSError, RuntimeError):
            pass
        self.task.cancel()
        proc = self.proc
        if proc is None:
            return None
        try:
            if not graceful and proc.returncode is None:
                proc.terminate()  # SIGTERM: a socket server removes its socket file
            return await asyncio.wait_for(proc.wait(), EXIT_TIMEOUT)
        except asyncio.TimeoutError:
            proc.kill()
            return await proc.wait()


class AsyncTaoClient:
    """A ``tao serve`` sidecar driven from asyncio; the options are TaoClient's.

    ``async with AsyncTaoClient() as tao:`` starts it and checks the protocol (``hello``); ``await
    tao.close()`` shuts down a sidecar this client started. Concurrent calls are pipelined on one
    connection. A call that times out drops the connection (calls in flight on it fail with it); a sidecar
    found dead is restarted with the last saved predictor state and the call sent once more.
    ``busy_poll`` keeps the event loop polling (``await asyncio.sleep(0)``) for that many seconds while a
    response is awaited, before it lets the loop sleep in its selector; other tasks run meanwhile.
    ``tick_changes`` is TaoClient's, and refuses to run while another tick is awaited.
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
        self._conn: Optional[_Connection] = None
        self._lock: Optional[asyncio.Lock] = None
        self._started = False
        self._closed = False
        #: As TaoClient's: the last snapshot ticked, the tick whose snapshot the sidecar holds, and the
        #: connection that holds it.
        self._last: Optional[Snapshot] = None
        self._base: Optional[Tuple[int, _Connection]] = None
        self._ticks_awaited = 0
        self.restarts = 0
        #: The sidecar's answer to ``hello`` at the last start.
        self.server: Hello

    async def start(self) -> "AsyncTaoClient":
        if not self._started:
            self._started = True
            self._lock = asyncio.Lock()
            async with self._lock:
                await self._open()
        return self

    async def __aenter__(self) -> "AsyncTaoClient":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ ops

    async def hello(self, *, timeout: Optional[float] = None) -> Hello:
        return await self._call(protocol.hello(self._protocols), timeout)

    async def tick(
        self,
        snapshot: Snapshot,
        *,
        evaluate_options: Optional[EvaluateOptions] = None,
        solve_options: Optional[SolveOptions] = None,
        previous: Optional[Previous] = None,
        timeout: Optional[float] = None,
    ) -> TickResult:
        return await self._tick(protocol.tick(snapshot, evaluate_options, solve_options, previous), snapshot, timeout)

    async def tick_changes(
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
        """TaoClient.tick_changes, awaited. Refused while another tick is awaited: its snapshot, which the
        changes would apply to, is not known yet."""
        if self._ticks_awaited > 0:
            raise InvalidValueError("tick_changes cannot run while another tick is awaited: await it first", op="tick")
        if self._last is None:
            raise InvalidValueError("tick_changes needs a tick(snapshot) before it: there is no snapshot to change", op="tick")
        fields = protocol.changes(time, sessions, remove, nodes)
        snapshot = protocol.apply_changes(self._last, fields)  # type: ignore[arg-type]
        whole = protocol.tick(snapshot, evaluate_options, solve_options, previous)
        base = self._base
        if base is None or base[1] is not self._conn:
            return await self._tick(whole, snapshot, timeout)  # type: ignore[arg-type]
        try:
            delta = protocol.tick_delta(base[0], fields, evaluate_options, solve_options, previous)
            return await self._tick(delta, snapshot, timeout)  # type: ignore[arg-type]
        except InvalidValueError as err:
            if not protocol.stale_base(err):
                raise
            return await self._tick(whole, snapshot, timeout)  # type: ignore[arg-type]  # restarted: no snapshot held

    async def _tick(self, call: protocol.Call, snapshot: Snapshot, timeout: Optional[float]) -> TickResult:
        self._ticks_awaited += 1
        try:
            result, rid, conn = await self._call(call, timeout, with_id=True)
        finally:
            self._ticks_awaited -= 1
        self._last = snapshot
        self._base = (rid, conn) if self.server.get("protocol", 1) >= protocol.DELTA_PROTOCOL else None
        return result  # type: ignore[no-any-return]

    async def solve(self, problem: Problem, options: Optional[SolveOptions] = None, *, timeout: Optional[float] = None) -> Plan:
        return await self._call(protocol.solve(problem, options), timeout)

    async def evaluate(self, snapshot: Snapshot, options: Optional[EvaluateOptions] = None, *, timeout: Optional[float] = None) -> Problem:
        return await self._call(protocol.evaluate(snapshot, options), timeout)

    async def observe(self, calls: Sequence[CompletedCall], *, wait: bool = True, timeout: Optional[float] = None) -> Optional[int]:
        call = protocol.observe(calls)
        if wait:
            return await self._call(call, timeout)
        await self._notify(call)
        return None

    async def wake(self) -> None:
        """TaoClient.wake: a blank line, answered by nothing, that starts the sidecar's busy poll."""
        conn = await self._connection()
        try:
            conn.send(b"\n", None)
            await conn.drain()
        except _Lost:
            await self._drop(conn)  # the next call restarts the sidecar

    async def save_predictor(self, *, timeout: Optional[float] = None) -> PredictorJSON:
        saved = await self._call(protocol.save_predictor(), timeout)
        self._saved = saved
        return saved

    async def load_predictor(self, predictor: PredictorJSON, *, timeout: Optional[float] = None) -> None:
        await self._call(protocol.load_predictor(predictor), timeout)
        self._saved = predictor

    async def stats(self, *, timeout: Optional[float] = None) -> Stats:
        return await self._call(protocol.stats(), timeout)

    async def close(self) -> Optional[int]:
        if self._closed:
            return None
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is None:
            return None
        if self._spawn and conn.lost is None:
            try:
                await self._exchange(conn, protocol.shutdown(), EXIT_TIMEOUT)
            except Exception:  # noqa: BLE001 - closing: a dead or stuck sidecar is killed below
                pass
        return await conn.close(graceful=True)

    # ------------------------------------------------------------------ plumbing

    async def _open(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        limit = protocol.MAX_RESPONSE_BYTES
        proc: Optional[asyncio.subprocess.Process] = None
        if self._socket_path is None:
            assert self._command is not None
            proc = await asyncio.create_subprocess_exec(
                *self._command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=self._stderr, limit=limit
            )
            assert proc.stdout is not None and proc.stdin is not None
            conn = _Connection(proc, proc.stdout, proc.stdin)
        else:
            if self._spawn:
                assert self._command is not None
                remove_stale_socket(self._socket_path)
                proc = await asyncio.create_subprocess_exec(
                    *self._command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=self._stderr
                )
            reader, writer = await self._connect(proc, deadline)
            conn = _Connection(proc, reader, writer)
        try:
            hello = await self._exchange(conn, protocol.hello(self._protocols), max(0.001, deadline - time.monotonic()))
            protocol.check_hello(hello, self._protocols)
            if self._saved is not None:
                await self._exchange(conn, protocol.load_predictor(self._saved), self._timeout)
        except InvalidValueError as err:
            await conn.close(graceful=False)
            raise ProtocolError(err.message, op="hello") from None
        except BaseException:
            await conn.close(graceful=False)
            raise
        self.server = hello  # type: ignore[assignment]
        self._conn = conn

    async def _connect(self, proc: Optional[asyncio.subprocess.Process], deadline: float) -> Tuple[asyncio.StreamReader, Any]:
        assert self._socket_path is not None
        while True:
            try:
                return await asyncio.open_unix_connection(self._socket_path, limit=protocol.MAX_RESPONSE_BYTES)
            except OSError as err:
                if proc is not None and proc.returncode is not None:
                    raise SidecarExitedError(f"tao serve --socket exited with code {proc.returncode} before accepting a connection") from None
                if not self._spawn or time.monotonic() > deadline:
                    raise SidecarExitedError(f"cannot connect to {self._socket_path}: {err}") from None
                await asyncio.sleep(0.02)

    async def _exchange(
        self, conn: _Connection, call: protocol.Call, timeout: Optional[float], rid: Optional[int] = None, data: Optional[bytes] = None
    ) -> Any:
        if rid is None or data is None:
            rid = next(self._ids)
            data = protocol.encode(call.op, rid, call.fields)
        future: "asyncio.Future[bytes]" = asyncio.get_running_loop().create_future()
        conn.send(data, future)
        await conn.drain()
        if self._busy_poll > 0:
            # Each sleep(0) lets the loop run one turn, whose selector poll does not block while a task is ready.
            until = time.perf_counter() + self._busy_poll
            while not future.done() and time.perf_counter() < until:
                await asyncio.sleep(0)
        try:
            line = await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            await self._drop(conn)
            raise TaoTimeoutError(f"no response to {call.op} within {timeout} s; the connection was dropped", op=call.op) from None
        return call.result(protocol.decode(line, rid, call.op))

    async def _drop(self, conn: _Connection) -> None:
        if self._conn is conn:
            self._conn = None
        await conn.close(graceful=False)

    async def _connection(self) -> _Connection:
        if not self._started:
            await self.start()
        if self._closed:
            raise SidecarExitedError("the client is closed")
        assert self._lock is not None
        async with self._lock:
            if self._conn is None:
                if not self._restart:
                    raise SidecarExitedError("the sidecar is gone and restart=False")
                self.restarts += 1
                await self._open()
            assert self._conn is not None
            return self._conn

    async def _call(self, call: protocol.Call, timeout: Optional[float], with_id: bool = False) -> Any:
        """The call's result (with ``with_id``: and its request id and the connection that answered it)."""
        timeout = self._timeout if timeout is None else check_timeout(timeout)
        rid = next(self._ids)
        data = protocol.encode(call.op, rid, call.fields)  # refuses NaN and the like before anything is sent
        for attempt in (0, 1):
            conn = await self._connection()
            try:
                result = await self._exchange(conn, call, timeout, rid, data)
                return (result, rid, conn) if with_id else result
            except _Lost as err:
                await self._drop(conn)
                if not self._restart or attempt == 1:
                    raise SidecarExitedError(f"the sidecar went away during {call.op}: {err}", op=call.op) from None
        raise AssertionError("unreachable")

    async def _notify(self, call: protocol.Call) -> None:
        data = protocol.encode(call.op, None, call.fields)
        for attempt in (0, 1):
            conn = await self._connection()
            try:
                conn.send(data, None)
                await conn.drain()
                return
            except _Lost as err:
                await self._drop(conn)
                if not self._restart or attempt == 1:
                    raise SidecarExitedError(f"the sidecar went away during {call.op}: {err}", op=call.op) from None
