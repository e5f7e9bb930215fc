"""A whole game between two players, and the commands a person uses on the way."""

from __future__ import annotations

import pytest

from pbem.errors import PbemError
from pbem.play import audit, status, turn
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo


def test_game_runs_to_the_end_and_both_sides_agree(duo: Duo) -> None:
    duo.play_until(lambda d: d.to_move() is None)
    a, b = duo.game("axis"), duo.game("allies")
    assert a.hashes == b.hashes and a.k == b.k == 6
    reports = audit.audit_dir(duo.out)
    assert reports[0].files == a.seq + 1 and reports[0].rolls == 6 and reports[0].over


def test_orders_undo_send_for_a_person(duo: Duo) -> None:
    # The joiner (allies) commits first to the opening simultaneous decision.
    p = duo.allies
    st = status.lines(p.ws, duo.gid, p.home)[0]
    assert "your move" in st and f"pbem orders {duo.gid}" in st
    turn.orders(p.ws, duo.gid, ["declare 1", "declare 2"], p.home)
    assert turn.take_back(p.ws, duo.gid, p.home).taken == "declare 2"
    with pytest.raises(PbemError, match="line 2"):
        turn.orders(p.ws, duo.gid, ["declare 1", "fly to the moon"], p.home)
    assert turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).pending.sim == [["declare", 1]]
    turn.send(p.ws, duo.gid, p.home)
    (res,) = duo.deliver("axis")
    assert res.status == "applied"
    # Axis answers in the clear; the allied reveal and the combat dice then flow automatically.
    turn.orders(duo.axis.ws, duo.gid, ["declare 3"], duo.axis.home)
    turn.send(duo.axis.ws, duo.gid, duo.axis.home)
    (res,) = duo.deliver("allies")
    assert res.replies, "the reveal is an automatic answer"
    duo.deliver("axis")
    assert (
        duo.game("axis").state.d["decl"]
        == duo.game("allies").state.d["decl"]
        == [["axis", "declare", 3], ["allies", "declare", 1]]
    )
    # Axis must now move: a sequential decision cannot be sent unfinished.
    turn.orders(duo.axis.ws, duo.gid, ["move 1"], duo.axis.home)
    with pytest.raises(PbemError, match="not finished"):
        turn.send(duo.axis.ws, duo.gid, duo.axis.home)
    turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home)
    # The decision is complete but still here: status must say so, not send the player
    # waiting for an opponent who has received nothing.
    (line,) = status.lines(duo.axis.ws, duo.gid, duo.axis.home)
    assert "2 orders not sent: run `pbem send" in line and "waiting" not in line, line
    turn.send(duo.axis.ws, duo.gid, duo.axis.home)
    assert "waiting for the Allies" in status.lines(duo.axis.ws, duo.gid, duo.axis.home)[0]
    with pytest.raises(PbemError, match="not your turn"):
        turn.orders(duo.axis.ws, duo.gid, ["pass"], duo.axis.home)


def test_an_illegal_hidden_list_is_blamed_on_its_sender_by_the_engine_s_fields(duo: Duo) -> None:
    """The protocol reads whose list the engine refuses from the refusal's ``side`` field,
    never from its sentence, and the slug of the rule reaches the player's error."""
    p = duo.allies
    with pytest.raises(PbemError, match="line 3") as err:
        turn.orders(p.ws, duo.gid, ["declare 1", "declare 2", "declare 3"], p.home)
    assert err.value.code == "illegal"
    assert err.value.rule == "list.length"


def test_a_game_is_named_by_the_start_of_its_id(duo: Duo) -> None:
    """A person types a few characters of the id; a prefix that fits no game or several
    games is refused with the ids to choose from."""
    ws = duo.allies.ws
    assert ws.resolve_game(duo.gid) == duo.gid
    assert ws.resolve_game(duo.gid[:3]) == duo.gid
    assert ws.resolve_game(duo.gid[:3].upper()) == duo.gid
    with pytest.raises(PbemError, match=f"the games here are {duo.gid}"):
        ws.resolve_game("zz")
    (ws.store / "games" / (duo.gid[:3] + "000000000")).mkdir()
    (ws.store / "games" / (duo.gid[:3] + "000000000") / "meta.json").write_text("{}")
    with pytest.raises(PbemError, match="give more of it"):
        ws.resolve_game(duo.gid[:3])
