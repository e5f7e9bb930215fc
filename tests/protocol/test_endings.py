"""Resignation and draws: signed records in the chain, judged by both players' programs,
and the attacks on them (wrong key, an acceptance without an offer, orders after the end)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import finish, status, turn
from pbem.protocol import machine, turnfile
from pbem.protocol.turnfile import other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo
from tests.protocol.test_attacks import allies_commit, drop, refused


def due(duo: Duo) -> str:
    side = duo.to_move()
    assert side is not None
    return side


def my_move(duo: Duo, side: str) -> bool:
    """Whether ``side``'s own store (its pending automatic records included) awaits it."""
    p = duo.player(side)
    exp = machine.expected(turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work)
    return exp is not None and exp.side == side


def write(duo: Duo, side: str, kind: str) -> str:
    p = duo.player(side)
    return finish.write(p.ws, duo.gid, kind, p.home)


def status_line(duo: Duo, side: str) -> str:
    return status.lines(duo.player(side).ws, duo.gid)[0]


def state_now(duo: Duo, side: str) -> bytes:
    from pbem.protocol import engine_link

    return engine_link.api().state_hash(duo.game(side).state)


def test_resignation_ends_the_game_for_both(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    loser = due(duo)
    line = write(duo, loser, "resign")
    assert f"{loser} resigned" in line and f"{other(loser)} win" in line
    for res in duo.deliver(other(loser)):
        assert res.status == "applied", res.message
    for side in ("axis", "allies"):
        game = duo.game(side)
        assert machine.expected(game) is None
        assert game.result is not None and game.result.winner == other(loser)
        assert f"the game is over: {loser} resigned" in status_line(duo, side)
    # A finished game refuses further orders and another resignation.
    p = duo.player(other(loser))
    with pytest.raises(PbemError, match="over"):
        turn.bot_play(p.ws, duo.gid, home=p.home)
    with pytest.raises(PbemError, match="over"):
        write(duo, other(loser), "resign")


def test_a_file_after_the_end_is_refused(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    loser = due(duo)
    write(duo, loser, "resign")
    duo.deliver(other(loser))
    # The winner forges its next file all the same: "orders after the end".
    body = duo.next_body(other(loser), [["act", ["pass"]]], state_now(duo, loser))
    assert "over" in refused(duo, loser, duo.forge(other(loser), body), "over").message
    body = duo.next_body(other(loser), [["resign"]], state_now(duo, loser))
    refused(duo, loser, duo.forge(other(loser), body), "over")


def test_a_record_after_a_resignation_in_the_same_file_is_refused(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    loser = due(duo)
    body = duo.next_body(loser, [["resign"], ["act", ["pass"]]], state_now(duo, loser))
    refused(duo, other(loser), duo.forge(loser, body), "over")


def test_resignation_signed_by_the_wrong_key(duo: Duo, tmp_path: Path) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    loser = due(duo)
    winner = other(loser)
    body = duo.next_body(loser, [["resign"]], state_now(duo, winner))
    # The opponent cannot resign in the loser's name, nor can a stranger.
    refused(duo, winner, duo.forge(loser, body, key=duo.player(winner).ident()), "signature")
    mallory = keys.keygen("mallory", directory=tmp_path / "mallory")
    refused(duo, winner, duo.forge(loser, body, key=mallory), "signature")
    assert drop(duo, winner, duo.forge(loser, body)).status == "applied"


def test_resignation_out_of_turn(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    waiting = other(due(duo))
    with pytest.raises(PbemError, match="not now") as err:
        write(duo, waiting, "resign")
    assert err.value.code == "turn"
    # A forged one in the waiting side's name takes a place that is not its own.
    body = duo.next_body(waiting, [["resign"]], state_now(duo, waiting))
    refused(duo, due(duo), duo.forge(waiting, body), "order")


def test_draw_offered_with_a_turn_and_accepted(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    offerer = due(duo)
    assert "goes out with your next file" in write(duo, offerer, "offer-draw")
    assert "your draw offer is open" in status_line(duo, offerer)
    p = duo.player(offerer)
    tf = turnfile.read(turn.bot_play(p.ws, duo.gid, home=p.home))
    assert tf.body["records"][0] == ["offer-draw"]
    duo.deliver(other(offerer))
    duo.deliver(offerer)  # the automatic answers, if any
    assert f"draw offered by {offerer}" in status_line(duo, other(offerer))
    duo.play_until(lambda d: my_move(d, other(offerer)))
    assert duo.game(other(offerer)).draw_offer == offerer
    line = write(duo, other(offerer), "accept-draw")
    assert "drawn by agreement" in line
    duo.deliver(offerer)
    for side in ("axis", "allies"):
        game = duo.game(side)
        assert game.result is not None and game.result.kind == "draw" and game.result.winner is None
        assert "drawn by agreement" in status_line(duo, side)


def test_draw_accepted_without_an_offer(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    side = due(duo)
    with pytest.raises(PbemError, match="nobody offered") as err:
        write(duo, side, "accept-draw")
    assert err.value.code == "draw-offer"
    body = duo.next_body(side, [["accept-draw"]], state_now(duo, side))
    refused(duo, other(side), duo.forge(side, body), "draw-offer")
    # Nor can a side accept its own offer.
    body = duo.next_body(side, [["offer-draw"], ["accept-draw"]], state_now(duo, side))
    refused(duo, other(side), duo.forge(side, body), "draw-offer")


def test_offer_declined_then_withdrawn_rules(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    side = due(duo)
    with pytest.raises(PbemError, match="no draw offer open"):
        write(duo, side, "withdraw-draw")
    write(duo, side, "offer-draw")
    with pytest.raises(PbemError, match="open already"):
        write(duo, side, "offer-draw")
    write(duo, side, "withdraw-draw")
    write(duo, side, "offer-draw")
    p = duo.player(side)
    turn.bot_play(p.ws, duo.gid, home=p.home)
    duo.deliver(other(side))
    duo.deliver(side)
    duo.play_until(lambda d: my_move(d, other(side)))
    write(duo, other(side), "decline-draw")
    q = duo.player(other(side))
    turn.bot_play(q.ws, duo.gid, home=q.home)
    duo.deliver(side)
    assert duo.game(side).draw_offer == "" and machine.expected(duo.game(side)) is not None
    assert "offer" not in status_line(duo, side)


def test_undo_takes_back_an_unsent_offer(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    side = due(duo)
    write(duo, side, "offer-draw")
    p = duo.player(side)
    assert turn.take_back(p.ws, duo.gid, p.home).taken == "your offer-draw"
    assert "offer" not in status_line(duo, side)


def test_no_acceptance_while_a_commitment_waits_to_be_opened(duo: Duo) -> None:
    tf = allies_commit(duo)  # file 2: allies commit; axis must send its list in the clear
    assert drop(duo, "axis", tf).status == "applied"
    axis = duo.axis
    write(duo, "axis", "offer-draw")  # offering is allowed: it binds only the offerer
    turn.bot_play(axis.ws, duo.gid, home=axis.home)
    (sent,) = duo.outbox("axis")
    clear = turnfile.read(sent)
    assert clear.body["records"][0] == ["offer-draw"] and clear.body["records"][1][0] == "sim"
    # Allies have seen axis' list and owe the opening of their commitment: accepting the
    # draw now would let them escape what their hidden list brings.
    g = duo.game("allies")
    machine.apply_turn(g, machine.authenticate(g.genesis, clear))
    body = {
        "v": 1,
        "type": "turn",
        "game": duo.gid,
        "seq": g.seq + 1,
        "prev": g.hashes[-1],
        "side": "allies",
        "records": [["accept-draw"]],
        "state": state_now(duo, "allies"),
    }
    forged = duo.forge("allies", body)
    with pytest.raises(PbemError, match="cannot be accepted") as err:
        machine.apply_turn(g.clone(), machine.authenticate(g.genesis, forged))
    assert err.value.code == "order"
