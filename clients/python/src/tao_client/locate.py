"""Finding the ``tao`` command: an explicit path or command, ``$TAO_BIN``, ``tao`` on PATH, then the npm
package's ``dist/cli.js`` (in ``node_modules/tao-solver`` of the working directory or a parent, or the
checkout this client sits in), run with ``$TAO_NODE`` or the ``node`` on PATH.
"""
import os
import shutil
from pathlib import Path
from typing import List, Optional, Sequence, Union

from .errors import TaoNotFoundError

TaoCommand = Union[str, "os.PathLike[str]", Sequence[str]]


def _node() -> str:
    node = os.environ.get("TAO_NODE") or shutil.which("node")
    if not node:
        raise TaoNotFoundError("node is not on PATH (set TAO_NODE to run the npm package's dist/cli.js)")
    return node


def _command_of(path: str) -> List[str]:
    """A path to run: a JavaScript file through node, anything else as an executable."""
    return [_node(), path] if path.endswith((".js", ".mjs")) else [path]


def _npm_candidates() -> List[Path]:
    out = [d / "node_modules" / "tao-solver" / "dist" / "cli.js" for d in [Path.cwd(), *Path.cwd().parents]]
    # A checkout of the repository: clients/python/src/tao_client/locate.py -> <root>/dist/cli.js.
    here = Path(__file__).resolve()
    if len(here.parents) > 4:
        out.append(here.parents[4] / "dist" / "cli.js")
    return out


def find_tao(tao: Optional[TaoCommand] = None) -> List[str]:
    """The command that runs ``tao`` (e.g. ``["/usr/bin/node", ".../dist/cli.js"]``); raises TaoNotFoundError."""
    if tao is not None:
        if isinstance(tao, (str, os.PathLike)):
            path = os.fspath(tao)
            if os.path.sep not in path and shutil.which(path):
                return [shutil.which(path)]  # type: ignore[list-item]
            if not os.path.exists(path):
                raise TaoNotFoundError(f"tao={path!r} does not exist")
            return _command_of(path)
        command = [os.fspath(part) for part in tao]
        if not command:
            raise TaoNotFoundError("tao=[] names no command")
        return command
    env = os.environ.get("TAO_BIN")
    if env:
        if not os.path.exists(env) and not shutil.which(env):
            raise TaoNotFoundError(f"TAO_BIN={env!r} does not exist")
        return _command_of(env) if os.path.exists(env) else [shutil.which(env)]  # type: ignore[list-item]
    on_path = shutil.which("tao")
    if on_path:
        return [on_path]
    for candidate in _npm_candidates():
        if candidate.is_file():
            return _command_of(str(candidate))
    raise TaoNotFoundError(
        "tao not found: pass tao=PATH, set TAO_BIN, put tao on PATH (npm install -g tao-solver) "
        "or install the npm package here (npm install tao-solver)"
    )
