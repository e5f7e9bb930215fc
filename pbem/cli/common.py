"""What the commands share (typer-made): errors, output, the workspace option, the game a
command names, and what is told once a command has sealed a file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.basics import WORKSPACE_ENV, WORKSPACE_FLAGS, WORKSPACE_HELP, echo, fail, user_errors, workspace
from pbem.errors import PbemError
from pbem.store.store import Workspace

__all__ = [
    "LEVEL_HELP",
    "WorkspaceOpt",
    "fail",
    "game_in",
    "pass_anyway",
    "sent",
    "solo_answers",
    "typer_names",
    "user_errors",
    "workspace",
]

#: What --level says wherever a person sets the computer's level (docs/ai.md, "Levels").
LEVEL_HELP = "the computer's level, 1 (gentlest) to 4 (strongest); 3, the everyday bot, if not given"

WorkspaceOpt = Annotated[
    Path | None, typer.Option(WORKSPACE_FLAGS[0], WORKSPACE_FLAGS[1], envvar=WORKSPACE_ENV, help=WORKSPACE_HELP)
]


def typer_names(namespace: dict[str, object]) -> None:
    """Give a module that imports typer only when typer runs it (see pbem/cli/show_cmd.py)
    the names its annotations use, for typer to read them."""
    namespace.setdefault("typer", typer)
    namespace.setdefault("WorkspaceOpt", WorkspaceOpt)


def game_in(game: str, path: Path | None) -> tuple[Workspace, str]:
    """The workspace and the full id of the game a command names (by its first characters)."""
    ws = workspace(path)
    return ws, ws.resolve_game(game)


def sent(ws: Workspace, gid: str, line: str, *, status: bool = True) -> None:
    """Tell what a command sealed into outbox/ for game ``gid``: ``line``, then, in a solo
    game, the computer's answers, then (with ``status``) where the game stands."""
    echo(line)
    solo_answers(ws, gid)
    if status:
        from pbem.play.status import lines

        echo(lines(ws, gid)[0])


def solo_answers(ws: Workspace, gid: str) -> None:
    """In a solo game (`pbem branch --solo`), let the computer answer what I just sent."""
    from pbem.play import status

    if not status.meta(ws, gid).get("solo"):
        return
    from pbem.play import solo

    for line in solo.answer(ws, gid):
        echo(line)


@contextmanager
def pass_anyway(how: str) -> Iterator[None]:
    """A pass refused for what it would cost (code ``pass-warning``): say how to pass
    anyway, ``how`` being the command that was run."""
    try:
        yield
    except PbemError as exc:
        if exc.code != "pass-warning":
            raise
        raise PbemError(
            f"{exc.head}; to pass anyway, run {how} with --force", exc.code, exc.rule, exc.details
        ) from None
