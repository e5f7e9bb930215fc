"""``pbem play``: the game in the browser, served on 127.0.0.1 until Ctrl-C."""

from __future__ import annotations

import contextlib
import tempfile
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import LEVEL_HELP, WorkspaceOpt, user_errors, workspace
from pbem.errors import PbemError


@user_errors
def play(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")] = "",
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Only print the page's address")] = False,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 (default: a free one)")] = 0,
    against_bot: Annotated[
        bool, typer.Option("--against-bot", help="Start a new game against the computer here and play it in the page")
    ] = False,
    scenario: Annotated[str, typer.Option("--scenario", help="With --against-bot: the scenario")] = "1939",
    side: Annotated[str, typer.Option("--side", help="With --against-bot: your side, axis or allies")] = "axis",
    me: Annotated[str, typer.Option("--me", help="With --against-bot: your identity name")] = "",
    level: Annotated[int | None, typer.Option("--level", help=f"With --against-bot: {LEVEL_HELP}")] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """See the map and give every order with the mouse, in a page served on this machine only;
    with --against-bot, a new game against the computer, which answers each move at once."""
    from pbem.play import solo
    from pbem.store.localgame import LocalGame
    from pbem.web.desk import Desk
    from pbem.web.server import PlayServer

    ws = workspace(ws_path)
    if level is not None and not against_bot:
        raise PbemError("--level is the computer's in a new game: give it with --against-bot", "usage")
    if against_bot:
        if game:
            raise PbemError("--against-bot starts a new game: leave out GAME", "usage")
        if not me:
            raise PbemError("--against-bot needs your identity: --me NAME (`pbem keygen NAME` makes one)", "usage")
        game, _ = solo.new(ws, scenario, side, me, level=level)
        typer.echo(f"game {game} against the computer: you play the {side}")
    elif not game:
        raise PbemError("name the game to play (`pbem status` lists them), or start one with --against-bot", "usage")
    gid = ws.resolve_game(game)
    if LocalGame(ws, gid).game() is None:
        raise PbemError(f"game {gid} has not started: the opponent has not joined yet", "turn")
    if not 0 <= port < 65536:
        raise PbemError(f"--port {port}: a port is 0 to 65535", "usage")
    try:
        server = PlayServer(Desk(ws, gid), port)
    except OSError as exc:
        raise PbemError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", "io") from None
    typer.echo(f"game {gid}: open {server.url}  (Ctrl-C stops)", err=False)
    with contextlib.ExitStack() as stack:
        stack.callback(server.server_close)
        if not no_browser:
            # The browser gets a private file's path: its command line is every local user's to read.
            private = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pbem-play-")))
            webbrowser.open(server.launch_file(private).as_uri())
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            typer.echo("stopped")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("play")(play)
