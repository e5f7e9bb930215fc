"""`pbem arena`: computer players against each other, without files or mail."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Annotated

import typer

from pbem.cli.common import user_errors
from pbem.errors import PbemError


@user_errors
def arena(
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario: 1937 or 1939")] = "1939",
    until: Annotated[str, typer.Option("--until", help="Stop when this month begins (YYYY-MM)")] = "1940-09",
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games")] = 1,
    axis: Annotated[str, typer.Option("--axis", help="Axis player: bot or random")] = "bot",
    allies: Annotated[str, typer.Option("--allies", help="Allied player: bot or random")] = "bot",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game; game i uses seed + i")] = 0,
    budget: Annotated[float | None, typer.Option("--budget", help="Seconds per decision (weaker, faster)")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print each game and the summary as one JSON document")
    ] = False,
) -> None:
    """Play computer against computer and print each game's result and a summary."""
    from engine.ai import arena as arena_mod
    from engine.api import EngineError

    report = None if as_json else typer.echo
    try:
        summary = arena_mod.run(
            scenario, until, games, axis, allies, seed, budget, report=report, clock=time.perf_counter
        )
    except EngineError as exc:
        raise PbemError(str(exc), "arena") from None
    if as_json:
        doc = dataclasses.asdict(summary)
        doc["games_played"] = doc.pop("results")
        typer.echo(json.dumps(doc, sort_keys=True))


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
