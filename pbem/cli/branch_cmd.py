"""`pbem branch`: a new game from the position after a file of another game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import LEVEL_HELP, WorkspaceOpt, user_errors, workspace
from pbem.errors import PbemError


@user_errors
def branch(
    record: Annotated[str, typer.Argument(help="A game of this workspace (id or its start), or a record folder")],
    at: Annotated[int, typer.Option("--at", help="Start from the position after this file of it")],
    me: Annotated[str | None, typer.Option("--me", help="Your identity (default: yours in that game)")] = None,
    side: Annotated[str | None, typer.Option("--side", help="axis or allies (default: your side in it)")] = None,
    opponent: Annotated[
        Path | None, typer.Option("--opponent", help="The opponent's public key file (default: your opponent there)")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="Which game of a record folder holding several")] = None,
    solo: Annotated[bool, typer.Option("--solo", help="Play it here against the computer (an analysis game)")] = False,
    level: Annotated[int | None, typer.Option("--level", help=f"With --solo: {LEVEL_HELP}")] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Invite to a new game starting after file N of another; the opponent verifies that position.
    With --solo, the computer takes the other side here and answers each file at once."""
    from pbem.play import audit, branch, status
    from pbem.play import solo as solo_games
    from pbem.store import keys

    ws = workspace(ws_path)
    folder = Path(record)
    if folder.is_dir():
        found = audit.game_files(folder)
        if game is None and len(found) != 1:
            raise PbemError(f"{folder.name} holds games {', '.join(sorted(found))}: choose one with --game", "usage")
        parent = game or next(iter(found))
        source = branch.folder_source(found)
    else:
        parent = ws.resolve_game(record)
        source = branch.store_source(ws)
        me = me or status.meta(ws, parent)["me"]
    if me is None:
        raise PbemError("say which of your identities plays the new game (--me NAME)", "usage")
    if level is not None and not solo:
        raise PbemError("--level is the computer's in a solo branch: give it with --solo", "usage")
    if solo:
        if opponent is not None:
            raise PbemError("--solo plays against the computer: leave out --opponent", "usage")
        gid, said = solo_games.start(ws, source, parent, at, me, side, level=level)
        for line in said:
            typer.echo(line)
        typer.echo(f"solo game {gid} against the computer, from game {parent} after file {at}")
        typer.echo(status.lines(ws, gid)[0])
        return
    pub = keys.read_public_key(opponent) if opponent is not None else None
    gid, path = branch.new_branch(ws, source, parent, at, me, side, pub)
    typer.echo(gid)
    typer.echo(
        f"invitation to a branch of game {parent} after file {at} written to {path.relative_to(ws.root)}; "
        "send it to your opponent, who needs that game's files to join",
        err=True,
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("branch")(branch)
