"""What both clients share about the sidecar process: how to start it and how long to wait for it."""
import os
import socket as _socket
import stat
from typing import List, Optional, Sequence

from .locate import TaoCommand, find_tao

#: Seconds a call waits for its response unless told otherwise.
DEFAULT_TIMEOUT = 30.0
#: Seconds to wait for a started sidecar to accept a connection and answer ``hello``.
START_TIMEOUT = 30.0
#: Seconds ``close()`` waits for the sidecar to exit after ``shutdown`` before killing it.
EXIT_TIMEOUT = 10.0


def serve_command(tao: Optional[TaoCommand], socket: Optional[str], args: Sequence[str]) -> List[str]:
    """``tao serve`` (with ``--socket PATH``) and the caller's extra arguments."""
    command = [*find_tao(tao), "serve"]
    if socket is not None:
        command += ["--socket", os.fspath(socket)]
    return command + list(args)


def check_timeout(timeout: Optional[float], what: str = "timeout") -> Optional[float]:
    """A timeout in seconds (None: wait forever); refuses zero, negative and non-finite values."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"{what} must be a number of seconds or None (got {timeout!r})")
    if not 0 < timeout < float("inf"):
        raise ValueError(f"{what} must be a positive, finite number of seconds or None (got {timeout!r})")
    return float(timeout)


def remove_stale_socket(path: str) -> None:
    """Removes a socket file no server answers on (left by a sidecar that was killed); leaves anything else.

    A live socket, a regular file or a directory at ``path`` is kept: ``tao serve --socket`` then refuses
    it and the start fails with its message.
    """
    try:
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            return
    except FileNotFoundError:
        return
    probe = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except ConnectionRefusedError:
        os.unlink(path)
    except OSError:
        pass
    finally:
        probe.close()
