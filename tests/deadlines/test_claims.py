"""Claims of a missed deadline, re-executed by the receiver and the auditor (real engine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit
from pbem.play.memplay import MemoryMatch
from pbem.protocol import clock, deadlines, dice, engine_link, gameoptions, machine, spec_verify, turnfile
from pbem.protocol.rules import PINNED_PLAYER
from pbem.protocol.turnfile import TurnFile
from tests.deadlines.helpers import HOUR, T0, Clock, match, next_body, play_to, refusal, replay, write


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def _claim(m: MemoryMatch, side: str) -> TurnFile:
    return m.claim(side)


def test_a_claim_before_the_deadline_is_refused_by_writer_and_receiver(now: Clock) -> None:
    m = match()
    assert machine.expected(m.game) == machine.Expectation("allies", "commit")
    now.set(T0 + HOUR - 1)
    with pytest.raises(PbemError) as exc:
        deadlines.seal_claim(m.game.clone(), "axis", m.ids["axis"].sign, m.chain_value("axis"))
    assert exc.value.code == "early"
    # A modified program writes it anyway: the receiver refuses it, from the signed times alone.
    state = engine_link.api().state_hash(m.game.state)
    body = next_body(m.game, "axis", "claim", time=T0 + HOUR - 1, due="commit", state=state)
    assert refusal(m.game, turnfile.seal(body, m.ids["axis"].sign)) == "early"
    body["time"] = T0 + HOUR
    assert refusal(m.game, turnfile.seal(body, m.ids["axis"].sign)) == ""


def test_reminder_then_the_bot_commits_for_the_silent_side_in_the_clear(now: Clock, tmp_path: Path) -> None:
    m = match()
    before = engine_link.api().state_hash(m.game.state)
    now.set(T0 + HOUR)
    _claim(m, "axis")
    assert m.game.reminded and engine_link.api().state_hash(m.game.state) == before
    assert machine.expected(m.game) == machine.Expectation("allies", "commit")  # still allies' decision
    now.set(T0 + 2 * HOUR - 1)  # the deadline runs again from the reminder
    with pytest.raises(PbemError, match="too early"):
        deadlines.seal_claim(m.game.clone(), "axis", m.ids["axis"].sign, m.chain_value("axis"))
    now.set(T0 + 2 * HOUR)
    _claim(m, "axis")
    p = m.game.pending
    assert isinstance(p, machine.SimStep) and p.played is not None and p.commit is None
    assert machine.expected(m.game) == machine.Expectation("axis", "sim")
    for _ in range(4):
        m.step()
    # Anyone re-executing the files reaches the same game: the bot's play is reproducible.
    again = replay(m.files)
    assert again.hashes == m.game.hashes
    assert engine_link.api().state_hash(again.state) == engine_link.api().state_hash(m.game.state)
    (rep,) = audit.audit_dir(write(m.files, tmp_path / "rec"))
    assert rep.files == len(m.files)


@pytest.mark.parametrize("silence", ["bot", "forfeit"])
def test_a_silent_reveal_is_only_ever_reminded_and_the_game_waits_for_it(now: Clock, silence: str) -> None:
    m = match(silence)
    play_to(m, 3)
    assert machine.expected(m.game) == machine.Expectation("allies", "reveal")
    before = engine_link.api().state_hash(m.game.state)
    for i in (1, 2, 3):  # a reveal is the program's: no claim for it is final, however many
        now.set(T0 + i * HOUR)
        tf = _claim(m, "axis")
        assert "dice" not in tf.body and tf.body["state"] == before
        assert m.game.reminded and not m.game.forfeited
        assert machine.expected(m.game) == machine.Expectation("allies", "reveal")
    m.step()  # the reveal comes at last, and the game goes on from it
    assert machine.winner(m.game) is None and machine.expected(m.game) is not None
    assert replay(m.files).hashes == m.game.hashes


def test_the_bot_plays_a_whole_sequential_decision(now: Clock) -> None:
    m = match()
    play_to(m, 8)
    assert machine.expected(m.game) == machine.Expectation("axis", "act")
    for i in (1, 2):
        now.set(T0 + i * HOUR)
        _claim(m, "allies")
    assert machine.expected(m.game) != machine.Expectation("axis", "act")
    m.step()
    m.step()
    assert replay(m.files).hashes == m.game.hashes


def test_forfeit_ends_the_game_and_later_files_are_refused(now: Clock, tmp_path: Path) -> None:
    m = match(silence="forfeit")
    for i in (1, 2):
        now.set(T0 + i * HOUR)
        _claim(m, "axis")
    assert m.game.forfeited == "allies" and machine.expected(m.game) is None
    late = next_body(m.game, "allies", "turn", records=[["commit", bytes(32)]], state=bytes(32), time=T0 + 3 * HOUR)
    now.set(T0 + 3 * HOUR)
    # A forfeit ends the game as a resignation does: the same refusal, the same winner.
    assert refusal(m.game, turnfile.seal(late, m.ids["allies"].sign)) == "over"
    assert machine.winner(m.game) == "axis" and "allies forfeited" in machine.outcome(m.game)
    with pytest.raises(PbemError, match="over"):
        deadlines.seal_claim(m.game.clone(), "axis", m.ids["axis"].sign, m.chain_value("axis"))
    (rep,) = audit.audit_dir(write(m.files, tmp_path / "rec"))
    assert rep.over and "allies forfeited" in rep.result


@pytest.mark.parametrize("silence", ["bot", "forfeit"])
def test_a_silent_dice_value_never_forfeits(now: Clock, silence: str) -> None:
    m = match(silence)
    play_to(m, 10)
    assert machine.expected(m.game) == machine.Expectation("axis", "dice")
    for i in (1, 2, 3):
        now.set(T0 + i * HOUR)
        _claim(m, "allies")
        assert not m.game.forfeited and machine.expected(m.game) == machine.Expectation("axis", "dice")
    m.step()  # axis's value comes at last, then allies' second one: the roll is made
    m.step()
    assert m.game.k == 1 and replay(m.files).hashes == m.game.hashes


def test_a_claim_by_the_side_the_game_waits_for_is_refused(now: Clock) -> None:
    m = match()
    now.set(T0 + HOUR)
    with pytest.raises(PbemError) as exc:
        deadlines.seal_claim(m.game.clone(), "allies", m.ids["allies"].sign, m.chain_value("allies"))
    assert exc.value.code == "claim"
    state = engine_link.api().state_hash(m.game.state)
    forged = next_body(m.game, "allies", "claim", time=T0 + HOUR, due="commit", state=state)
    assert refusal(m.game, turnfile.seal(forged, m.ids["allies"].sign)) == "claim"


def test_tampered_claims_are_refused(now: Clock) -> None:
    m = match()
    now.set(T0 + HOUR)
    good = deadlines.seal_claim(m.game.clone(), "axis", m.ids["axis"].sign, m.chain_value("axis"))
    base = m.game
    # One byte of the signed time changed: the signature no longer holds.
    raw = bytearray(good.raw)
    i = raw.index((T0 + HOUR).to_bytes(4, "big"))
    raw[i + 3] ^= 1
    with pytest.raises(PbemError) as exc:
        machine.authenticate(base.genesis, turnfile.parse(bytes(raw)), base)
    assert exc.value.code == "signature"
    # Re-signed by the claimant, but naming another record or another state: refused.
    wrong_due = next_body(base, "axis", "claim", time=T0 + HOUR, due="act", state=good.body["state"])
    assert refusal(base, turnfile.seal(wrong_due, m.ids["axis"].sign)) == "claim"
    wrong_state = next_body(base, "axis", "claim", time=T0 + HOUR, due="commit", state=bytes(32))
    assert refusal(base, turnfile.seal(wrong_state, m.ids["axis"].sign)) == "state"
    # The claimant's body signed by the other side's key.
    with pytest.raises(PbemError) as exc:
        machine.authenticate(base.genesis, turnfile.seal(dict(good.body), m.ids["allies"].sign), base)
    assert exc.value.code == "signature"


def test_times_are_required_ordered_and_not_from_the_future(now: Clock) -> None:
    m = match()
    g = m.game
    state = engine_link.api().state_hash(g.state)
    untimed = next_body(g, "allies", "turn", records=[["commit", bytes(32)]], state=state)
    assert refusal(g, turnfile.seal(untimed, m.ids["allies"].sign)) == "time"
    backdated = untimed | {"time": T0 - 1}
    assert refusal(g, turnfile.seal(backdated, m.ids["allies"].sign)) == "time"
    future = untimed | {"time": T0 + clock.TOLERANCE + 1}
    assert refusal(g, turnfile.seal(future, m.ids["allies"].sign)) == "time"
    at_limit = untimed | {"time": T0 + clock.TOLERANCE}
    assert refusal(g, turnfile.seal(at_limit, m.ids["allies"].sign)) == ""


def test_a_join_from_the_future_is_refused(now: Clock) -> None:
    m = match()
    genesis, join = m.files[0], m.files[1]
    body = dict(join.body) | {"time": T0 + clock.TOLERANCE + 1}
    ahead = turnfile.seal(body, m.ids["allies"].sign)
    with pytest.raises(PbemError) as exc:
        machine.start(genesis, machine.authenticate(machine.Genesis(genesis.body), ahead))
    assert exc.value.code == "time"


def test_a_game_without_deadline_has_no_times_and_no_claims() -> None:
    m = MemoryMatch("1937", seed=4, player="v1")
    assert "time" not in m.files[1].body and m.game.deadline == 0
    state = engine_link.api().state_hash(m.game.state)
    claim = next_body(m.game, "axis", "claim", time=T0 + 99 * HOUR, due="commit", state=state)
    assert refusal(m.game, turnfile.seal(claim, m.ids["axis"].sign)) == "claim"


def test_a_new_deadline_needs_both_signatures(now: Clock) -> None:
    m = match()
    g = m.game
    body = next_body(g, "axis", "terms", deadline=4 * HOUR, time=T0)
    consent = m.ids["allies"].sign(deadlines.terms_message(g.gid, body["seq"], body["prev"], 4 * HOUR))
    ok = turnfile.seal(body | {"consent": consent}, m.ids["axis"].sign)
    self_signed = m.ids["axis"].sign(deadlines.terms_message(g.gid, body["seq"], body["prev"], 4 * HOUR))
    assert refusal(g, turnfile.seal(body | {"consent": self_signed}, m.ids["axis"].sign)) == "signature"
    other_deadline = m.ids["allies"].sign(deadlines.terms_message(g.gid, body["seq"], body["prev"], 2 * HOUR))
    assert refusal(g, turnfile.seal(body | {"consent": other_deadline}, m.ids["axis"].sign)) == "signature"
    assert refusal(g, ok) == ""
    m.files.append(ok)
    g2 = replay(m.files)
    assert g2.deadline == 4 * HOUR
    now.set(T0 + HOUR)
    with pytest.raises(PbemError, match="too early"):
        deadlines.seal_claim(g2, "axis", m.ids["axis"].sign, m.chain_value("axis"))


def test_half_or_malformed_terms_are_refused_at_creation() -> None:
    for options in ({"deadline": HOUR}, {"silence": "bot"}, {"deadline": 60, "silence": "bot"}):
        with pytest.raises(PbemError):
            clock.terms(options)
    with pytest.raises(PbemError):
        clock.terms({"deadline": HOUR, "silence": "coin"})
    assert gameoptions.engine_options({"deadline": HOUR, "silence": "bot", "x": 1}) == {"x": 1}


def test_the_bot_is_seeded_by_the_claimants_next_dice_value_which_is_spent(now: Clock) -> None:
    m = match()
    now.set(T0 + HOUR)
    _claim(m, "axis")
    state_before = m.game.clone().state
    anchor = m.game.chain["axis"]
    now.set(T0 + 2 * HOUR)
    final = _claim(m, "axis")
    value = final.body["dice"]
    # The value is axis's next chain value: fixed by its anchor, secret until the claim came.
    assert value == m.chain_value("axis")(1) and dice.step(value) == anchor
    p = m.game.pending
    assert isinstance(p, machine.SimStep) and p.played is not None
    seed = deadlines.bot_seed(m.gid, final.seq, 0, value)
    bot = engine_link.ai().decide(state_before, "allies", seed, player=PINNED_PLAYER)
    assert p.played == [a.to_wire() for a in bot]
    # Spent: axis's first roll reveals its second chain value, and every receiver agrees.
    while m.game.k == 0:
        assert m.step() is not None
    assert m.game.chain["axis"] == m.chain_value("axis")(2)
    assert replay(m.files).hashes == m.game.hashes
    assert spec_verify.verify([tf.raw for tf in m.files], now=clock.now()).valid
