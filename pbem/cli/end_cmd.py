"""Ending games: resign, the draw commands, declining an invitation, archiving a game."""

from __future__ import annotations

from typing import Annotated

import typer

from pbem.cli.common import WorkspaceOpt, game_in, sent, user_errors, workspace

GameArg = Annotated[str, typer.Argument(help="Game id, or its first characters")]


def _ending(kind: str, game: str, ws_path: WorkspaceOpt) -> None:
    from pbem.play import finish

    ws, gid = game_in(game, ws_path)
    sent(ws, gid, finish.write(ws, gid, kind), status=False)


@user_errors
def resign(game: GameArg, ws_path: WorkspaceOpt = None) -> None:
    """Resign the game: a signed file into outbox/; your opponent wins."""
    _ending("resign", game, ws_path)


@user_errors
def offer_draw(game: GameArg, ws_path: WorkspaceOpt = None) -> None:
    """Offer a draw; the offer goes out with your next file."""
    _ending("offer-draw", game, ws_path)


@user_errors
def accept_draw(game: GameArg, ws_path: WorkspaceOpt = None) -> None:
    """Accept the opponent's open draw offer: a signed file into outbox/ ends the game."""
    _ending("accept-draw", game, ws_path)


@user_errors
def decline_draw(game: GameArg, ws_path: WorkspaceOpt = None) -> None:
    """Decline the opponent's draw offer; the answer goes out with your next file."""
    _ending("decline-draw", game, ws_path)


@user_errors
def withdraw_draw(game: GameArg, ws_path: WorkspaceOpt = None) -> None:
    """Withdraw your own open draw offer; this goes out with your next file."""
    _ending("withdraw-draw", game, ws_path)


@user_errors
def decline(
    invitation: Annotated[str, typer.Argument(help="The invitation file, or the game id `pbem status` shows")],
    me: Annotated[str, typer.Option("--me", help="Your identity name (the invited key)")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """Decline an invitation: a signed refusal into outbox/, which tells the inviter."""
    from pbem.play import decline as declining

    ws = workspace(ws_path)
    gid, path = declining.decline(ws, invitation, me)
    typer.echo(f"declined game {gid}; the refusal is {path.relative_to(ws.root)}: send it to the inviter")


@user_errors
def archive(
    game: GameArg,
    restore: Annotated[bool, typer.Option("--restore", help="Bring an archived game back into `pbem status`")] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Move a game out of `pbem status` (its files stay; `pbem status --all` lists it)."""
    from pbem.play import archive as archiving

    ws = workspace(ws_path)
    typer.echo(archiving.archive(ws, ws.resolve_game(game), restore))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("resign")(resign)
    app.command("offer-draw")(offer_draw)
    app.command("accept-draw")(accept_draw)
    app.command("decline-draw")(decline_draw)
    app.command("withdraw-draw")(withdraw_draw)
    app.command("decline")(decline)
    app.command("archive")(archive)
