"""My hidden list is checked by one draft per command: linear in its length, never by
re-trying the whole list on a copy of the game after every line."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engine.ai
from engine import api
from engine.state import GameState
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import look, turn
from pbem.protocol import engine_link, machine
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many game states were built from bytes: every copy, clone and snapshot load."""
    count = [0]
    real = GameState.from_bytes.__func__  # type: ignore[attr-defined]

    def counted(cls: type[GameState], *args: object, **kwargs: object) -> GameState:
        count[0] += 1
        return real(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameState, "from_bytes", classmethod(counted))
    return count


def _at_deployment(tmp_path: Path) -> tuple[Duo, str, list[str]]:
    """A 1939 game whose deployment awaits a side's hidden list; that side and its
    computer player's orders for it, as text."""
    duo = make_duo(tmp_path, "1939")
    for _ in range(40):
        game = duo.game("axis")
        exp = machine.expected(game)
        assert exp is not None
        if api.decision(game.state).phase == "deployment" and exp.kind in ("commit", "sim"):
            break
        duo.step()
    else:
        raise AssertionError("deployment never reached")
    side = exp.side
    state = game.state
    lines = [api.format_action(state, a) for a in engine.ai.decide(state, side, bytes(32))]
    return duo, side, lines


def _stands(first_place: str, count: int) -> list[str]:
    """Standing orders for the stack the first order placed, changed back and forth: each
    is legal only after the ones before it."""
    where = first_place.split()[-1]
    return [f"stand {where} {'no' if i % 2 else 'yes'}" for i in range(count)]


def test_a_250_order_deployment_list_costs_no_more_state_copies_than_a_short_one(
    real_engine: None, tmp_path: Path, loads: list[int]
) -> None:
    duo, side, lines = _at_deployment(tmp_path)
    placements = [line for line in lines if line != "pass"]
    assert len(placements) >= 150, "the computer's opening deployment is a long list"
    lines = [*placements, *_stands(placements[0], 249 - len(placements)), "pass"]
    assert len(lines) == 250
    me = duo.player(side)
    backup = tmp_path / "backup"
    shutil.copytree(me.ws.root, backup)

    counts = {}
    for n in (10, 100, 250):
        shutil.rmtree(me.ws.root)
        shutil.copytree(backup, me.ws.root)
        loads[0] = 0
        turn.orders(me.ws, duo.gid, lines[:n], home=me.home)
        counts[n] = loads[0]
    # The snapshot, my turn's working copy and the draft: the same few whatever the length
    # (re-trying the list on a copy after every line took three per line).
    assert counts[10] == counts[100] == counts[250] <= 4, counts
    # Sealing reads the stored list back and checks it once, whatever its length.
    loads[0] = 0
    turn.send(me.ws, duo.gid, home=me.home)
    assert loads[0] <= 5, loads[0]


def test_an_order_the_list_so_far_rules_out_is_refused_and_names_its_line(real_engine: None, tmp_path: Path) -> None:
    duo, side, lines = _at_deployment(tmp_path)
    me = duo.player(side)
    # Two stacks fit in a hex; the third placement there is refused by the two before it.
    with pytest.raises(PbemError, match=rf"^line 3: your orders for deployment: illegal: {side} order 3 ") as err:
        turn.orders(me.ws, duo.gid, [lines[0]] * 3, home=me.home)
    assert err.value.code == "illegal" and err.value.rule == "stacking.land"
    # Nothing was listed: a file of orders is all or nothing.
    assert LocalGame(me.ws, duo.gid, me.home).pending().sim is None
    turn.orders(me.ws, duo.gid, [lines[0]] * 2, home=me.home)
    assert LocalGame(me.ws, duo.gid, me.home).pending().sim is not None


def test_a_pass_closes_my_hidden_list(real_engine: None, tmp_path: Path) -> None:
    """`pass` then another order, or a second `pass` given later, is refused with one line
    naming the line, and nothing of the file is listed."""
    duo, side, lines = _at_deployment(tmp_path)
    me = duo.player(side)
    with pytest.raises(PbemError, match=r"^line 2: .*the list already ended with pass") as err:
        turn.orders(me.ws, duo.gid, ["pass", lines[0]], home=me.home, force=True)
    assert err.value.rule == "decision.list-ended"
    assert LocalGame(me.ws, duo.gid, me.home).pending().sim is None
    turn.orders(me.ws, duo.gid, [lines[0], "pass"], home=me.home, force=True)
    with pytest.raises(PbemError, match=r"^line 1: .*the list already ended with pass"):
        turn.orders(me.ws, duo.gid, ["pass"], home=me.home, force=True)
    assert len(LocalGame(me.ws, duo.gid, me.home).pending().sim or []) == 2


def test_every_wrong_line_of_an_orders_file_is_told_at_once(
    real_engine: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duo, side, lines = _at_deployment(tmp_path)
    me = duo.player(side)
    given = [lines[0], "place_land Atlantis infantry 3 1 [Berlin]", "# a comment", "fly away", lines[1], lines[0],
             lines[0]]  # fmt: skip
    with pytest.raises(PbemError) as err:
        turn.orders(me.ws, duo.gid, given, home=me.home)
    assert err.value.head.startswith("3 wrong lines, nothing added")
    numbers = [d.split(":")[0] for d in err.value.details]
    # The third placement in the first hex is refused by the two before it (line 7); line 6
    # is the second there and is fine once lines 1 and 5 are.
    assert numbers == ["line 2", "line 4", "line 7"], err.value.details
    assert err.value.code == "illegal"  # the first wrong line's
    assert LocalGame(me.ws, duo.gid, me.home).pending().sim is None

    orders_file = tmp_path / "orders.txt"
    orders_file.write_text("\n".join(given) + "\n")
    monkeypatch.setenv("PBEM_HOME", str(me.home))
    done = CliRunner().invoke(app, ["--workspace", str(me.ws.root), "orders", duo.gid, str(orders_file)])
    assert done.exit_code == 1
    out = done.output.splitlines()
    assert out[0].startswith("error: 3 wrong lines, nothing added")
    assert [line.split(":")[0] for line in out[1:]] == ["  line 2", "  line 4", "  line 7"]
    assert "Traceback" not in done.output


def test_a_deployment_lists_placements_first_and_names_cities_in_the_suggestion(
    real_engine: None, tmp_path: Path
) -> None:
    duo, side, _ = _at_deployment(tmp_path)
    me = duo.player(side)
    head, *shown = look.legal_lines(me.ws, duo.gid, look.LegalFilter(), 5, home=me.home)
    assert head.startswith(f"{head.split()[0]} legal order(s) for the {side} in deployment, first 5")
    assert all(line.split()[0] == "place_land" for line in shown), shown
    proposal = turn.suggest(me.ws, duo.gid, home=me.home).splitlines()
    named = [line for line in proposal if not line.startswith("#") and "  # " in line]
    assert named, "a 1939 deployment places units in cities"
    state = duo.game(side).state
    for line in named[:20]:
        order, _, cities = line.partition("  # ")
        args = api.parse_order(state, side, order).args
        for city in cities.split(", "):
            # Each name is the city of one of the order's hexes.
            assert api.parse_order(state, side, f"fortify [{city}]").args[0] in args, line
    # The commented proposal is given back as it stands.
    assert "order(s) added" in turn.orders(me.ws, duo.gid, proposal, home=me.home, force=True).words()
