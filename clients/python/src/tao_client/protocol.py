"""The wire format shared by both clients (docs/sidecar.md): request building, encoding, and reading one
response line into a result or a typed exception.
"""
import json
from typing import Any, Callable, Dict, NamedTuple, Optional, Sequence, Union

from .errors import InvalidTypeError, InvalidValueError, ProtocolError, error_for
from .types import TickResult

#: The protocol versions this client speaks; ``hello`` must agree on one of them.
PROTOCOLS = (1,)

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
