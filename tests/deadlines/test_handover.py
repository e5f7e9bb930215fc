"""Hand-over of a side to another key, checked by the opponent and the auditor (real engine)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import PbemError
from pbem.play import audit
from pbem.play.memplay import MemoryMatch
from pbem.protocol import dice, handover, machine, turnfile
from pbem.store import keys
from tests.deadlines.helpers import Clock, match, play_to, refusal, replay, write


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def _ident(name: str) -> keys.Identity:
    return keys.Identity(name, "", Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest()))


NEW = _ident("new-holder")
SECRET = hashlib.sha256(b"new-holder dice").digest()
CHAIN = dice.DEFAULT_LENGTH  # the length MemoryMatch uses for both sides


def _accepted(m: MemoryMatch, side: str, by: keys.Identity = NEW) -> dict[str, object]:
    offer = handover.offer(m.game, side, NEW.public.raw)
    return handover.accept(offer, dice.anchor(SECRET, CHAIN), CHAIN, by.sign)


def _take_over(m: MemoryMatch, side: str) -> turnfile.TurnFile:
    tf = handover.seal(m.game, _accepted(m, side), m.ids[side].sign)
    m.files.append(tf)
    m.ids[side], m.secret[side] = NEW, SECRET
    return tf


def test_the_new_holder_plays_on_through_rolls_and_everyone_agrees(now: Clock, tmp_path: Path) -> None:
    m = match()
    play_to(m, 8)  # axis is to act: no secret of its own is open
    rolls = m.game.k
    _take_over(m, "axis")
    assert m.game.keys["axis"] == NEW.public.raw and m.game.chain_base["axis"] == rolls
    play_to(m, 25)  # two more rolls, axis revealing values of the new chain
    assert m.game.k >= rolls + 2
    assert replay(m.files).hashes == m.game.hashes
    (rep,) = audit.audit_dir(write(m.files, tmp_path / "rec"))
    assert rep.files == len(m.files)


def test_a_file_by_the_old_key_after_the_hand_over_is_refused(now: Clock) -> None:
    m = match()
    play_to(m, 8)
    old = m.ids["axis"]
    _take_over(m, "axis")
    m.ids["axis"] = old  # the old holder tries to go on playing
    forged = m.step()
    assert forged is not None
    with pytest.raises(PbemError) as exc:
        replay(m.files)
    assert exc.value.code == "signature"


def test_a_hand_over_not_countersigned_by_the_new_key_is_refused(now: Clock) -> None:
    m = match()
    play_to(m, 8)
    body = _accepted(m, "axis", by=_ident("somebody else"))
    with pytest.raises(PbemError) as exc:
        handover.seal(m.game.clone(), body, m.ids["axis"].sign)
    assert exc.value.code == "signature"
    # A countersignature over another position does not carry over either.
    moved = dict(_accepted(m, "axis")) | {"seq": m.game.seq + 2}
    with pytest.raises(PbemError):
        handover.seal(m.game.clone(), moved, m.ids["axis"].sign)


def test_a_hand_over_by_the_wrong_key_or_side_is_refused(now: Clock) -> None:
    m = match()
    play_to(m, 8)
    body = _accepted(m, "axis")
    g = m.game
    by_opponent = turnfile.seal(dict(body) | {"time": g.clock}, m.ids["allies"].sign)
    with pytest.raises(PbemError) as exc:
        machine.authenticate(g.genesis, by_opponent, g)
    assert exc.value.code == "signature"
    # Allies may not hand their side over while axis is to play.
    offer = dict(body) | {"side": "allies"}
    allies = handover.accept(offer, dice.anchor(SECRET, CHAIN), CHAIN, NEW.sign)
    assert refusal(g, turnfile.seal(allies | {"time": g.clock}, m.ids["allies"].sign)) == "handover"
    # Nor to the opponent's own key.
    with pytest.raises(PbemError):
        handover.offer(g, "axis", m.ids["allies"].public.raw)


def test_no_hand_over_while_the_side_owes_a_reveal(now: Clock) -> None:
    m = match()
    play_to(m, 3)
    assert machine.expected(m.game) == machine.Expectation("allies", "reveal")
    with pytest.raises(PbemError) as exc:
        handover.offer(m.game, "allies", NEW.public.raw)
    assert exc.value.code == "handover"
    offer = {"v": 1, "type": "handover", "game": m.game.gid, "seq": m.game.seq + 1, "prev": m.game.hashes[-1]}
    offer |= {"side": "allies", "key": NEW.public.raw}
    body = handover.accept(offer, dice.anchor(SECRET, CHAIN), CHAIN, NEW.sign)
    tf = turnfile.seal(body | {"time": m.game.clock}, m.ids["allies"].sign)
    assert refusal(m.game, tf) == "handover"


def test_a_hand_over_works_in_a_game_without_deadline() -> None:
    m = MemoryMatch("1937", seed=5, player="v1")
    play_to(m, 8)
    tf = _take_over(m, "axis")
    assert "time" not in tf.body
    play_to(m, 14)
    assert replay(m.files).hashes == m.game.hashes
