"""Deadline and hand-over commands: claim a missed deadline; pass a side to another key."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import WorkspaceOpt, game_in, sent, user_errors, workspace
from pbem.play import claim as claiming
from pbem.play import passing, terms
from pbem.store import keys

handover_app = typer.Typer(help="Pass your side of a game to another key (a new player, or the bot)")
deadline_app = typer.Typer(
    help="Change a game's deadline per decision or its silence rule, with both players' signatures"
)


@deadline_app.command("agree")
@user_errors
def deadline_agree(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    hours: Annotated[float, typer.Option("--hours", help="The new deadline per decision, in hours")],
    out: Annotated[Path, typer.Option("--out", "-o", help="File to write my signed consent to")],
    on_silence: Annotated[
        str,
        typer.Option("--on-silence", help="Also change what a final claim does: bot or forfeit (default: unchanged)"),
    ] = "",
    ws_path: WorkspaceOpt = None,
) -> None:
    """Sign my consent to new terms (the deadline in force to keep it); the opponent seals
    them with `pbem deadline set`."""
    ws = workspace(ws_path)
    path = terms.agree(ws, ws.resolve_game(game), hours, out, silence=on_silence)
    typer.echo(f"consent written to {path}; give it to your opponent before either of you sends a file")


@deadline_app.command("set")
@user_errors
def deadline_set(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    consent: Annotated[Path, typer.Argument(help="The opponent's consent file")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """Seal the new terms the opponent agreed to into outbox/."""
    ws, gid = game_in(game, ws_path)
    path = terms.settle(ws, gid, consent)
    typer.echo(f"new terms written to {path.relative_to(ws.root)}; send it to your opponent")


@user_errors
def claim(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")], ws_path: WorkspaceOpt = None
) -> None:
    """Claim that the opponent missed its deadline: a reminder first, then the game's rule
    (the bot plays the decision, or the opponent forfeits)."""
    ws, gid = game_in(game, ws_path)
    path, what = claiming.claim(ws, gid)
    sent(ws, gid, f"claim written to {path.relative_to(ws.root)}: {what}")


@handover_app.command("offer")
@user_errors
def offer(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    to: Annotated[Path, typer.Option("--to", help="The new holder's public key file")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Directory to write the offer and the game's files to (default: by mail)"),
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Offer your side to another key: writes the offer and the game's files for the new holder,
    into a directory, or into outbox/ for the address of the key (a bot mailbox accepts at once)."""
    ws = workspace(ws_path)
    gid, key = ws.resolve_game(game), keys.read_public_key(to)
    if out is None:
        path = passing.offer_by_mail(ws, gid, key)
        typer.echo(
            f"offer written to {path.relative_to(ws.root)} for {key.email}; "
            "its acceptance, when it comes back by mail, seals the hand-over"
        )
        return
    path = passing.offer(ws, gid, key, out)
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
    path, fingerprint = passing.seal(ws, ws.resolve_game(game), acceptance)
    typer.echo(
        f"hand-over to the key {fingerprint} written to {path.relative_to(ws.root)}; "
        "send it to your opponent and the new holder"
    )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("claim")(claim)
    app.add_typer(handover_app, name="handover")
    app.add_typer(deadline_app, name="deadline")
