"""`pbem scenario list` and `pbem scenario info NAME [--json]`: what a scenario contains."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Annotated, Any

import typer

from engine.hexmap import HexMap, Kind
from engine.scenario import (
    Scenario,
    ScenarioError,
    Units,
    format_date,
    list_scenarios,
    load_scenario,
    scenario_digest,
)


def _load_world() -> HexMap:
    """The compiled world map.  A separate function so tests can put a small map in its place."""
    from scenarios.world import load_world  # imported late: the map is large and not every command needs it

    return load_world()


def _fail(message: str, code: int) -> None:
    print(message, file=sys.stderr)
    raise typer.Exit(code)


def _scenario_or_exit(name: str) -> Scenario:
    if name not in list_scenarios():
        _fail(f"unknown scenario '{name}'; choose one of: {', '.join(list_scenarios())}", 2)
    try:
        return load_scenario(name)
    except ScenarioError as exc:
        # Broken packaged data is a bug in the release, but the user still gets one line.
        _fail(f"error: scenario data is broken: {exc}", 1)
        raise  # unreachable; keeps type checkers content


def _world_or_exit() -> HexMap:
    try:
        return _load_world()
    except ImportError:
        _fail("error: the world map is not available in this installation (scenarios.world is missing)", 1)
    except (OSError, ValueError) as exc:
        _fail(f"error: cannot load the world map: {' '.join(str(exc).split())}", 1)
    raise AssertionError("unreachable")


def pool_summary(units: Units) -> dict[str, Any]:
    """A pool in numbers: land points per type (``type/move`` when the move is unusual)."""
    from engine.units import LAND_MOVE

    land: dict[str, int] = {}
    for lp in units.land:
        key = lp.type.value if lp.move == LAND_MOVE[lp.type] else f"{lp.type.value}/{lp.move}"
        land[key] = land.get(key, 0) + lp.points
    return {
        "land": land,
        "supply": units.supply,
        "naval": dict(sorted(Counter(p.type.value for p in units.naval).items())),
        "air": dict(sorted(Counter(p.type.value for p in units.air).items())),
        "naval_units": [{"name": p.name, "type": p.type.value, "profile": p.text()} for p in units.naval],
        "air_units": [{"name": p.name, "type": p.type.value, "profile": p.text()} for p in units.air],
    }


def scenario_info(scenario: Scenario, world: HexMap) -> dict[str, Any]:
    """Everything `info --json` prints: the scenario and the map it is played on."""
    label = world.grid.label
    country_of = world.country_of
    colonies: dict[str, list[str]] = {}
    for t in world.territories:
        if t.colony:
            colonies.setdefault(t.country, []).append(t.name)
    countries = []
    for c in scenario.countries:
        countries.append(
            {
                "name": c.name,
                "code": c.code,
                "region": c.region,
                "partnership": scenario.partnership(c.name),
                "joins_at_start": scenario.joins_at_start.get(c.name),
                "leans_allied": c.leans_allied,
                "leans_axis": c.leans_axis,
                "has_units": c.has_units,
                "rail_capacity": c.rail_capacity,
                "money": scenario.money.get(c.name, 0),
                "colonies": sorted(colonies.get(c.name, [])),
                "pool": pool_summary(scenario.pool(c.name)),
            }
        )
    cities = [
        {
            "name": city.name,
            "country": country_of[city.hex],
            "hex": label(city.hex),
            "capital": city.capital,
            "major_port": city.major_port,
            "resource": city.hex in world.resources,
        }
        for city in world.cities
    ]
    return {
        "name": scenario.name,
        "title": scenario.title,
        "start": format_date(scenario.start),
        "start_phase": scenario.start_phase,
        "data_digest": scenario_digest(scenario.name),
        "map_digest": world.digest(),
        "hexes": world.size,
        "land_hexes": sum(1 for k in world.kind if k != Kind.SEA),
        "resource_hexes": len(world.resources),
        "start_control": [
            {"temp_border": s.temp_border, "country": s.country, "first_turn_placement": s.first_turn_placement}
            for s in scenario.start_control
        ],
        "arrivals": len(scenario.arrivals),
        "countries": countries,
        "cities": cities,
    }


def _text(info: dict[str, Any]) -> str:
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
        for name in list_scenarios():
            typer.echo(f"{name}  {load_scenario(name).title}")

    @group.command("info")
    def info_cmd(
        name: Annotated[str, typer.Argument(help="Scenario name, e.g. 1939")],
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
    ) -> None:
        """Show a scenario: sides, money, pools, and the map it is played on."""
        scenario = _scenario_or_exit(name)
        info = scenario_info(scenario, _world_or_exit())
        if as_json:
            typer.echo(json.dumps(info, ensure_ascii=False, indent=1))
        else:
            typer.echo(_text(info))

    app.add_typer(group, name="scenario")
