"""`pbem scenario list` and `pbem scenario info NAME [--json]`: what a scenario contains.

`pbem scenario info` prints the start state's hash, which takes the whole engine, the
scenario data and a new game: its answer is kept in the user's cache folder
(pbem/store/usercache.py) under a key made of the engine's code, the scenario data and
the world map, so the second run reads it without importing the engine, NumPy or typer
(the commands run without typer: :data:`PLAIN`, pbem/cli/plain.py).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

from pbem.cli.basics import echo

if TYPE_CHECKING:
    import typer

    from pbem.protocol.rules import ScenarioInfo, WorldMap

    # Only a type: the engine is loaded when a command runs, and the value is a plain dict.
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


#: the packaged map's loader: only its answers are kept (another map has no files to key them by)
_PACKAGED_WORLD = _load_world


def _fail(message: str, code: int) -> NoReturn:
    echo(message, err=True)
    raise SystemExit(code)


def _info_or_exit(name: str) -> PinnedScenario:
    key = _cache_key(name)
    if key is not None:
        kept = _kept_info(name, key)
        if kept is not None:
            return kept
    info = _made_info(name)
    if key is not None:
        from pbem.store import usercache

        usercache.write(_cache_name(name), key, json.dumps(info, ensure_ascii=False).encode())
    return info


def _made_info(name: str) -> PinnedScenario:
    from pbem.protocol import engine_link  # imported late: a kept answer needs no engine

    api = engine_link.api()
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


def _cache_name(name: str) -> str:
    return f"scenario-info-{name}.json"


def _cache_key(name: str) -> str | None:
    """What the description of ``name`` is made from: the engine's code and every file of
    the scenarios package (the scenario data, the world map and its tables, their loader),
    and this module; None when it is not kept (a map put in the packaged one's place, a
    name that is no file name, a package not found as files)."""
    if _load_world is not _PACKAGED_WORLD or not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name):
        return None
    from pbem.store import usercache

    roots = [_package_folder("engine"), _package_folder("scenarios"), Path(__file__)]
    if None in roots:
        return None
    try:
        return usercache.files_digest(roots)  # type: ignore[arg-type]  # no None left
    except OSError:
        return None


def _package_folder(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    places = spec.submodule_search_locations if spec is not None else None
    return Path(places[0]) if places else None


def _kept_info(name: str, key: str) -> PinnedScenario | None:
    from pbem.store import usercache

    body = usercache.read(_cache_name(name), key)
    if body is None:
        return None
    try:
        info: Any = json.loads(body)
    except ValueError:
        return None
    if not (isinstance(info, dict) and info.get("name") == name):
        return None
    return cast("PinnedScenario", info)  # written from one (_info_or_exit) under the same key


def _world_or_exit() -> WorldMap:
    try:
        return _load_world()
    except ImportError:
        _fail("error: the world map is not available in this installation (scenarios.world is missing)", 1)
    except (OSError, ValueError) as exc:
        _fail(f"error: cannot load the world map: {' '.join(str(exc).split())}", 1)


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


def list_cmd() -> None:
    """List the scenarios."""
    from pbem.protocol import engine_link

    for name, title in engine_link.api().scenarios().items():
        echo(f"{name}  {title}")


def info_cmd(
    name: Annotated[str, typer.Argument(help="Scenario name, e.g. 1939")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output")] = False,
) -> None:
    """Show a scenario: sides, money, pools, and the map it is played on."""
    info = _info_or_exit(name)
    echo(json.dumps(info, ensure_ascii=False, indent=1) if as_json else _text(info))


#: The commands that pbem/cli/plain.py may run without typer, by name.
PLAIN: dict[str, Any] = {"scenario list": list_cmd, "scenario info": info_cmd}


def register(app: typer.Typer) -> None:
    """Add this module's commands to the root app."""
    import typer

    from pbem.cli.common import typer_names

    typer_names(globals())
    group = typer.Typer(help="The scenarios: what each one sets up.", no_args_is_help=True)
    group.command("list")(list_cmd)
    group.command("info")(info_cmd)
    app.add_typer(group, name="scenario")
