"""``pbem map``: draw a scenario's world map, or a game's position as one side sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.common import WorkspaceOpt, user_errors, workspace
from pbem.errors import PbemError

SCENARIOS = ("1937", "1939")
FORMATS = {".svg": "svg", ".png": "png"}


@user_errors
def map_command(
    out: Annotated[Path, typer.Option("--out", help="File to write: .svg or .png.")],
    game: Annotated[
        str | None,
        typer.Argument(
            help="A game of the workspace (a unique start of its id) or a folder of a game's files "
            "(as `pbem selfplay --out` writes). Without it, the scenario's map is drawn.",
            show_default=False,
        ),
    ] = None,
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario whose map to draw: 1937 or 1939.")] = "1939",
    region: Annotated[
        str | None,
        typer.Option(
            "--region",
            help="europe, eastern-front, western-europe, mediterranean, atlantic, pacific, china, "
            "south-east-asia, asia, africa, americas or world (a game: the busiest front by default; "
            "a scenario: europe).",
        ),
    ] = None,
    bbox: Annotated[
        str | None, typer.Option("--bbox", help="X0,Y0,X1,Y1: the box between two hexes (COL,ROW) of a game.")
    ] = None,
    side: Annotated[
        str | None,
        typer.Option("--side", help="axis or allies: whose view (default: your side; axis for a folder)."),
    ] = None,
    at: Annotated[
        int | None, typer.Option("--at", help="Draw the position after file N instead of the last one.")
    ] = None,
    ws_path: WorkspaceOpt = None,
) -> None:
    """Write a map as SVG or PNG: a game's position (control, installations, every unit the
    side sees, date, phase and weather), or with no GAME the map of a scenario."""
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise PbemError(f"{out.name}: the picture is written as .svg or .png", "usage")
    if game is None:
        if bbox is not None or side is not None or at is not None:
            raise PbemError("--bbox, --side and --at draw a game: name the game (or its folder) first", "usage")
        data = _scenario_map(scenario, region or "europe", fmt)
        what = f"the {(region or 'europe').lower()} map of scenario {scenario}"
    else:
        # checked before a record is replayed, which takes seconds
        if side is not None and side not in ("axis", "allies"):
            raise PbemError(f"'{side[:20]}' is not a side; the sides are axis and allies", "usage")
        if region is not None and bbox is not None:
            raise PbemError("give --region or --bbox, not both", "usage")
        data, what = _game_map(game, ws_path, side, region, bbox, at, fmt)
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise PbemError(f"could not write {out}: {exc.strerror or exc}", "io") from None
    typer.echo(f"Wrote {what} to {out}.")


def _scenario_map(scenario: str, region: str, fmt: str) -> bytes:
    from scenarios.gameview import render_png
    from scenarios.mapview import REGIONS, render_svg
    from scenarios.world import load_world

    if scenario not in SCENARIOS:
        raise PbemError(f"unknown scenario '{scenario[:40]}'; choose one of {', '.join(SCENARIOS)}", "usage")
    if region.lower() not in REGIONS:
        raise PbemError(f"unknown region '{region[:40]}'; choose one of {', '.join(REGIONS)}", "usage")
    # both scenarios are played on the same world map; they differ in units and control
    svg = render_svg(load_world(), region.lower())
    return render_png(svg) if fmt == "png" else svg.encode("utf-8")


def _game_map(
    game: str,
    ws_path: Path | None,
    side: str | None,
    region: str | None,
    bbox: str | None,
    at: int | None,
    fmt: str,
) -> tuple[bytes, str]:
    from pbem.play import gamemap, history
    from pbem.store.localgame import LocalGame

    folder = Path(game)
    if folder.is_dir():
        files = history.record_files(folder)
        view = side or "axis"
        position = history.position(files, at, history.record_base(folder, files))
    else:
        ws = workspace(ws_path)
        gid = ws.resolve_game(game)
        lg = LocalGame(ws, gid)
        view = side or lg.me
        if at is None:
            with ws.game_locked(gid):
                state, seq, unsent = gamemap.now(LocalGame(ws, gid))
            after = f"after file {seq}" + (" and your orders not yet sent" if unsent else "")
            data = gamemap.render(state, view, region, bbox, "png" if fmt == "png" else "svg")
            return data, f"game {gid} {after}, as the {view} see it,"
        position = history.position(history.workspace_files(ws, gid), at, lg.base())
    data = gamemap.render(position.state, view, region, bbox, "png" if fmt == "png" else "svg")
    return data, f"game {position.gid} after file {position.seq}, as the {view} see it,"


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("map")(map_command)
