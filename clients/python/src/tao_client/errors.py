"""Exceptions of the client: one class per sidecar error code, and the client's own failures.

Every class derives from TaoError, which carries the stable ``code`` (the sidecar's, such as
``ERR_TAO_INVALID_VALUE``, or the client's ``ERR_TAO_CLIENT_*``), the ``message`` and the ``op`` of the
request. The sidecar's codes also derive from the matching built-in (TypeError, ValueError), so generic
handlers work.
"""
from typing import Dict, Optional, Type


class TaoError(Exception):
    """A failed request: ``code`` is stable, ``message`` names the field (``problem.sessions[0].weight ...``)."""

    code = "ERR_TAO"

    def __init__(self, message: str, *, op: Optional[str] = None, code: Optional[str] = None) -> None:
        if code is not None:
            self.code = code
        super().__init__(f"{self.code}: {message}")
        self.message = message
        self.op = op


class InvalidTypeError(TaoError, TypeError):
    """A value of the wrong type (in the request, or not encodable as JSON)."""

    code = "ERR_TAO_INVALID_TYPE"


class InvalidValueError(TaoError, ValueError):
    """A value out of range or in conflict with another (or a float JSON cannot carry: NaN, Infinity)."""

    code = "ERR_TAO_INVALID_VALUE"


class ClosedError(TaoError):
    """The sidecar's solver was used after it closed."""

    code = "ERR_TAO_CLOSED"


class SolverTrapError(TaoError):
    """The WebAssembly solver trapped; the sidecar's next solve runs on a fresh instance."""

    code = "ERR_TAO_TRAP"


class AbortedError(TaoError):
    """A solve was aborted."""

    code = "ERR_TAO_ABORTED"


class InternalError(TaoError):
    """A failure in the sidecar that is not the request's fault (its stderr has the stack)."""

    code = "ERR_TAO_INTERNAL"


class TaoTimeoutError(TaoError, TimeoutError):
    """No response within the call's timeout. The connection is dropped; the next call starts afresh."""

    code = "ERR_TAO_CLIENT_TIMEOUT"


class SidecarExitedError(TaoError, ConnectionError):
    """The sidecar went away (exited, closed its end) and could not be restarted."""

    code = "ERR_TAO_CLIENT_EXITED"


class ProtocolError(TaoError):
    """The sidecar shares no protocol version with this client, or answered something unreadable."""

    code = "ERR_TAO_CLIENT_PROTOCOL"


class TaoNotFoundError(TaoError, FileNotFoundError):
    """No ``tao`` command was found (explicit path, TAO_BIN, PATH, the npm package)."""

    code = "ERR_TAO_CLIENT_NOT_FOUND"


_BY_CODE: Dict[str, Type[TaoError]] = {
    c.code: c for c in (InvalidTypeError, InvalidValueError, ClosedError, SolverTrapError, AbortedError, InternalError)
}


def error_for(code: str, message: str, op: Optional[str]) -> TaoError:
    """The exception of a sidecar error response; an unknown code (a later release) gives a TaoError with it."""
    cls = _BY_CODE.get(code)
    return cls(message, op=op) if cls is not None else TaoError(message, op=op, code=code)
