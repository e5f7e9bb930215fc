"""What the commands share that does not need typer: errors, output, the workspace.

`pbem status`, `pbem show` and `pbem where` run without typer (pbem/cli/plain.py), so
what they use lives here; pbem/cli/common.py adds the typer-made parts for the others.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn, ParamSpec, Protocol, TypeVar

from pbem.errors import PbemError
from pbem.store.store import Workspace

P = ParamSpec("P")
R = TypeVar("R")


#: The ``--workspace`` option every command takes (pbem/cli/common.py declares it to typer).
WORKSPACE_FLAGS = ("--workspace", "-w")
WORKSPACE_ENV = "PBEM_WORKSPACE"
WORKSPACE_HELP = "Game workspace (default: .)"


class DeclaresOptions(Protocol):
    """What :func:`workspace_option` needs of typer (or of plain.py's stand-in for it)."""

    def Option(self, *param_decls: str, envvar: str, help: str) -> object: ...


def workspace_option(typer: DeclaresOptions) -> object:
    """The ``--workspace`` option declared with ``typer``: the light stand-in that
    pbem/cli/plain.py reads annotations with (or typer itself)."""
    return Annotated[Path | None, typer.Option(*WORKSPACE_FLAGS, envvar=WORKSPACE_ENV, help=WORKSPACE_HELP)]


def workspace(path: Path | None) -> Workspace:
    return Workspace(path if path is not None else Path.cwd())


def echo(line: str, err: bool = False) -> None:
    """One line on the standard output (or error), as typer's ``echo`` writes it."""
    stream = sys.stderr if err else sys.stdout
    text = f"{line}\n"
    try:
        stream.write(text)
    except UnicodeEncodeError:  # a stream set up for ASCII only: UTF-8, as typer writes then
        stream.flush()
        stream.buffer.write(text.encode())
    stream.flush()


def fail(message: str) -> NoReturn:
    echo(message, err=True)
    raise SystemExit(1)


def is_typer_exit(exc: BaseException) -> bool:
    """An exit that typer's ``Exit`` asks for (only possible once typer is imported)."""
    typer = sys.modules.get("typer")
    return typer is not None and isinstance(exc, typer.Exit)


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn every error into one line on stderr and exit status 1: no traceback reaches a user."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except PbemError as exc:
            fail("\n  ".join((f"error: {exc.head}", *exc.details)))
        except BrokenPipeError:
            # The reader stopped reading (`pbem show GAME | head`): nothing to tell anyone,
            # and nothing more may be written there, not even by the interpreter's last flush.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except OSError as exc:
            fail(f"error: {exc.strerror or exc}: {Path(exc.filename).name if exc.filename else ''}".rstrip(": "))
        except KeyboardInterrupt:
            fail("interrupted")
        except Exception as exc:
            if is_typer_exit(exc) or os.environ.get("PBEM_DEBUG"):
                raise
            line = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
            print(f"internal error: {line} (set PBEM_DEBUG=1 for details)", file=sys.stderr)
            raise SystemExit(2) from None

    return wrapper
