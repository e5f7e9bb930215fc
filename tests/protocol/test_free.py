"""Where my waiting units may go, at the Axis' first 1939 deployment on the real engine:
`pbem where GAME --free [UNIT|PLACE]` (every hex it names is one the rules take, a full
city is left out, the stacking numbers count what stands there) and the free hexes a
refusal for a full hex names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import turn
from pbem.protocol import engine_link
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo
from tests.protocol.test_look import copy_game, deployment_game

__all__ = ["deployment_game"]  # the module's fixture, shared with test_look.py

BERLIN = "161,52"
TWO_IN_BERLIN = ["place_land Germany infantry 3 4 [Berlin]", "place_land Germany armor 5 4 [Berlin]"]


@pytest.fixture
def game(deployment_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Duo:
    duo = copy_game(deployment_game, tmp_path)
    monkeypatch.setenv("PBEM_HOME", str(duo.axis.home))
    monkeypatch.setenv("PBEM_WORKSPACE", str(duo.axis.ws.root))
    return duo


def cli(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def free_json(duo: Duo, *what: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(cli("where", duo.gid, "--free", *what, "--json"))
    return found


def placing(found: dict[str, Any], label: str) -> dict[str, Any]:
    """The placing whose waiting units include one labelled ``label...``."""
    (p,) = [p for p in found["placings"] if any(w["label"].startswith(label) for w in p["waiting"])]
    return p


def rooms(p: dict[str, Any]) -> dict[str, tuple[int, int | None]]:
    return {r["hex"]: (r["used"], r["limit"]) for r in p["hexes"]}


def legal_hexes(duo: Duo, country: str, unit_type: str) -> set[str]:
    """The hexes of the legal orders placing one point of ``country``'s ``unit_type``, as the engine gives them."""
    api = engine_link.api()
    t = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home))
    state = t.work.state
    if t.pending.sim:
        state = api.preview(state, "axis", [api.Action.from_wire(w) for w in t.pending.sim])
    return {
        api.format_action(state, a).split()[-1]
        for a in api.legal_matching(state, "axis", kinds=["place_land"])
        if a.args[0] == country and a.args[1] == unit_type and a.args[3] == 1
    }


def test_free_lists_the_hexes_the_rules_take_with_their_room(game: Duo) -> None:
    found = free_json(game)
    assert (found["side"], found["when"], found["phase"]) == ("axis", "1939-09", "deployment")
    land = placing(found, "Germany infantry move 3")
    assert land["counts"] == "land units"
    assert set(rooms(land)) == legal_hexes(game, "Germany", "infantry")
    assert rooms(land)[BERLIN] == (0, 2)
    berlin = next(r for r in land["hexes"] if r["hex"] == BERLIN)
    assert (berlin["city"], berlin["city_distance"]) == ("Berlin", 0)
    ships = placing(found, "#68 Germany Scharnhorst")
    assert ships["counts"] == "ships" and {w["order"] for w in ships["waiting"]} >= {"place #68 HEX"}


def test_a_full_city_is_left_out_and_the_numbers_count_my_list(game: Duo, tmp_path: Path) -> None:
    orders = tmp_path / "mine.txt"
    orders.write_text("\n".join([*TWO_IN_BERLIN, "place_land Germany infantry 3 2 160,52"]) + "\n")
    cli("orders", game.gid, str(orders))
    found = free_json(game)
    land = rooms(placing(found, "Germany infantry move 3"))
    assert BERLIN not in land  # full: two ordinary land units stand there
    assert land["160,52"] == (1, 2)
    assert set(land) == legal_hexes(game, "Germany", "infantry")
    # Berlin still takes a paratrooper and a supply unit: they are counted apart.
    assert rooms(placing(found, "Germany paratrooper"))[BERLIN] == (0, 1)
    assert rooms(placing(found, "Germany supply"))[BERLIN] == (0, 1)
    text = cli("where", game.gid, "--free", "Berlin")
    land_part = text.split("Germany armor move 5")[1].split("\n\n")[0]
    assert "0 away: 161,52" not in land_part and "1 away: 160,52  1/2" in land_part
    assert "Germany infantry move 3: 174 points" in text  # 180 waiting, 6 listed


def test_free_for_one_unit_and_for_a_unit_not_waiting(game: Duo) -> None:
    found = free_json(game, "#68")
    (ships,) = found["placings"]
    assert {r["hex"]: r["city"] for r in ships["hexes"]} == {
        "157,49": "Kiel",
        "157,50": "Hamburg",
        "156,50": "Wilhelmshaven",
    }
    assert all(r["limit"] is None for r in ships["hexes"])  # major ports of their own side
    text = cli("where", game.gid, "--free", "#68")
    assert "Kiel (1): 157,49 [Kiel] 0/no limit" in text
    out = cli("where", game.gid, "--free", "#99999", code=1)
    assert out.strip() == (
        "error: unit #99999 is not one of yours waiting to be placed now; "
        f"`pbem where {game.gid} --free` lists those that are"
    )
    out = cli("where", game.gid, "--free", "Atlantis", code=1)
    assert out.startswith("error: ") and "Atlantis" in out and "Traceback" not in out


def test_where_without_a_place_asks_for_one_or_for_free(game: Duo) -> None:
    out = cli("where", game.gid, code=1)
    assert out.strip() == "error: name a #UNIT or a place (a city's name, [City] or COL,ROW), or give --free"


def test_a_refusal_for_a_full_city_names_free_hexes_near_it(game: Duo) -> None:
    p = game.axis
    third = "place_land Germany infantry 3 1 [Berlin]"
    before = LocalGame(p.ws, game.gid, p.home).pending().to_wire()
    with pytest.raises(PbemError) as refused:
        turn.orders(p.ws, game.gid, [*TWO_IN_BERLIN, third], p.home)
    text = str(refused.value)
    assert refused.value.rule == "stacking.land" and text.startswith("line 3: ")
    assert "Berlin (161,52) is full (stacking: 2 of 2 land units); free hexes near it: " in text
    named = [part.split(" (")[0] for part in text.split("free hexes near it: ")[1].split(", ")]
    assert len(named) == 4 and BERLIN not in named
    assert LocalGame(p.ws, game.gid, p.home).pending().to_wire() == before  # nothing was added
    # Each hex the hint names takes the unit.
    for hex_ in named:
        turn.orders(p.ws, game.gid, [f"place_land Germany infantry 3 1 {hex_}"], p.home)
    # A refusal of another kind gets no such hint.
    with pytest.raises(PbemError) as other:
        turn.orders(p.ws, game.gid, ["place_land Germany infantry 3 99 160,52"], p.home)
    assert "free hexes" not in str(other.value)


def listed(duo: Duo) -> list[str]:
    """My unsent list, as the order language writes it."""
    api = engine_link.api()
    t = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home))
    return [api.format_action(t.work.state, api.Action.from_wire(w)) for w in t.pending.sim or []]


def test_as_suggested_except_my_lines_on_the_same_units(game: Duo, tmp_path: Path) -> None:
    proposal = [
        line.split("  #")[0]
        for line in turn.suggest(game.axis.ws, game.gid, game.axis.home).splitlines()
        if line and not line.startswith("#") and line != "pass"
    ]
    (theirs,) = [line for line in proposal if line.startswith("place #68 ")]
    # The Scharnhorst to another of the three German ports (Kiel, Hamburg, Wilhelmshaven).
    port = sorted({"157,49", "157,50", "156,50"} - {theirs.split()[-1]})[0]
    changes = tmp_path / "changes.txt"
    changes.write_text(f"# mine instead\nplace #68 {port}\nplace_land Germany infantry 3 4 160,52\n")
    out = cli("orders", game.gid, str(changes), "--suggested")
    assert "your 2, then " in out and "1 of its orders replaced by yours on the same units" in out
    mine = listed(game)
    assert mine[:2] == [f"place #68 {port}", "place_land Germany infantry 3 4 160,52"]
    assert theirs not in mine and [m for m in mine if m.startswith("place #68 ")] == [f"place #68 {port}"]
    # The rest of the proposal follows in its order: each of its orders is listed or named as left out.
    rest = [line for line in proposal if line != theirs]
    assert mine[2:] == [line for line in rest if line in mine[2:]]
    for line in rest:
        assert line in mine[2:] or line in out


def test_as_suggested_with_a_wrong_line_adds_nothing(game: Duo, tmp_path: Path) -> None:
    changes = tmp_path / "changes.txt"
    changes.write_text("place #68 [Atlantis]\nplace #68 [Hamburg]\nplace_land Germany infantry 3 99 160,52\n")
    out = cli("orders", game.gid, str(changes), "--suggested", code=1)
    assert out.startswith("error: 2 wrong lines, nothing added") and "line 1: " in out and "line 3: " in out
    assert listed(game) == []


def test_as_suggested_outside_a_hidden_step_says_what_to_run(game: Duo) -> None:
    out = cli("orders", game.gid, code=1)
    assert out.strip() == "error: give a FILE of orders (or - for stdin), or --suggested or --as-last-month"


def test_free_once_my_list_is_sealed_says_nothing_waits(game: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    # The Allies handed in their deployment first in this game: the decision is no longer theirs.
    monkeypatch.setenv("PBEM_HOME", str(game.allies.home))
    monkeypatch.setenv("PBEM_WORKSPACE", str(game.allies.ws.root))
    assert cli("where", game.gid, "--free").strip() == (
        f"nothing of yours waits to be placed in game {game.gid} now (1939-09 deployment; "
        f"`pbem status {game.gid}` says what is awaited)"
    )
    assert free_json(game)["placings"] == []
