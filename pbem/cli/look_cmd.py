"""Looking before deciding: `pbem hex`, `pbem legal` and `pbem suggest`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import WorkspaceOpt, user_errors, workspace
from pbem.play import look, turn
from pbem.store.store import atomic_write

GameArg = Annotated[str, typer.Argument(help="Game id, or its first characters")]


@user_errors
def hex_cmd(
    game: GameArg,
    where: Annotated[str, typer.Argument(help="The hex as COL,ROW, or a city: [Warsaw] or Warsaw")],
    ws_path: WorkspaceOpt = None,
) -> None:
    """One hex: terrain, control, installations, every unit of the stack (numbers in words,
    supply, what it did this month, cargo), and the odds my adjacent units would get
    attacking it now."""
    ws = workspace(ws_path)
    for line in look.hex_lines(ws, ws.resolve_game(game), where):
        typer.echo(line)


@user_errors
def legal(
    game: GameArg,
    unit: Annotated[list[str] | None, typer.Option("--unit", help="Orders of this unit (#ID); repeatable")] = None,
    hex_: Annotated[
        list[str] | None,
        typer.Option("--hex", help="Orders naming this hex (COL,ROW or [City]) or moving a unit in it; repeatable"),
    ] = None,
    country: Annotated[
        list[str] | None, typer.Option("--country", help="Orders naming this country or moving its units")
    ] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", help="Orders of this kind (move, attack, ...)")] = None,
    limit: Annotated[int, typer.Option("--limit", help="How many to print (0: all)")] = 100,
    ws_path: WorkspaceOpt = None,
) -> None:
    """The orders the rules allow me now, filtered; prints their count, then the orders."""
    ws = workspace(ws_path)
    flt = look.LegalFilter(
        units=tuple(look.unit_number(u) for u in unit or ()),
        places=tuple(hex_ or ()),
        countries=tuple(country or ()),
        kinds=tuple(kind or ()),
    )
    for line in look.legal_lines(ws, ws.resolve_game(game), flt, limit):
        typer.echo(line)


@user_errors
def suggest(
    game: GameArg,
    out: Annotated[Path | None, typer.Option("--out", help="Write the order file here instead of stdout")] = None,
    ahead: Annotated[
        str | None,
        typer.Option(
            "--ahead", metavar="STEP", help="A proposal for a coming simultaneous step of the month, to give ahead"
        ),
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """The computer player's proposal for my current decision (or, with --ahead, a coming
    one), as an order file to edit and give with `pbem orders GAME FILE`; nothing is applied."""
    ws = workspace(ws_path)
    if ahead is None:
        text = turn.suggest(ws, ws.resolve_game(game))
    else:
        from pbem.play import ahead_entry

        text = ahead_entry.suggest(ws, ws.resolve_game(game), ahead)
    if out is None:
        typer.echo(text, nl=False)
    else:
        atomic_write(out, text.encode())
        typer.echo(f"wrote {out}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("hex")(hex_cmd)
    app.command("legal")(legal)
    app.command("suggest")(suggest)
