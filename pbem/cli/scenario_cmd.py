"""`pbem scenario list` and `pbem scenario info NAME [--json]`: what a scenario contains."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from engine.api import ScenarioInfo, WorldMap

    # Only a type: the engine is imported when a command runs, and the value is a plain dict.
    class PinnedScenario(ScenarioInfo):
        """The engine's description with what a turn-file verifier pins
        (docs/turn-file-format.md, "Pinned scenarios")."""

        engine: str
        digest: str
        start_state: str


def _load_world() -> WorldMap:
    """The compiled world map.  A separate function so tests can put a small map in its place."""
    from scenarios.world import load_world  # imported late: the map is large and not every command needs it

    return load_world()


def _fail(message: str, code: int) -> None:
    print(message, file=sys.stderr)
    raise typer.Exit(code)


def _info_or_exit(name: str) -> PinnedScenario:
    from engine import api  # imported late: not every command needs the engine

    names = api.scenario_names()
    if name not in names:
        _fail(f"unknown scenario '{name}'; choose one of: {', '.join(names)}", 2)
    try:
        info: PinnedScenario = {
            **api.describe_scenario(name, _world_or_exit()),
            "engine": api.ENGINE_VERSION,
            "digest": api.scenario_digest(name),
            "start_state": api.state_hash(api.new_game(name, {})).hex(),
        }
        return info
    except api.ScenarioError as exc:
        # Broken packaged data is a bug in the release, but the user still gets one line.
        _fail(f"error: scenario data is broken: {exc}", 1)
        raise  # unreachable; keeps type checkers content


def _world_or_exit() -> WorldMap:
    try:
        return _load_world()
    except ImportError:
        _fail("error: the world map is not available in this installation (scenarios.world is missing)", 1)
    except (OSError, ValueError) as exc:
        _fail(f"error: cannot load the world map: {' '.join(str(exc).split())}", 1)
    raise AssertionError("unreachable")


def _text(info: PinnedScenario) -> str:
    out = [
        f"{info['name']}: {info['title']}",
        f"  starts {info['start']}, {info['start_phase'].replace('_', ' ')} phase",
        f"  map: {info['hexes']} hexes, {info['land_hexes']} land, {len(info['cities'])} cities, "
        f"{info['resource_hexes']} resource hexes",
    ]
    for side in ("axis", "allies"):
        names = [c["name"] for c in info["countries"] if c["partnership"] == side]
        joining = [c["name"] for c in info["countries"] if c["joins_at_start"] == side]
        line = f"  {side}: {', '.join(names) or '-'}"
        if joining:
            line += f" (joining in the first phase: {', '.join(joining)})"
        out.append(line)
    for sc in info["start_control"]:
        extra = ", may place units there in the first turn" if sc["first_turn_placement"] else ""
        out.append(f"  {sc['country']} controls '{sc['temp_border']}'{extra}")
    out.append(f"  {info['arrivals']} scheduled arrivals")
    out.append(f"  engine {info['engine']}, scenario digest {info['digest']}")
    out.append(f"  state hash at the start {info['start_state']}")
    out.append("")
    out.append(f"  {'country':<16} {'side':<7} {'money':>6}  {'land points':<46} {'naval':>5} {'air':>4}")
    for c in info["countries"]:
        pool = c["pool"]
        if not c["has_units"]:
            continue
        land = ", ".join(f"{n} {k}" for k, n in pool["land"].items())
        if pool["supply"]:
            land += f", {pool['supply']} supply"
        out.append(
            f"  {c['name']:<16} {c['partnership']:<7} {c['money']:>6}  {land:<46} "
            f"{sum(pool['naval'].values()):>5} {sum(pool['air'].values()):>4}"
        )
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    group = typer.Typer(help="The scenarios: what each one sets up.", no_args_is_help=True)

    @group.command("list")
    def list_cmd() -> None:
        """List the scenarios."""
        from engine import api

        for name, title in api.scenarios().items():
            typer.echo(f"{name}  {title}")

    @group.command("info")
    def info_cmd(
        name: Annotated[str, typer.Argument(help="Scenario name, e.g. 1939")],
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
    ) -> None:
        """Show a scenario: sides, money, pools, and the map it is played on."""
        info = _info_or_exit(name)
        if as_json:
            typer.echo(json.dumps(info, ensure_ascii=False, indent=1))
        else:
            typer.echo(_text(info))

    app.add_typer(group, name="scenario")
