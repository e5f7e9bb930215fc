"""`pbem show` on the real engine: my countries, units and the orders allowed now."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine import api
from engine.supply import SupplyWords
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import exchange, show, turn
from pbem.protocol import engine_link, wire
from pbem.store import keys, overview
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace


@pytest.fixture
def players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    engine_link.use(None)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    # the global --workspace option sets this variable: let monkeypatch undo it afterwards
    monkeypatch.setenv("PBEM_WORKSPACE", str(tmp_path))
    return tmp_path / "alice", tmp_path / "bot"


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_show_lists_money_units_and_legal_orders(players: tuple[Path, Path], tmp_path: Path) -> None:
    alice, bot = players
    run("keygen", "alice")
    run("keygen", "bot")
    run("key", "export", "bot", "-o", str(tmp_path / "bot.pub"))
    gid = run("--workspace", str(alice), "new", "--scenario", "1939", "--side", "allies", "--me", "alice",
              "--opponent", str(tmp_path / "bot.pub")).split()[0]  # fmt: skip
    (bot / "inbox").mkdir(parents=True)
    invitation = next((alice / "outbox").glob("*.pbem"))
    (bot / "inbox" / invitation.name).write_bytes(invitation.read_bytes())
    alice_fp = keys.read_public_key(tmp_path / "home" / "alice.pub").fingerprint
    run("--workspace", str(bot), "join", str(bot / "inbox" / invitation.name), "--me", "bot",
        "--expect-fingerprint", alice_fp)  # fmt: skip

    out = run("--workspace", str(bot), "show", gid, "--legal", "3")
    assert "War declaration" in out and "war_declaration" not in out
    assert "Germany" in out and "1000B" in out  # the scenario's starting money
    assert "orders you may give now" in out and "declare Poland" in run("--workspace", str(bot), "show", gid,
                                                                          "--legal", "0", "--no-units")  # fmt: skip

    # after listing an order, show previews the list: the order is shown as listed
    orders = tmp_path / "orders.txt"
    orders.write_text("declare Poland\n")
    run("--workspace", str(bot), "orders", gid, str(orders))
    assert "listed so far (1): declare Poland" in run("--workspace", str(bot), "show", gid, "--no-units")


def test_show_of_an_unknown_game_is_one_line_and_non_zero(players: tuple[Path, Path]) -> None:
    alice, _ = players
    alice.mkdir()
    result = CliRunner().invoke(app, ["--workspace", str(alice), "show", "0123456789ab"])
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 and "no game 0123456789ab" in result.output


# -- a 1939 game past its first deployment, shared by the tests below -------------------


@dataclass
class War:
    gid: str
    alice: Path  # the allies' workspace
    home: Path

    def state(self) -> Any:
        game = LocalGame(Workspace(self.alice), self.gid).game()
        assert game is not None
        return game.state

    def show(self, *args: str, code: int = 0) -> str:
        result = CliRunner().invoke(app, ["--workspace", str(self.alice), *args])
        assert result.exit_code == code, result.output
        return result.output


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> Iterator[War]:
    root = tmp_path_factory.mktemp("war")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PBEM_HOME", str(root / "home"))
        mp.delenv("PBEM_WORKSPACE", raising=False)
        engine_link.use(None)
        run("keygen", "alice")
        run("keygen", "bot")
        run("key", "export", "bot", "-o", str(root / "bot.pub"))
        ws = {"allies": Workspace(root / "alice"), "axis": Workspace(root / "bot")}
        gid = run("--workspace", str(ws["allies"].root), "new", "--scenario", "1939", "--side", "allies", "--me",
                  "alice", "--opponent", str(root / "bot.pub")).split()[0]  # fmt: skip
        for w in ws.values():
            w.inbox.mkdir(parents=True, exist_ok=True)
        invitation = next(ws["allies"].outbox.glob("*.pbem"))
        alice_fp = keys.read_public_key(root / "home" / "alice.pub").fingerprint
        run("--workspace", str(ws["axis"].root), "join", str(invitation), "--me", "bot",
            "--expect-fingerprint", alice_fp)  # fmt: skip
        delivered = {invitation.name}
        for _ in range(40):
            for side, other in (("axis", "allies"), ("allies", "axis")):
                w = ws[side]
                for f in sorted(w.inbox.glob("*.pbem")):
                    exchange.import_file(w.root, f)
                if exchange.game_info(w.root, gid).my_turn:
                    turn.bot_play(w, gid)
                _overview_is_the_games(w, gid, side)
                for f in sorted(w.outbox.glob("*.pbem")):
                    if f.name not in delivered:
                        delivered.add(f.name)
                        shutil.copy(f, ws[other].inbox / f.name)
            game = LocalGame(ws["allies"], gid).game()
            assert game is not None
            placed = {game.state.countries[u.country].side for u in game.state.units.values() if u.on_map}
            if {"axis", "allies"} <= placed and api.decision(game.state).phase not in ("war_declaration", "deployment"):
                break
        else:
            raise AssertionError("the first deployment did not end")
        for f in sorted(ws["allies"].inbox.glob("*.pbem")):
            exchange.import_file(ws["allies"].root, f)
        yield War(gid, ws["allies"].root, root / "home")
    engine_link.use(None)


def _overview_is_the_games(ws: Workspace, gid: str, side: str) -> None:
    """The overview each command stored (from the game it held) is the one the bytes give."""
    d = ws.game_dir(gid)
    stored = overview.read(ws, gid)
    pending = d / "pending"
    rebuilt = overview.build((d / "snapshot").read_bytes(), pending.read_bytes() if pending.exists() else None, side)
    assert stored is not None and stored == json.loads(json.dumps(rebuilt))


@pytest.fixture
def looking(war: War, monkeypatch: pytest.MonkeyPatch) -> War:
    engine_link.use(None)
    monkeypatch.setenv("PBEM_HOME", str(war.home))
    monkeypatch.delenv("PBEM_WORKSPACE", raising=False)
    return war


def _listed_ids(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\s+(?:\d+\s+)?#(\d+) ", text, re.MULTILINE)]


def test_enemy_units_are_the_other_sides_units_with_hex_and_counter(looking: War) -> None:
    state = looking.state()
    enemy = {u.id: u for u in state.units.values() if state.countries[u.country].side == "axis"}
    out = looking.show("show", looking.gid, "--enemy")
    supply = SupplyWords(state)  # the rules' reading now, as `pbem hex` and the map read it
    assert sorted(_listed_ids(out)) == sorted(enemy)
    assert f"enemy units ({len(enemy)}):" in out and "\nmy units" not in out
    for u in enemy.values():
        line = next(x for x in out.splitlines() if x.strip().startswith(f"#{u.id} "))
        assert u.profile().text() in line  # the counter's numbers
        if u.on_map:
            assert state.world.map.grid.label(u.hex) in line
            city = state.world.map.city_at.get(u.hex)
            assert city is None or f"[{city.name}]" in line
        assert ("out of supply" in line) == supply.out(u)
    mine = {u.id for u in state.units.values() if state.countries[u.country].side == "allies"}
    assert sorted(_listed_ids(looking.show("show", looking.gid))) == sorted(mine)
    both = looking.show("show", looking.gid, "--all")
    assert sorted(_listed_ids(both)) == sorted(mine | set(enemy))


def test_country_filter_lists_that_countrys_units_of_either_side(looking: War) -> None:
    state = looking.state()
    german = sorted(u.id for u in state.units.values() if u.country == "Germany")
    assert german
    out = looking.show("show", looking.gid, "--country", "germany")
    assert sorted(_listed_ids(out)) == german
    assert "Germany" in out and "China " not in out
    wrong = looking.show("show", looking.gid, "--country", "Germny", code=1)
    assert "did you mean Germany?" in wrong and wrong.count("\n") == 1


def test_near_a_city_lists_exactly_the_units_within_the_radius(looking: War) -> None:
    state = looking.state()
    grid, berlin = state.world.map.grid, state.world.map.city_by_name["berlin"].hex
    for radius in (0, 3):
        within = {u.id for u in state.units.values() if u.on_map and grid.distance(berlin, u.hex) <= radius}
        out = looking.show("show", looking.gid, "--all", "--near", "[Berlin]", "--radius", str(radius))
        assert set(_listed_ids(out)) == within
        assert f"within {radius} hexes of {grid.label(berlin)} [Berlin]" in out
    assert set(
        _listed_ids(looking.show("show", looking.gid, "--all", "--near", grid.label(berlin), "--radius", "3"))
    ) == {u.id for u in state.units.values() if u.on_map and grid.distance(berlin, u.hex) <= 3}
    wrong = looking.show("show", looking.gid, "--near", "Berlinn", code=1)
    assert "there is no city named Berlinn; did you mean Berlin?" in wrong


def test_where_finds_a_unit_and_the_units_in_a_city(looking: War) -> None:
    state = looking.state()
    grid = state.world.map.grid
    u = next(u for u in sorted(state.units.values(), key=lambda u: u.id) if u.on_map)
    line = looking.show("where", looking.gid, f"#{u.id}")
    assert line.startswith(u.label()) and grid.label(u.hex) in line
    city = next(c for c in state.world.map.city_at.values() if any(x.hex == c.hex for x in state.units.values()))
    out = looking.show("where", looking.gid, city.name, "--radius", "0")
    assert set(_listed_ids(out)) == {x.id for x in state.units.values() if x.hex == city.hex}
    assert f"in {grid.label(city.hex)} [{city.name}]" in out
    assert "has no unit #99999" in looking.show("where", looking.gid, "#99999", code=1)
    assert "did you mean" in looking.show("where", looking.gid, "Warsw", code=1)


def test_output_never_shows_an_internal_hex_number(looking: War) -> None:
    state = looking.state()
    internal = {str(u.hex) for u in state.units.values() if u.on_map and u.hex >= state.world.map.grid.width}
    out = looking.show("show", looking.gid, "--all")
    words = set(re.findall(r"(?<![\d,#])\d{4,}(?![\d,])", out))
    assert not words & internal


def test_a_missing_or_stale_overview_is_rebuilt_never_shown(looking: War) -> None:
    ws = Workspace(looking.alice)
    d = ws.game_dir(looking.gid)
    stored = (d / "overview").read_bytes()
    ov = json.loads(stored)
    # written in the same commit as the snapshot: it names the snapshot's bytes
    assert ov["snapshot"] == hashlib.sha256((d / "snapshot").read_bytes()).hexdigest()
    line = looking.show("status", looking.gid)
    # an older game without an overview: computed again, and the same answer
    (d / "overview").unlink()
    assert looking.show("status", looking.gid) == line
    assert (d / "overview").read_bytes() == stored
    # an overview of other bytes (here: claiming another date) is not believed
    ov["position"]["when"] = "1999-01"
    (d / "overview").write_text(json.dumps(ov))
    assert overview.read(ws, looking.gid) is not None  # still names the same snapshot ...
    ov["snapshot"] = "0" * 64
    (d / "overview").write_text(json.dumps(ov))
    assert overview.read(ws, looking.gid) is None  # ... but not once the snapshot differs
    assert looking.show("status", looking.gid) == line and "1999" not in line
    assert (d / "overview").read_bytes() == stored
    # one that names the right bytes but lacks a part of an overview is not believed either
    partial = json.loads(stored)
    del partial["sides"]
    (d / "overview").write_text(json.dumps(partial))
    assert overview.read(ws, looking.gid) is None
    assert looking.show("status", looking.gid) == line
    assert (d / "overview").read_bytes() == stored


def test_a_damaged_meta_json_is_one_line_and_non_zero(looking: War) -> None:
    meta = Workspace(looking.alice).game_dir(looking.gid) / "meta.json"
    kept = meta.read_bytes()
    try:
        for damaged in (b"{not json", json.dumps({"game": looking.gid, "side": "allies"}).encode()):
            meta.write_bytes(damaged)
            out = looking.show("status", looking.gid, code=1)
            assert out.count("\n") == 1 and "meta.json is damaged" in out and "Traceback" not in out
    finally:
        meta.write_bytes(kept)
    assert looking.show("status", looking.gid)


def test_a_long_unsent_list_is_shown_by_its_length_and_last_orders() -> None:
    listed = [f"place_land Germany infantry 3 1 {i},50" for i in range(238)]
    line = show.listed_line(listed)
    assert line.startswith(f"listed so far: 238 orders, the last {show.LISTED_SHOWN}: ")
    assert line.endswith("; ".join(listed[-show.LISTED_SHOWN :])) and listed[0] not in line
    assert len(line) < 400
    assert show.listed_line(listed[:2]) == "listed so far (2): " + "; ".join(listed[:2])


def test_a_private_file_that_is_not_a_map_is_refused_as_damage(looking: War) -> None:
    lg = LocalGame(Workspace(looking.alice), looking.gid)
    for rel, read in ((lg.paths.secrets, lg.secrets), (lg.paths.ahead, lg.ahead)):
        path = lg.paths.path(rel)
        kept = path.read_bytes() if path.exists() else None
        try:
            path.write_bytes(wire.pack([1, 2]))
            with pytest.raises(PbemError, match="is damaged") as refused:
                read()
            assert refused.value.code == "store"
        finally:
            path.unlink()
            if kept is not None:
                path.write_bytes(kept)
        assert isinstance(read(), dict)
