"""``pbem map``: draw the world map of a scenario as an SVG picture."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

SCENARIOS = ("1937", "1939")


def map_command(
    out: Annotated[Path, typer.Option("--out", help="SVG file to write.")],
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario whose map to draw: 1937 or 1939.")] = "1939",
    region: Annotated[
        str, typer.Option("--region", help="europe, pacific, asia, africa, americas or world.")
    ] = "europe",
) -> None:
    """Write the map (terrain, borders, cities, ports, railways, canals) of a region as SVG."""
    from scenarios.mapview import REGIONS, render_svg
    from scenarios.world import load_world

    if scenario not in SCENARIOS:
        typer.echo(f"Unknown scenario '{scenario}'; choose one of {', '.join(SCENARIOS)}.", err=True)
        raise typer.Exit(2)
    if region.lower() not in REGIONS:
        typer.echo(f"Unknown region '{region}'; choose one of {', '.join(REGIONS)}.", err=True)
        raise typer.Exit(2)
    # both scenarios are played on the same world map; they differ in units and control
    svg = render_svg(load_world(), region.lower())
    try:
        out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"Could not write {out}: {exc.strerror or exc}.", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Wrote the {region.lower()} map of scenario {scenario} to {out}.")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    app.command("map")(map_command)
