"""Looking at a game: `pbem status`, `pbem show` and `pbem where` (``--free``: pbem/play/free.py).

They answer from the game's overview, without the rules engine, so they start fast;
only the allowed orders and a search around a place load the engine.  They run without
typer too (:data:`PLAIN`): their annotations name ``typer`` and ``WorkspaceOpt``, which
this module receives only when typer registers its commands (:func:`register`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pbem.cli.basics import echo, user_errors, workspace
from pbem.errors import PbemError

if TYPE_CHECKING:
    import typer

    from pbem.cli.common import WorkspaceOpt


@user_errors
def status(
    game: Annotated[str | None, typer.Argument(help="Game id or its first characters (default: every game)")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Archived games too")] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """What happened since my last decision, in short, then the date, phase, who must act,
    what is awaited and which command to run next."""
    from pbem.play.status import lines

    ws = workspace(ws_path)
    for line in lines(ws, ws.resolve_game(game) if game else None, archived=all_games, news=True):
        echo(line)


@user_errors
def show(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    legal: Annotated[
        int | None, typer.Option("--legal", help="List that many of the orders I may give now (0: all)")
    ] = None,
    units: Annotated[bool, typer.Option("--units/--no-units", help="List the units")] = True,
    enemy: Annotated[bool, typer.Option("--enemy", help="The enemy's countries and units instead of mine")] = False,
    all_sides: Annotated[bool, typer.Option("--all", help="Both sides' countries and units")] = False,
    country: Annotated[str | None, typer.Option("--country", help="Only this country (of either side)")] = None,
    near: Annotated[
        str | None, typer.Option("--near", help="Only units near this hex: COL,ROW, [City] or a city's name")
    ] = None,
    radius: Annotated[int, typer.Option("--radius", help="How many hexes around --near", min=0)] = 3,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Countries (money, pools) and units (counter numbers, hex, supply) after my pending orders."""
    from pbem.play.show import Filter
    from pbem.play.show import show as show_game

    if enemy and all_sides:
        raise PbemError("--enemy and --all exclude each other: --all lists both sides", "usage")
    which = Filter("enemy" if enemy else "all" if all_sides else "mine", country, near, radius)
    ws = workspace(ws_path)
    for line in show_game(ws, ws.resolve_game(game), legal_limit=legal, units=units, which=which):
        echo(line)


@user_errors
def where(
    game: Annotated[str, typer.Argument(help="Game id, or its first characters")],
    what: Annotated[
        str | None,
        typer.Argument(help="#UNIT, or a place: a city's name, [City] or COL,ROW (with --free: optional)"),
    ] = None,
    radius: Annotated[int, typer.Option("--radius", help="How many hexes around a place", min=0)] = 1,
    free: Annotated[
        bool,
        typer.Option(
            "--free",
            help="Where my units waiting to be placed may go now, with the room each hex has: "
            "all by nearest city, nearest a place, or one #UNIT's",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="With --free: the hexes as JSON, for programs")] = False,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Where a unit stands, or which units of both sides stand in or near a place; with
    --free, where my units waiting to be placed may go (e.g. `pbem where GAME --free Warsaw`)."""
    ws = workspace(ws_path)
    gid = ws.resolve_game(game)
    if free:
        import json

        from pbem.play.free import free as free_hexes

        found = free_hexes(ws, gid, what)
        lines = [json.dumps(found.to_json(), indent=1, ensure_ascii=False)] if as_json else found.lines()
    elif what is None:
        raise PbemError("name a #UNIT or a place (a city's name, [City] or COL,ROW), or give --free", "usage")
    elif as_json:
        raise PbemError("--json goes with --free: it gives the free hexes as JSON", "usage")
    else:
        from pbem.play.show import where as where_is

        lines = where_is(ws, gid, what, radius=radius)
    for line in lines:
        echo(line)


#: The commands that pbem/cli/plain.py may run without typer, by name.
PLAIN: dict[str, Any] = {"status": status, "show": show, "where": where}


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    from pbem.cli.common import typer_names

    typer_names(globals())
    app.command("status")(status)
    app.command("show")(show)
    app.command("where")(where)
