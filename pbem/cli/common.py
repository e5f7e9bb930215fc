"""What the commands share: errors, the workspace option, the game a command names, and
what is told once a command has sealed a file."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from pbem.errors import PbemError
from pbem.store import Workspace

F = TypeVar("F", bound=Callable[..., Any])

WorkspaceOpt = Annotated[
    Path | None,
    typer.Option("--workspace", "-w", envvar="PBEM_WORKSPACE", help="Game workspace (default: .)"),
]


def workspace(path: Path | None) -> Workspace:
    return Workspace(path if path is not None else Path.cwd())


def game_in(game: str, path: Path | None) -> tuple[Workspace, str]:
    """The workspace and the full id of the game a command names (by its first characters)."""
    ws = workspace(path)
    return ws, ws.resolve_game(game)


def sent(ws: Workspace, gid: str, line: str, *, status: bool = True) -> None:
    """Tell what a command sealed into outbox/ for game ``gid``: ``line``, then, in a solo
    game, the computer's answers, then (with ``status``) where the game stands."""
    typer.echo(line)
    solo_answers(ws, gid)
    if status:
        from pbem.status import lines

        typer.echo(lines(ws, gid)[0])


def solo_answers(ws: Workspace, gid: str) -> None:
    """In a solo game (`pbem branch --solo`), let the computer answer what I just sent."""
    from pbem import status

    if not status.meta(ws, gid).get("solo"):
        return
    from pbem import solo

    for line in solo.answer(ws, gid):
        typer.echo(line)


def fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(1)


def user_errors(fn: F) -> F:
    """Turn every error into one line on stderr and exit status 1: no traceback reaches a user."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except PbemError as exc:
            fail(f"error: {exc}")
        except OSError as exc:
            fail(f"error: {exc.strerror or exc}: {Path(exc.filename).name if exc.filename else ''}".rstrip(": "))
        except KeyboardInterrupt:
            fail("interrupted")
        except Exception as exc:
            if os.environ.get("PBEM_DEBUG"):
                raise
            line = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
            print(f"internal error: {line} (set PBEM_DEBUG=1 for details)", file=sys.stderr)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]
