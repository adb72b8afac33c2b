"""The wire format shared by both clients (docs/sidecar.md): request building, encoding, and reading one
response line into a result or a typed exception.
"""
import json
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Union

from .errors import InvalidTypeError, InvalidValueError, ProtocolError, error_for
from .types import TickResult

#: The protocol versions this client speaks; ``hello`` must agree on one of them.
PROTOCOLS = (1, 2)

#: The first protocol with the ``tick`` that carries a ``delta`` against the connection's last snapshot.
DELTA_PROTOCOL = 2

#: Longest busy poll a client waits with (seconds), as the sidecar's ``--busy-poll-us`` at most.
MAX_BUSY_POLL = 0.1

#: Longest response line the clients read (the sidecar's request cap is 16 MiB; a plan is smaller).
MAX_RESPONSE_BYTES = 64 * 1024 * 1024

RequestId = Union[int, str]

#: Compact, NaN and Infinity refused. Without the circular-reference check (a dictionary of every container,
#: kept while encoding): a request that refers to itself ends in RecursionError instead, refused below.
_ENCODER = json.JSONEncoder(allow_nan=False, ensure_ascii=False, separators=(",", ":"), check_circular=False)


class Call(NamedTuple):
    """One request: its op, its fields, and how its result is read from the response."""

    op: str
    fields: Dict[str, Any]
    result: Callable[[Dict[str, Any]], Any]


def _with(fields: Dict[str, Any], **optional: Any) -> Dict[str, Any]:
    fields.update({k: v for k, v in optional.items() if v is not None})
    return fields


def _whole(response: Dict[str, Any]) -> Dict[str, Any]:
    return response


def _nothing(response: Dict[str, Any]) -> None:
    return None


def _tick(response: Dict[str, Any]) -> TickResult:
    return TickResult(response["plan"], response["signatures"], response.get("revalidation"))


def hello(protocols: Sequence[int]) -> Call:
    return Call("hello", {"protocols": list(protocols)}, _whole)


def tick(snapshot: Any, evaluate_options: Any, solve_options: Any, previous: Any) -> Call:
    fields = _with({"snapshot": snapshot}, evaluateOptions=evaluate_options, solveOptions=solve_options, previous=previous)
    return Call("tick", fields, _tick)


def tick_delta(base: RequestId, changes: Dict[str, Any], evaluate_options: Any, solve_options: Any, previous: Any) -> Call:
    """A ``tick`` carrying what changed since the snapshot of the tick ``base`` (protocol 2)."""
    fields = _with({"delta": {"base": base, **changes}}, evaluateOptions=evaluate_options, solveOptions=solve_options, previous=previous)
    return Call("tick", fields, _tick)


def changes(time: Any, sessions: Sequence[Any], remove: Sequence[Any], nodes: Any) -> Dict[str, Any]:
    """The fields of a delta besides ``base``: the empty ones left out."""
    fields: Dict[str, Any] = {"time": time}
    if nodes is not None:
        fields["nodes"] = nodes
    if sessions:
        fields["sessions"] = list(sessions)
    if remove:
        fields["remove"] = list(remove)
    return fields


def apply_changes(snapshot: Dict[str, Any], fields: Dict[str, Any]) -> Dict[str, Any]:
    """The snapshot ``fields`` (a delta) makes from ``snapshot``, as the sidecar makes it (docs/sidecar.md#tick):
    a changed session keeps its place, new ones follow in the order given, removed ones are gone. Only what
    the merge reads is checked here (each session an object with a string id, each removed id held once);
    the sidecar checks the rest and names the field."""
    removed: Dict[str, int] = {}
    for k, sid in enumerate(fields.get("remove", ())):
        if not isinstance(sid, str):
            raise InvalidTypeError(f"delta.remove[{k}] must be a string", op="tick")
        if sid in removed:
            raise InvalidValueError(f'delta.remove[{k}] repeats session "{sid}"', op="tick")
        removed[sid] = k
    changed = list(fields.get("sessions", ()))
    by_id: Dict[str, int] = {}
    for k, s in enumerate(changed):
        if not isinstance(s, dict) or not isinstance(s.get("id"), str):
            raise InvalidTypeError(f"delta.sessions[{k}] must be an object with a string id", op="tick")
        if s["id"] in removed:
            raise InvalidValueError(f'delta.sessions[{k}] is session "{s["id"]}", which delta.remove also names', op="tick")
        by_id[s["id"]] = k
    # The places of the few sessions the delta names, in one pass over the base; then the base copied and
    # edited there (a dictionary of the whole base would cost more than the rest).
    base = snapshot["sessions"]
    wanted = removed.keys() | by_id.keys()
    hits = [(k, s["id"]) for k, s in enumerate(base) if s["id"] in wanted] if wanted else []
    sessions: List[Any] = list(base)
    replaced: Set[int] = set()
    drop: List[int] = []
    for k, sid in hits:
        if sid in removed:
            drop.append(k)
        else:
            sessions[k] = changed[by_id[sid]]
            replaced.add(by_id[sid])
    if len(drop) < len(removed):
        held = {s["id"] for s in base}
        sid, k = next((sid, k) for sid, k in removed.items() if sid not in held)
        raise InvalidValueError(f'delta.remove[{k}] names session "{sid}", which the base snapshot does not hold', op="tick")
    for k in reversed(drop):
        del sessions[k]
    sessions.extend(s for k, s in enumerate(changed) if k not in replaced)
    nodes = fields["nodes"] if "nodes" in fields else snapshot["nodes"]
    return {"time": fields["time"], "nodes": nodes, "sessions": sessions}


def stale_base(err: Exception) -> bool:
    """Whether the sidecar refused a delta for its base (restarted, or another tick in between)."""
    return isinstance(err, InvalidValueError) and err.message.startswith("delta.base ")


def check_busy_poll(busy_poll: Any) -> float:
    """Seconds a client polls for each response before it sleeps: from 0 (never) to MAX_BUSY_POLL."""
    if isinstance(busy_poll, bool) or not isinstance(busy_poll, (int, float)):
        raise TypeError(f"busy_poll must be a number of seconds (got {busy_poll!r})")
    if not 0 <= busy_poll <= MAX_BUSY_POLL:
        raise ValueError(f"busy_poll must be from 0 to {MAX_BUSY_POLL} seconds (got {busy_poll!r})")
    return float(busy_poll)


def solve(problem: Any, options: Any) -> Call:
    return Call("solve", _with({"problem": problem}, options=options), lambda r: r["plan"])


def evaluate(snapshot: Any, options: Any) -> Call:
    return Call("evaluate", _with({"snapshot": snapshot}, options=options), lambda r: r["problem"])


def observe(calls: Any) -> Call:
    return Call("observe", {"calls": list(calls)}, lambda r: r["learned"])


def save_predictor() -> Call:
    return Call("predictor.save", {}, lambda r: r["predictor"])


def load_predictor(predictor: Any) -> Call:
    return Call("predictor.load", {"predictor": predictor}, _nothing)


def stats() -> Call:
    return Call("stats", {}, _whole)


def shutdown() -> Call:
    return Call("shutdown", {}, _nothing)


def encode(op: str, rid: Optional[RequestId], fields: Dict[str, Any]) -> bytes:
    """One request line; ``rid`` None makes a notification. NaN and Infinity are refused, not sent."""
    request: Dict[str, Any] = {"op": op, **fields} if rid is None else {"id": rid, "op": op, **fields}
    try:
        text = _ENCODER.encode(request)
    except RecursionError:
        raise InvalidValueError(
            f"{op} request is not valid JSON: it refers to itself, or nests deeper than Python's recursion limit",
            op=op,
        ) from None
    except ValueError as err:
        raise InvalidValueError(
            f"{op} request is not valid JSON: {err} (JSON has no NaN or Infinity: leave an option out for its unbounded default)",
            op=op,
        ) from None
    except TypeError as err:
        raise InvalidTypeError(f"{op} request is not valid JSON: {err}", op=op) from None
    return (text + "\n").encode("utf-8")


def decode(line: bytes, rid: RequestId, op: str) -> Dict[str, Any]:
    """The ok response answering request ``rid``; raises the typed exception of an error response."""
    try:
        response = json.loads(line)
    except ValueError as err:
        raise ProtocolError(f"the sidecar answered {op} with a line that is not JSON: {err}", op=op) from None
    if not isinstance(response, dict) or not isinstance(response.get("ok"), bool):
        raise ProtocolError(f"the sidecar answered {op} with something that is not a response: {line[:200]!r}", op=op)
    # An error with id null answers this request too: the sidecar could not read it (e.g. over its line cap).
    if response.get("id") != rid and not (response["ok"] is False and response.get("id") is None):
        raise ProtocolError(f"response id {response.get('id')!r} does not answer request {rid!r} ({op})", op=op)
    if response["ok"] is False:
        error = response.get("error") or {}
        raise error_for(str(error.get("code")), str(error.get("message")), op)
    return response


def check_hello(response: Dict[str, Any], protocols: Sequence[int]) -> None:
    """Raises ProtocolError unless ``hello`` chose a version this client speaks."""
    if response.get("protocol") not in protocols:
        raise ProtocolError(f"the sidecar chose protocol {response.get('protocol')!r}; this client speaks {list(protocols)}", op="hello")
