"""`pbem arena`: computer players against each other, without files or mail."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Annotated

import typer

from pbem.cli.common import user_errors
from pbem.errors import PbemError
from pbem.play import sittings


@user_errors
def arena(
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario: 1937 or 1939")] = "1939",
    until: Annotated[str, typer.Option("--until", help="Stop when this month begins (YYYY-MM)")] = "1940-09",
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games")] = 1,
    axis: Annotated[str, typer.Option("--axis", help="Axis player: bot or random")] = "bot",
    allies: Annotated[str, typer.Option("--allies", help="Allied player: bot or random")] = "bot",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game; game i uses seed + i")] = 0,
    budget: Annotated[float | None, typer.Option("--budget", help="Seconds per decision (weaker, faster)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Games and summary as one JSON document")] = False,
    react: Annotated[
        bool,
        typer.Option("--react", help="Count both sides as giving reaction orders (`pbem react`) in the sittings"),
    ] = False,
) -> None:
    """Play computer against computer and print each game's result and a summary."""
    from engine.ai import arena as arena_mod
    from engine.api import EngineError

    results: list[dict[str, object]] = []
    tallies: list[sittings.Tally] = []
    # What each game would cost two people by today's files (pbem/play/sittings.py).
    emulation = [sittings.Emulation(str(seed), react=react)]

    def ended(r: arena_mod.GameResult) -> None:
        # A game stopped by an error ends inside its last month; otherwise the next month began.
        found = emulation[0].tally(last_whole=not r.error)
        tallies.append(found)
        results.append(dataclasses.asdict(r) | {"sittings": found.to_json()})
        emulation[0] = sittings.Emulation(str(seed + len(results)), react=react)

    try:
        summary = arena_mod.run(
            scenario,
            until,
            games,
            axis,
            allies,
            seed,
            budget,
            report=None if as_json else typer.echo,
            clock=time.perf_counter,
            on_game=ended,
            on_decision=lambda d: emulation[0].decision(d.kind, d.sides, d.when, d.phase),
        )
    except EngineError as exc:
        raise PbemError(str(exc), "arena") from None
    months = sittings.summary([m for t in tallies for m in t.months])
    if as_json:
        typer.echo(
            json.dumps({"games": results, "summary": dataclasses.asdict(summary) | {"sittings": months}}, indent=1)
        )
        return
    typer.echo(sittings.summary_line(months))


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
