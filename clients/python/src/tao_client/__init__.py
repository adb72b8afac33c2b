"""Python client of the tao-solver sidecar (``tao serve``, protocol in the npm package's docs/sidecar.md).

    from tao_client import TaoClient

    with TaoClient() as tao:                      # starts `tao serve` (TAO_BIN, PATH or the npm package)
        result = tao.tick(snapshot)               # evaluate + solve in one round trip
        print(result.plan["assignments"])

``AsyncTaoClient`` is the asyncio twin; ``socket=PATH`` uses ``tao serve --socket PATH`` instead of stdio.
Standard library only.
"""
from .aio import AsyncTaoClient
from .client import TaoClient
from .errors import (
    AbortedError,
    ClosedError,
    InternalError,
    InvalidTypeError,
    InvalidValueError,
    ProtocolError,
    SidecarExitedError,
    SolverTrapError,
    TaoError,
    TaoNotFoundError,
    TaoTimeoutError,
)
from .locate import find_tao
from .protocol import PROTOCOLS
from .types import TickResult

__version__ = "0.1.0"

__all__ = [
    "AbortedError",
    "AsyncTaoClient",
    "ClosedError",
    "InternalError",
    "InvalidTypeError",
    "InvalidValueError",
    "PROTOCOLS",
    "ProtocolError",
    "SidecarExitedError",
    "SolverTrapError",
    "TaoClient",
    "TaoError",
    "TaoNotFoundError",
    "TaoTimeoutError",
    "TickResult",
    "find_tao",
]
