"""Deadline and hand-over commands: claim a missed deadline; pass a side to another key."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem import claim as claiming
from pbem import keys, passing
from pbem.cli.common import WorkspaceOpt, user_errors, workspace
from pbem.status import lines as status_lines

handover_app = typer.Typer(help="Pass your side of a game to another key (a new player, or the bot)")


@user_errors
def claim(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")], ws_path: WorkspaceOpt = None
) -> None:
    """Claim that the opponent missed its deadline: a reminder first, then the game's rule
    (the bot plays the decision, or the opponent forfeits)."""
    ws = workspace(ws_path)
    gid = ws.resolve_game(game)
    path, what = claiming.claim(ws, gid)
    typer.echo(f"claim written to {path.relative_to(ws.root)}: {what}")
    typer.echo(status_lines(ws, gid)[0])


@handover_app.command("offer")
@user_errors
def offer(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    to: Annotated[Path, typer.Option("--to", help="The new holder's public key file")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory to write the offer and the game's files to")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """Offer your side to another key: writes the offer and the game's files for the new holder."""
    ws = workspace(ws_path)
    path = passing.offer(ws, ws.resolve_game(game), keys.read_public_key(to), out)
    typer.echo(f"offer written to {path}; give the directory to the new holder (`pbem handover accept`)")


@handover_app.command("accept")
@user_errors
def accept(
    directory: Annotated[Path, typer.Argument(help="The offer directory")],
    me: Annotated[str, typer.Option("--me", help="Your identity name (the key the side is offered to)")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """Take a side offered to you: verify the game, countersign; the old holder then seals."""
    ws = workspace(ws_path)
    gid, path = passing.accept(ws, directory, me)
    typer.echo(f"game {gid}: acceptance written to {path}; give it back to the old holder (`pbem handover seal`)")


@handover_app.command("seal")
@user_errors
def seal(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    acceptance: Annotated[Path, typer.Argument(help="The new holder's acceptance file")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """Seal the accepted hand-over into outbox/: send it to your opponent and to the new holder."""
    ws = workspace(ws_path)
    path = passing.seal(ws, ws.resolve_game(game), acceptance)
    typer.echo(f"hand-over written to {path.relative_to(ws.root)}; send it to your opponent and the new holder")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("claim")(claim)
    app.add_typer(handover_app, name="handover")
