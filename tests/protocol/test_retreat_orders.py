"""The defender's retreat order as a reaction order (pbem/play/reactions.py, ``retreat``):
the program gives the engine's standing order ``retreat HEX ...`` for its side, in the
clear, in the side's next decision taken move by move; the engine applies it to every
later combat roll (tests/engine/test_combat.py shows where it sends a stack)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import combat
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import reactions, turn
from pbem.protocol import engine_link, machine, replay, turnfile
from pbem.protocol.records import Act
from pbem.protocol.turnfile import other
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo
from tests.protocol.test_reactions import _files, _play


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def _warsaw(duo: Duo) -> int:
    game = duo.game("allies")
    return int(engine_link.api().parse_order(game.state, "allies", "retreat [Warsaw]").args[0])


def _retreat_acts(files: list[turnfile.TurnFile]) -> list[tuple[turnfile.TurnFile, int]]:
    return [
        (tf, i)
        for tf in files
        for i, rec in enumerate(tf.body.get("records", []))
        if rec[0] == "act" and rec[1][0] == "retreat"
    ]


def test_the_program_gives_the_retreat_order_once_marked_standing(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    p = duo.player("allies")
    given, written = turn.react(p.ws, duo.gid, home=p.home, retreat="toward:Warsaw")
    assert written == [] and given.retreat == "toward" and given.toward == (_warsaw(duo),)
    assert "retreats: toward" in given.words() and "(Warsaw)" in given.words() and "in the clear" in given.words()
    # The Allies' first decision taken move by move: the order waits in the pending turn,
    # ahead of the person's own orders, marked as given by standing orders.
    asked = _play(duo, "1939-10", stop_at_mine="allies")
    assert asked[-1] == ("allies", "interception")
    lg = LocalGame(p.ws, duo.gid, p.home)
    pending = lg.pending()
    assert [r.to_wire() for r in pending.records] == [["act", ["retreat", _warsaw(duo)]]]
    assert pending.standing == [0]
    assert reactions.retreat_order(lg, turn.my_turn(lg).work) is None  # in force: not given twice
    _play(duo, "1939-10")
    files = _files(duo)
    acts = _retreat_acts(files)
    assert len(acts) == 1
    tf, i = acts[0]
    assert tf.side == "allies" and i in tf.body["standing"]
    # Both sides' programs hold it in the state, which the files re-execute to.
    for side in ("axis", "allies"):
        assert duo.game(side).state.toward == {"allies": (_warsaw(duo),)}
    assert replay.replay(files).state.toward == {"allies": (_warsaw(duo),)}


def test_bot_withdraws_the_order_in_force_and_ask_leaves_it(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    _play(duo, "1939-10", stop_at_mine="allies")
    p = duo.player("allies")
    lg = LocalGame(p.ws, duo.gid, p.home)
    work = turn.my_turn(lg).work
    assert reactions.retreat_order(lg, work) is None  # "ask", the default: the person decides
    lg.meta["reactions"] = reactions.Reactions(retreat="bot").to_json()
    assert reactions.retreat_order(lg, work) is None  # nothing in force: nothing to withdraw
    engine_link.api().apply(work.state, "allies", engine_link.api().Action("retreat", (_warsaw(duo),)))
    withdrawal = reactions.retreat_order(lg, work)
    assert withdrawal is not None and withdrawal.to_wire() == ["act", ["retreat"]]
    lg.meta["reactions"] = reactions.Reactions().to_json()
    assert reactions.retreat_order(lg, work) is None  # "ask": what the person ordered stays


def test_the_order_cannot_be_slipped_into_a_roll_nor_given_for_the_other_side(
    real_engine: None, tmp_path: Path
) -> None:
    """Fixed before the dice like ``stand``: a retreat order between the trigger of a roll
    and its dice is refused, and one side cannot order the other's retreats."""
    duo = make_duo(tmp_path, "1939")
    _play(duo, "1939-10")
    files = _files(duo)
    rolled = next(
        (tf, i)
        for tf in files
        for i, rec in enumerate(tf.body.get("records", []))
        if rec[0] == "dice" and tf.seq > 2 and i == 0
    )
    game = replay.replay(files, upto=rolled[0].seq - 1)
    dicer = rolled[0].side
    order = Act(["retreat", _warsaw(duo)])
    for side in (dicer, other(dicer)):
        with pytest.raises(PbemError) as refused:
            machine.apply_record(game.clone(), side, rolled[0].seq, order)
        assert "out of turn: the game awaits 'dice'" in str(refused.value)
    exp = machine.expected(game)
    assert exp is not None and exp.kind == "dice"


def test_the_react_command_takes_the_retreat_order_and_refuses_a_wrong_one(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    runner = CliRunner()
    ws = str(duo.allies.ws.root)
    env = {"PBEM_HOME": str(duo.allies.home)}
    out = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", "toward:[Warsaw]"], env=env)
    assert out.exit_code == 0, out.output
    assert "retreats: toward" in out.output and "(Warsaw)" in out.output
    out = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", "bot"], env=env)
    assert out.exit_code == 0 and "retreats: the engine picks" in out.output
    for bad, says in (
        ("sideways", "is not ask, bot or toward:PLACE"),
        ("toward:", "is not ask, bot or toward:PLACE"),
        ("bot:Warsaw", "is not ask, bot or toward:PLACE"),
        ("toward:Atlantis", "no city named Atlantis"),
        ("toward:[Warsaw] [Warsaw]", "name each place once"),
    ):
        refused = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", bad], env=env)
        assert refused.exit_code != 0 and says in refused.output, (bad, refused.output)
        assert "Traceback" not in refused.output
    kept = LocalGame(duo.allies.ws, duo.gid, duo.allies.home).meta["reactions"]
    assert kept["retreat"] == "bot"  # a refused order changes nothing
    # What the command refuses is what the engine would: nothing is lost when the program gives it.
    assert reactions.MAX_TOWARD == combat.MAX_TOWARD
