"""`pbem arena`: computer players against each other, without files or mail."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer

from pbem.cli.common import user_errors
from pbem.cli.progress import Progress, QuietOpt
from pbem.errors import PbemError
from pbem.play import ahead, sittings
from pbem.protocol import engine_link
from pbem.protocol.rules import Action, Decision, GameResult, State
from pbem.protocol.words import phase_name

#: The players the arena knows; the levels are docs/ai.md's "Levels".
PLAYERS_HELP = "gentle (level 1), v1 (level 2, the frozen reference), bot (level 3), deep (level 4) or random"


@user_errors
def arena(
    scenario: Annotated[str, typer.Option("--scenario", help="Scenario: 1937 or 1939")] = "1939",
    until: Annotated[str, typer.Option("--until", help="Stop when this month begins (YYYY-MM)")] = "1940-09",
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games")] = 1,
    axis: Annotated[str, typer.Option("--axis", help=f"Axis player: {PLAYERS_HELP}")] = "bot",
    allies: Annotated[str, typer.Option("--allies", help=f"Allied player: {PLAYERS_HELP}")] = "bot",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game; game i uses seed + i")] = 0,
    budget: Annotated[float | None, typer.Option("--budget", help="Seconds per decision (weaker, faster)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Games and summary as one JSON document")] = False,
    same_sitting: Annotated[
        bool,
        typer.Option(
            "--ahead/--no-ahead",
            help="The players give their lists for the month's coming simultaneous steps ahead, "
            "as `pbem bot play --ahead` does (--no-ahead: each when it comes, as a person who gives none ahead)",
        ),
    ] = True,
    react: Annotated[
        bool,
        typer.Option("--react", help="Count both sides as giving reaction orders (`pbem react`) in the sittings"),
    ] = False,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--compare",
            metavar="A B",
            help="Play A and B each against the reference v1 on the same seeds, on both sides, and print the "
            "mean difference of the territorial margin with its standard error (--axis, --allies and --ahead unused)",
        ),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Play computer against computer and print each game's result and a summary.  On a
    terminal a line on stderr shows the game, month and phase reached."""
    if compare is not None:
        _compare(scenario, until, games, compare, seed, budget, as_json, quiet)
        return

    results: list[dict[str, object]] = []
    tallies: list[sittings.Tally] = []
    # What each game would cost two people by today's files (pbem/play/sittings.py).
    emulation = [sittings.Emulation(str(seed), react=react)]
    bots = [ahead.AheadBot(scenario)] if same_sitting else []

    def decide_hidden(state: State, side: str, seed: bytes, player: str, budget_s: float | None) -> list[Action]:
        return bots[0].decide(state, side, seed, player, budget_s)

    def ended(r: GameResult) -> None:
        # A game stopped by an error ends inside its last month; otherwise the next month began.
        found = emulation[0].tally(last_whole=not r.error)
        tallies.append(found)
        given = {"ahead": bots[0].to_json()} if bots else {}
        results.append(r.to_json() | {"sittings": found.to_json()} | given)
        emulation[0] = sittings.Emulation(str(seed + len(results)), react=react)
        if bots:
            counted.append(bots[0])
            bots[0] = ahead.AheadBot(scenario)

    def decided(d: Decision, state: State) -> None:
        if bots:
            bots[0].seen(d, state)
        emulation[0].decision(d.kind, d.sides, d.when, d.phase, bots[0].standing(d) if bots else ())
        progress(f"arena: game {len(results) + 1} of {games}, {d.when} {phase_name(d.phase)}")

    def say(line: str) -> None:
        progress.close()  # a game's line starts at the left edge, not after the progress line
        typer.echo(line)

    counted: list[ahead.AheadBot] = []
    progress = Progress(quiet)

    try:
        summary = engine_link.arena().run(
            scenario,
            until,
            games,
            axis,
            allies,
            seed,
            budget,
            report=None if as_json else say,
            clock=time.perf_counter,
            on_game=ended,
            on_decision=decided,
            decide_hidden=decide_hidden if bots else None,
        )
    except engine_link.api().EngineError as exc:
        raise PbemError(str(exc), "arena") from None
    finally:
        progress.close()
    months = sittings.summary([m for t in tallies for m in t.months])
    fared = {k: sum(b.to_json()[k] for b in counted) for k in ("lists", "refitted", "orders", "misfits")}
    if as_json:
        given = {"ahead": fared} if same_sitting else {}
        doc = {"games": results, "summary": summary.to_json() | {"sittings": months} | given}
        typer.echo(json.dumps(doc, indent=1))
        return
    typer.echo(sittings.summary_line(months))
    if same_sitting:
        typer.echo(
            f"lists given ahead: {fared['lists']}, of which {fared['refitted']} had orders that no longer fitted "
            f"or left a cost the forecast did not show ({fared['misfits']} of {fared['orders']} orders no longer "
            "fitted; fallback: the computer player's choice)"
        )


def _compare(
    scenario: str,
    until: str,
    games: int,
    players: tuple[str, str],
    seed: int,
    budget: float | None,
    as_json: bool,
    quiet: bool,
) -> None:
    progress = Progress(quiet)
    rows: list[dict[str, object]] = []

    def ended(r: GameResult, sides: dict[str, str]) -> None:
        rows.append(sides | r.to_json())
        progress(f"arena --compare: {len(rows)} games played")

    def say(line: str) -> None:
        progress.close()
        typer.echo(line)

    try:
        found = engine_link.arena().compare(
            scenario,
            until,
            games,
            *players,
            seed=seed,
            budget_s=budget,
            report=None if as_json else say,
            clock=time.perf_counter,
            on_game=ended,
        )
    except engine_link.api().EngineError as exc:
        raise PbemError(str(exc), "arena") from None
    finally:
        progress.close()
    if as_json:
        typer.echo(json.dumps({"compare": found.to_json(), "games": rows}, indent=1))


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
