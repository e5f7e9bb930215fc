"""`pbem bot play GAME`: the computer makes my side's pending decisions, then sends."""

from __future__ import annotations

from typing import Annotated

import typer

from pbem import turn
from pbem.cli.common import WorkspaceOpt, game_in, sent, user_errors

bot_app = typer.Typer(help="The computer player.", no_args_is_help=True)


@bot_app.command("play")
@user_errors
def play(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    player: Annotated[str, typer.Option("--player", help="bot (heuristic) or random")] = "bot",
    ws_path: WorkspaceOpt = None,
) -> None:
    """Let the computer decide for my side, then seal the turn into outbox/."""
    ws, gid = game_in(game, ws_path)
    path = turn.bot_play(ws, gid, player=player)
    sent(ws, gid, f"sealed {path.relative_to(ws.root)}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.add_typer(bot_app, name="bot")
