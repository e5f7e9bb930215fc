"""Looking before deciding, on the real engine and a 1939 game: `pbem hex`, `pbem legal`,
`pbem suggest` (the computer player's proposal, equal to what `bot play` gives), and the
refusal of a pass that would cost units or money unless it is confirmed."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.common import pass_anyway
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import look, turn
from pbem.protocol import engine_link, machine, turnfile
from pbem.protocol.machine import Expectation
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo, Player, make_duo

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def deployment_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A 1939 game at the Axis' first deployment (about 250 placements to decide)."""
    engine_link.use(None)
    root = tmp_path_factory.mktemp("game39")
    duo = make_duo(root, "1939")
    duo.play_until(lambda d: phase(d) == "deployment" and d.to_move() == "axis", limit=20)
    engine_link.use(None)
    yield root


def phase(duo: Duo) -> str:
    return str(engine_link.api().decision(duo.game("axis").state).phase)


def copy_game(base: Path, tmp_path: Path) -> Duo:
    """An independent copy of the fixture's game (both players' homes and workspaces)."""
    engine_link.use(None)
    root = tmp_path / "copy"
    shutil.copytree(base, root)
    players = {}
    for side in ("axis", "allies"):
        p = Player(side, root / f"home-{side}", Workspace(root / f"ws-{side}"))
        p.seen = {f.name for f in p.ws.outbox.glob("*.pbem")}
        players[side] = p
    (gid,) = [d.name for d in (root / "ws-axis" / ".pbem" / "games").iterdir()]
    return Duo(players["axis"], players["allies"], gid, root / "rec")


def sealed_records(duo: Duo, path: Path) -> list[Any]:
    return list(turnfile.read(path).body["records"])


def by_destination(records: list[Any]) -> list[Any]:
    """Sealed records with each move as a person gives it, by its destination (a file
    carries a move's whole path: pbem.protocol.machine.spelled)."""
    return [["act", ["move", r[1][1], r[1][-1]]] if r[0] == "act" and r[1][0] == "move" else r for r in records]


def twin(duo: Duo, tmp_path: Path) -> Duo:
    """A copy of ``duo``'s game as it stands, pending orders included."""
    root = tmp_path / "twin"
    for side in ("axis", "allies"):
        p = duo.player(side)
        shutil.copytree(p.home, root / f"home-{side}")
        shutil.copytree(p.ws.root, root / f"ws-{side}")
    (root / "rec").mkdir()
    players = {s: Player(s, root / f"home-{s}", Workspace(root / f"ws-{s}")) for s in ("axis", "allies")}
    return Duo(players["axis"], players["allies"], duo.gid, root / "rec")


def suggest_then_orders(duo: Duo, tmp_path: Path, force: bool = False) -> str:
    p = duo.axis
    text = turn.suggest(p.ws, duo.gid, p.home)
    (tmp_path / "proposal.txt").write_text(text)
    turn.orders(p.ws, duo.gid, (tmp_path / "proposal.txt").read_text().splitlines(), p.home, force=force)
    return text


def test_suggest_at_the_1939_deployment_gives_what_bot_play_gives(deployment_game: Path, tmp_path: Path) -> None:
    duo = copy_game(deployment_game, tmp_path)
    bot = twin(duo, tmp_path)
    by_bot = sealed_records(bot, turn.bot_play(bot.axis.ws, bot.gid, bot.axis.home))
    text = suggest_then_orders(duo, tmp_path)
    assert text.startswith(f"# game {duo.gid}, 1939-09, deployment:")
    placements = [line for line in text.splitlines() if line.startswith("place")]
    assert len(placements) >= 150
    by_hand = sealed_records(duo, turn.send(duo.axis.ws, duo.gid, duo.axis.home))
    assert by_hand == by_bot


@pytest.fixture(scope="module")
def movement_game(deployment_game: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The game moved on to the Axis' first movement phase (overrun passed by hand)."""
    duo = copy_game(deployment_game, tmp_path_factory.mktemp("movement39"))
    duo.play_until(lambda d: phase(d) == "axis.overrun" and d.to_move() == "axis", limit=20)
    turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home)
    work = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work
    assert engine_link.api().decision(work.state).phase == "axis.first_movement"
    engine_link.use(None)
    yield duo.axis.ws.root.parent


@pytest.fixture
def first_movement(movement_game: Path, tmp_path: Path) -> Duo:
    """An independent copy of the game at the Axis' first movement phase."""
    return copy_game(movement_game, tmp_path)


def pending(duo: Duo) -> dict[str, Any]:
    """My pending turn in its stored form (records as their wire lists)."""
    return LocalGame(duo.axis.ws, duo.gid, duo.axis.home).pending().to_wire()


def test_suggest_in_a_movement_phase_gives_what_bot_play_gives(first_movement: Duo, tmp_path: Path) -> None:
    duo = first_movement
    bot = twin(duo, tmp_path)
    by_bot = sealed_records(bot, turn.bot_play(bot.axis.ws, bot.gid, bot.axis.home))
    suggest_then_orders(duo, tmp_path, force=True)  # the bot passes knowingly; the file says what it costs
    mine = pending(duo)["records"]
    assert mine == by_destination(by_bot)[: len(mine)]
    assert any(len(r[1]) > 3 for r in by_bot if r[1][0] == "move")  # the file spells moves out
    assert mine[-1] == ["act", ["pass"]] and len(mine) > 2
    work = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work
    assert engine_link.api().decision(work.state).phase != "axis.first_movement"
    assert machine.expected(work) is not None


def test_a_pass_that_leaves_units_out_of_supply_is_refused_until_forced(first_movement: Duo) -> None:
    duo, api = first_movement, engine_link.api()
    work = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work
    warnings = api.pass_warnings(work.state, "axis")
    assert [w.slug for w in warnings] == ["pass.out-of-supply"]  # this game's Japanese units in China
    before = pending(duo)
    with pytest.raises(PbemError) as refused:
        turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home)
    assert refused.value.code == "pass-warning" and refused.value.rule == "pass.out-of-supply"
    # The service says what passing costs; how to pass anyway is each face's to say.
    assert warnings[0].sentence in str(refused.value) and "`pbem" not in str(refused.value)
    assert pending(duo) == before  # nothing was added
    turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home, force=True)
    assert pending(duo)["records"][-1] == ["act", ["pass"]]


def test_money_left_unspent_is_refused_on_pass_and_on_send_until_forced(deployment_game: Path, tmp_path: Path) -> None:
    duo = copy_game(deployment_game, tmp_path)
    # the build of 1939-10: the bot places every supply unit, so 1939-09 has nothing to buy
    duo.play_until(lambda d: phase(d) == "build" and d.to_move() == "axis", limit=60)
    p = duo.axis
    # The command line says how to pass anyway (pbem/cli/common.py), naming the command run.
    cli = pass_anyway(f"`pbem orders {duo.gid} FILE`")
    with pytest.raises(PbemError, match=r"money left unspent.*Germany") as refused, cli:
        turn.orders(p.ws, duo.gid, ["pass"], p.home)
    assert refused.value.rule == "pass.money-unspent" and "pbem orders" in str(refused.value)
    # A list without pass ends the decision when it is sealed: send asks too.
    api = engine_link.api()
    work = turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work
    one = next(a for a in api.legal_matching(work.state, "axis", kinds=["buy"]) if a.args[3] == 1)
    turn.orders(p.ws, duo.gid, [api.format_action(work.state, one)], p.home)
    with pytest.raises(PbemError, match="money left unspent") as refused, pass_anyway(f"`pbem send {duo.gid}`"):
        turn.send(p.ws, duo.gid, p.home)
    assert f"pbem send {duo.gid}` with --force" in str(refused.value)
    path = turn.send(p.ws, duo.gid, p.home, force=True)
    assert sealed_records(duo, path)


def front_hex(duo: Duo) -> str:
    """A hex holding a Polish land unit next to a German land unit."""
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    hexmap = state.world.map
    german = {u.hex for u in state.units.values() if u.country == "Germany" and u.is_land and u.on_map}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.country == "Poland" and u.is_land and u.on_map and german & set(hexmap.land_neighbours[u.hex]):
            return str(hexmap.grid.label(u.hex))
    raise AssertionError("no front in this game")


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_hex_legal_and_suggest_on_the_command_line(
    first_movement: Duo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duo = first_movement
    monkeypatch.setenv("PBEM_HOME", str(duo.axis.home))
    ws = str(duo.axis.ws.root)
    out = run("--workspace", ws, "hex", duo.gid, "[Berlin]")
    assert out.startswith("hex 161,52 [Berlin]: clear, Germany") and "controlled by Germany (axis)" in out
    assert "capital city Berlin" in out and "in supply" in out
    out = run("--workspace", ws, "hex", duo.gid, front_hex(duo))
    assert "if you attacked now with" in out and "odds " in out and "  attacker #" in out
    bad = CliRunner().invoke(app, ["--workspace", ws, "hex", duo.gid, "[Warsw]"])
    assert bad.exit_code == 1 and bad.output.strip() == "error: there is no city named Warsw; did you mean Warsaw?"

    out = run("--workspace", ws, "legal", duo.gid, "--hex", "[Berlin]", "--kind", "move", "--limit", "3")
    head, *shown = out.splitlines()
    count = int(head.split()[0])
    assert count > 3 and len(shown) == 3 and all(line.strip().startswith("move #") for line in shown)
    unit = shown[0].split()[1]
    out = run("--workspace", ws, "legal", duo.gid, "--unit", unit, "--limit", "0")
    assert all(f" {unit} " in line + " " for line in out.splitlines()[1:])
    assert run("--workspace", ws, "legal", duo.gid, "--country", "Atlantis").startswith("0 legal order(s)")

    target = tmp_path / "mine.txt"
    assert run("--workspace", ws, "suggest", duo.gid, "--out", str(target)).startswith("wrote")
    assert target.read_text().startswith(f"# game {duo.gid}") and "\npass\n" in target.read_text()

    passing = tmp_path / "pass.txt"
    passing.write_text("pass\n")
    refused = CliRunner().invoke(app, ["--workspace", ws, "orders", duo.gid, str(passing)])
    assert refused.exit_code == 1 and refused.output.count("\n") == 1
    assert refused.output.startswith("error: line 1: passing now would cost you: ") and "--force" in refused.output
    assert "order(s) added" in run("--workspace", ws, "orders", duo.gid, str(passing), "--force")


def test_a_pass_that_loses_aircraft_in_the_air_is_refused_until_forced(first_movement: Duo) -> None:
    duo, api, p = first_movement, engine_link.api(), first_movement.axis
    state = turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work.state
    hexmap = state.world.map
    plane = next(u for u in sorted(state.units.values(), key=lambda x: x.id)
                 if u.country == "Germany" and u.is_air and u.on_map and u.carrier == -1)  # fmt: skip
    # A mission to a hex with no air base: the aircraft is still in the air afterwards.
    mission = next(a for a in api.legal_matching(state, "axis", units=[plane.id], kinds=["move"])
                   if a.args[-1] not in hexmap.city_at and a.args[-1] not in hexmap.resources
                   and a.args[-1] not in state.airfields)  # fmt: skip
    turn.orders(p.ws, duo.gid, [api.format_action(state, mission), "pass"], p.home, force=True)
    for _ in range(30):  # every later decision passed, the opponent's played by the computer
        work = turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work
        exp = machine.expected(work)
        assert exp is not None
        if exp == Expectation("axis", "act") and api.decision(work.state).phase == "axis.second_movement":
            break
        if exp == Expectation("axis", "act"):
            turn.orders(p.ws, duo.gid, ["pass"], p.home, force=True)
            continue
        if pending(duo)["records"]:
            turn.send(p.ws, duo.gid, p.home)
        duo.step()
    else:
        raise AssertionError("the Axis second movement never came")
    with pytest.raises(PbemError) as refused:
        turn.orders(p.ws, duo.gid, ["pass"], p.home)
    assert refused.value.rule == "pass.air-lost" and f"#{plane.id} " in str(refused.value)
    assert "would be eliminated" in str(refused.value)
    turn.orders(p.ws, duo.gid, ["pass"], p.home, force=True)
    assert pending(duo)["records"][-1] == ["act", ["pass"]]


def test_hex_shows_the_stack_as_the_page_does_and_agrees_with_show_and_the_map(
    first_movement: Duo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duo = first_movement
    monkeypatch.setenv("PBEM_HOME", str(duo.axis.home))
    ws = str(duo.axis.ws.root)
    api = engine_link.api()
    state, _ = look.state_now(duo.axis.ws, duo.gid, duo.axis.home)
    _, units = api.stack(state, "axis", "[Berlin]")
    out = run("--workspace", ws, "hex", duo.gid, "[Berlin]").splitlines()
    shown = out[out.index(f"units ({len(units)}):") + 1 :]
    assert shown[: len(look.stack_lines(units))] == look.stack_lines(units)
    first = units[0]
    assert f"  {first.label} (axis): {first.numbers}; {first.supply}" in shown  # numbers in words
    assert "movement " in first.numbers  # its numbers in words, not "0-3-2-8"

    # Every unit `pbem show` calls out of supply is out of supply in `pbem hex` and on the
    # map, and no other: the three read the rules' supply now, not the last phase's record.
    listed = run("--workspace", ws, "show", duo.gid, "--all")
    out_by_show = {int(line.split()[0][1:]) for line in listed.splitlines() if line.endswith("(out of supply)")}
    picture = tmp_path / "now.svg"
    said = run("--workspace", ws, "map", duo.gid, "--region", "world", "--out", str(picture))
    root = ET.fromstring(picture.read_text(encoding="utf-8"))
    drawn = {int(g.get("data-unit", "")): g for g in root.iter(f"{SVG}g") if g.get("class") == "unit"}
    out_on_map = {uid for uid, g in drawn.items() if g.get("data-supplied") == "no"}
    by_hex = {
        u.id
        for h in {x.hex for x in state.units.values() if x.on_map and x.id in drawn}
        for u in api.stack(state, "axis", state.world.map.grid.label(h))[1]
        if u.supply == "out of supply"
    }
    assert out_by_show and out_by_show == out_on_map == by_hex
    # and on the month: the map's title is the month `pbem status` names
    assert root.get("data-date", "") in run("--workspace", ws, "status", duo.gid)
    assert "after file" in said
