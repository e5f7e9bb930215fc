"""Attacks on the protocol: each is refused with one line and leaves the local game unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import exchange, games, status, turn
from pbem.protocol import commit, machine, turnfile, wire
from pbem.protocol.hashing import D_SIGN
from pbem.protocol.records import Act
from pbem.protocol.turnfile import TurnFile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from tests.protocol import fakeengine
from tests.protocol.conftest import Duo, make_duo


def drop(duo: Duo, side: str, tf: TurnFile | bytes, name: str = "evil.pbem") -> exchange.ImportResult:
    """Import ``tf`` into ``side``'s workspace through its inbox."""
    me = duo.player(side)
    me.ws.inbox.mkdir(parents=True, exist_ok=True)
    path = me.ws.inbox / name
    path.write_bytes(tf.raw if isinstance(tf, TurnFile) else tf)
    return exchange.import_file(me.ws.root, path, home=me.home)


def refused(duo: Duo, side: str, tf: TurnFile | bytes, code: str | None = None) -> exchange.ImportResult:
    before = duo.snapshot(side)
    res = drop(duo, side, tf)
    assert res.status == "rejected", res.message
    assert "\n" not in res.message and res.message
    if code:
        assert res.code == code, res.message
    assert duo.snapshot(side) == before, "a refused file changed the local game"
    return res


def allies_commit(duo: Duo) -> TurnFile:
    """Allies seal their opening commitment (file 2) without delivering it."""
    p = duo.allies
    turn.bot_play(p.ws, duo.gid, home=p.home)
    (path,) = duo.outbox("allies")
    return turnfile.read(path)


# -- authenticity ------------------------------------------------------------------------


def test_forged_signature(duo: Duo) -> None:
    tf = allies_commit(duo)
    raw = bytearray(tf.raw)
    raw[-5] ^= 0x40
    assert "signature" in refused(duo, "axis", bytes(raw), "signature").message


def test_signed_with_another_key(duo: Duo, tmp_path: Path) -> None:
    tf = allies_commit(duo)
    mallory = keys.keygen("mallory", directory=tmp_path / "mallory")
    refused(duo, "axis", turnfile.seal(tf.body, mallory.sign), "signature")


def test_axis_cannot_sign_for_allies(duo: Duo) -> None:
    tf = allies_commit(duo)
    refused(duo, "axis", turnfile.seal(tf.body, duo.axis.ident().sign), "signature")


def test_every_flipped_byte_of_a_real_file_is_refused(duo: Duo) -> None:
    tf = allies_commit(duo)
    before = duo.snapshot("axis")
    for i in range(len(tf.raw)):
        raw = bytearray(tf.raw)
        raw[i] ^= 0x01
        res = drop(duo, "axis", bytes(raw), f"flip{i}.pbem")
        assert res.status == "rejected", f"byte {i}: {res.message}"
    assert duo.snapshot("axis") == before
    assert drop(duo, "axis", tf).status == "applied"


# -- one linear history --------------------------------------------------------------------


def test_duplicate_and_replay_are_harmless(duo: Duo) -> None:
    tf = allies_commit(duo)
    assert drop(duo, "axis", tf).status == "applied"
    before = duo.snapshot("axis")
    for _ in range(2):
        res = drop(duo, "axis", tf)
        assert res.status == "duplicate" and duo.snapshot("axis") == before
    join = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).history_file(1)
    assert join is not None and drop(duo, "axis", join).status == "duplicate"


def test_file_from_another_game(duo: Duo, tmp_path: Path) -> None:
    other = make_duo(tmp_path / "second")
    tf = allies_commit(other)
    assert "not joined" in refused(duo, "axis", tf, "game").message
    # The same content re-signed under this game's id fails the link to the previous file.
    body = dict(tf.body, game=duo.gid)
    refused(duo, "axis", duo.forge("allies", body), "chain-link")


def test_out_of_turn_file(duo: Duo) -> None:
    body = duo.next_body("axis", [["commit", os.urandom(32)]])
    refused(duo, "allies", duo.forge("axis", body), "order")


def test_wrong_sequence_types(duo: Duo) -> None:
    tf = allies_commit(duo)
    body = dict(tf.body, type="join", anchor=os.urandom(32), chain=5, seq=1)
    del body["records"]
    # Position 1 already holds the real join file: a second signed one is equivocation.
    assert drop(duo, "axis", duo.forge("allies", body)).code == "equivocation"


def _allies_deploy_then_move(duo: Duo) -> list[TurnFile]:
    """Bring the game to the allied deployment and have allies send three files in a row."""
    duo.play_until(lambda d: fakeengine.decision(d.game("allies").state).phase == "allies.deploy")
    p = duo.allies
    files = []
    for lines in (["deploy 1"], ["pass"], ["build 1"]):
        turn.orders(p.ws, duo.gid, lines, p.home)
        files.append(turnfile.read(turn.send(p.ws, duo.gid, p.home)))
    return files


def test_gap_is_stored_then_filled(duo: Duo) -> None:
    a, b, c = _allies_deploy_then_move(duo)
    assert [f.seq for f in (a, b, c)] == [a.seq, a.seq + 1, a.seq + 2]
    head = duo.game("axis").seq
    assert drop(duo, "axis", c, "c.pbem").status == "stored"
    assert drop(duo, "axis", c, "c2.pbem").status == "duplicate"
    assert drop(duo, "axis", b, "b.pbem").status == "stored"
    assert duo.game("axis").seq == head
    res = drop(duo, "axis", a, "a.pbem")
    assert res.status == "applied", res.message
    assert duo.game("axis").seq == c.seq
    assert duo.game("axis").hashes == duo.game("allies").hashes
    assert not list((duo.axis.ws.game_dir(duo.gid) / "waiting").glob("*"))


def test_a_file_beyond_a_second_gap_stays_stored(duo: Duo) -> None:
    a, b, c = _allies_deploy_then_move(duo)
    assert drop(duo, "axis", c, "c.pbem").status == "stored"
    assert drop(duo, "axis", a, "a.pbem").status == "applied"
    assert duo.game("axis").seq == a.seq
    assert len(list((duo.axis.ws.game_dir(duo.gid) / "waiting").glob("*.pbem"))) == 1
    assert drop(duo, "axis", b, "b.pbem").status == "applied"
    assert duo.game("axis").seq == c.seq


def test_equivocation_between_a_waiting_file_and_a_late_one(duo: Duo) -> None:
    a, b, _ = _allies_deploy_then_move(duo)
    # A valid alternative to b, signed by allies, arrives early and waits for a.
    g = duo.game("axis").clone()
    machine.apply_turn(g, machine.authenticate(g.genesis, a))
    twin = machine.build_turn(g, "allies", [Act(["move", 1]), Act(["pass"])], duo.allies.ident().sign)
    assert twin.seq == b.seq and twin.hash != b.hash
    assert drop(duo, "axis", twin, "twin.pbem").status == "stored"
    assert drop(duo, "axis", a, "a.pbem").status == "applied"  # the twin fills b's position
    assert duo.game("axis").seq == b.seq
    res = drop(duo, "axis", b, "b.pbem")
    assert res.code == "equivocation"
    evidence = {p.read_bytes() for p in (duo.axis.ws.game_dir(duo.gid) / "evidence").glob("*.pbem")}
    assert evidence == {b.raw, twin.raw}


def test_forged_file_waiting_in_a_gap_is_refused_when_its_turn_comes(duo: Duo) -> None:
    a, b, _ = _allies_deploy_then_move(duo)
    bad = duo.forge("allies", dict(b.body, records=[["act", ["move", 1]]]))
    assert drop(duo, "axis", bad, "bad.pbem").status == "stored"
    res = drop(duo, "axis", a, "a.pbem")
    assert res.status == "applied" and "dropped waiting file" in res.message
    assert duo.game("axis").seq == a.seq
    assert drop(duo, "axis", b, "b.pbem").status == "applied"


def test_equivocation_is_kept_as_evidence(duo: Duo) -> None:
    tf = allies_commit(duo)
    assert drop(duo, "axis", tf).status == "applied"
    game_before = duo.game("axis").to_bytes()
    twin = duo.forge("allies", dict(tf.body, records=[["commit", os.urandom(32)]]))
    res = drop(duo, "axis", twin)
    assert res.status == "rejected" and res.code == "equivocation" and "EQUIVOCATION" in res.message
    evidence = sorted((duo.axis.ws.game_dir(duo.gid) / "evidence").glob("*.pbem"))
    assert {p.read_bytes() for p in evidence} == {tf.raw, twin.raw}
    assert duo.game("axis").to_bytes() == game_before
    assert "DISPUTED" in status.lines(duo.axis.ws, duo.gid, duo.axis.home)[0]


def test_equivocation_among_waiting_files(duo: Duo) -> None:
    _, b, _ = _allies_deploy_then_move(duo)
    assert drop(duo, "axis", b, "b.pbem").status == "stored"
    twin = duo.forge("allies", dict(b.body, records=[["act", ["move", -1]], ["act", ["pass"]]]))
    assert drop(duo, "axis", twin, "twin.pbem").code == "equivocation"


# -- legality by re-execution ------------------------------------------------------------------


def _to_axis_move(duo: Duo) -> None:
    duo.play_until(lambda d: fakeengine.decision(d.game("allies").state).phase == "axis.move")


def test_illegal_action_in_a_validly_signed_file(duo: Duo) -> None:
    _to_axis_move(duo)
    for act in (["move", 7], ["build", 1], ["teleport"], ["move", "x"]):
        body = duo.next_body("axis", [["act", act], ["act", ["pass"]]])
        assert refused(duo, "allies", duo.forge("axis", body), "illegal")


def test_state_hash_mismatch(duo: Duo) -> None:
    _to_axis_move(duo)
    body = duo.next_body("axis", [["act", ["move", 1]], ["act", ["pass"]]], state=os.urandom(32))
    assert "state hash" in refused(duo, "allies", duo.forge("axis", body), "state").message


def test_a_file_must_end_with_records_in_turn(duo: Duo) -> None:
    _to_axis_move(duo)
    body = duo.next_body("axis", [["act", ["pass"]], ["act", ["pass"]]])
    refused(duo, "allies", duo.forge("axis", body), "order")


# -- commit-reveal ---------------------------------------------------------------------------


def test_reveal_must_match_commitment(duo: Duo) -> None:
    assert drop(duo, "axis", allies_commit(duo)).status == "applied"
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)  # axis answers in the clear
    assert duo.deliver("allies")[0].replies  # allies reveal automatically (not delivered yet)
    (real,) = [turnfile.read(p) for p in duo.outbox("allies")]
    assert real.body["records"][0][0] == "reveal"
    _, actions, salt = real.body["records"][0]
    changed = [["declare", (actions[0][1] + 1) % 4]] if actions else [["declare", 1]]
    for fake_actions, fake_salt in (
        ([*actions, ["declare", 0]], salt),
        (changed, salt),
        ([], salt),
        (actions, os.urandom(32)),
    ):
        body = dict(real.body, records=[["reveal", fake_actions, fake_salt]])
        assert "commitment" in refused(duo, "axis", duo.forge("allies", body), "commit").message
    assert drop(duo, "axis", real).status == "applied"


def test_commitment_hides_and_binds() -> None:
    salt = os.urandom(32)
    c = commit.commitment("0123456789ab", 2, "allies", [["declare", 1]], salt)
    assert commit.matches(c, "0123456789ab", 2, "allies", [["declare", 1]], salt)
    for args in (
        ("0123456789ab", 3, "allies", [["declare", 1]]),
        ("0123456789ab", 2, "axis", [["declare", 1]]),
        ("ffffffffffff", 2, "allies", [["declare", 1]]),
        ("0123456789ab", 2, "allies", [["declare", 2]]),
    ):
        assert not commit.matches(c, *args, salt)


# -- dice ----------------------------------------------------------------------------------------


def _to_first_dice(duo: Duo) -> TurnFile:
    """Play until allies owe the first combat dice value; return that (undelivered) file."""
    _to_axis_move(duo)
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    res = duo.deliver("allies")
    assert res[0].status == "applied" and res[0].replies
    (path,) = duo.outbox("allies")
    tf = turnfile.read(path)
    assert tf.body["records"][0][0] == "dice"
    return tf


def test_dice_value_must_hash_onto_the_chain(duo: Duo) -> None:
    real = _to_first_dice(duo)
    _, k, value = real.body["records"][0]
    anchor = duo.game("axis").chain["allies"]
    for bad in (os.urandom(32), anchor, bytes(32)):
        body = dict(real.body, records=[["dice", k, bad]])
        assert "chain" in refused(duo, "axis", duo.forge("allies", body), "chain").message
    body = dict(real.body, records=[["dice", k + 1, value]])
    refused(duo, "axis", duo.forge("allies", body), "chain")
    assert drop(duo, "axis", real).status == "applied"


def test_the_mover_reveals_last(duo: Duo) -> None:
    real = _to_first_dice(duo)
    # Axis (whose file triggered the combat roll) may not reveal before allies: a verifier
    # holding the history up to the trigger refuses an axis dice file at that position.
    g = duo.game("axis")
    assert g.seq + 1 == real.seq
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    body = duo.next_body("axis", [["dice", g.k + 1, lg.dice_value(g, g.k + 1)]])
    body["prev"], body["seq"] = g.hashes[-1], g.seq + 1
    with pytest.raises(PbemError, match="awaits 'dice' from allies") as err:
        machine.apply_turn(g.clone(), machine.authenticate(g.genesis, duo.forge("axis", body)))
    assert err.value.code == "order"


def test_seed_is_independent_of_what_each_side_holds_before_deciding(duo: Duo) -> None:
    """When a side fixes its part of a chance event it holds its own chain value and the
    other side's *previous* one; the seed needs the other side's next value, which is a
    SHA-256 preimage of what it holds. We show that every quantity the mover holds when it
    seals its declarations is the same whatever the other side's secret is, while the seed
    changes with it: the mover's information is independent of the outcome."""
    from pbem.protocol import dice

    gid, trig = "0123456789ab", os.urandom(32)
    mover_secret = os.urandom(32)
    mover_value = dice.value(mover_secret, 100, 1)
    seeds = set()
    for _ in range(20):
        other_secret = os.urandom(32)
        other_anchor = dice.anchor(other_secret, 100)
        # What the mover knows of the other side: its anchor. Two different secrets with the
        # same anchor cannot be found (preimage resistance), so the mover's view before the
        # reveal is a function of the anchor only, and the next value is unpredictable from it.
        b1 = dice.value(other_secret, 100, 1)
        assert dice.check_reveal(other_anchor, b1)
        seeds.add(dice.seed(gid, 1, trig, mover_value, b1))
    assert len(seeds) == 20
    # And the values are fixed since the start: the same secret always yields the same chain.
    assert dice.value(mover_secret, 100, 1) == mover_value


def test_rolls_cannot_be_retried(duo: Duo) -> None:
    """Save-scumming: a player re-running its side from the same history gets the same values,
    so the same roll; every value it could send is fixed by its anchor."""
    duo.play_until(lambda d: d.game("axis").k >= 2)
    from pbem.play import audit

    again = audit.audit_dir(duo.out)[0]
    assert again.rolls >= 2
    g = duo.game("axis")
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    assert lg.dice_value(g, g.k) == g.chain["axis"]  # recomputed from the key alone


# -- same game, same rules -------------------------------------------------------------------


def test_different_scenario_data_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    duo = make_duo(tmp_path)
    genesis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).genesis()
    monkeypatch.setattr(fakeengine, "scenario_digest", lambda name: "0" * 64)
    p = tmp_path / "inv.pbem"
    p.write_bytes(genesis.raw)
    with pytest.raises(PbemError, match="differs"):
        machine.check_genesis(turnfile.read(p))


def test_different_engine_version_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    duo = make_duo(tmp_path)
    genesis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).genesis()
    monkeypatch.setattr(fakeengine, "ENGINE_VERSION", "fake-2")
    with pytest.raises(PbemError, match="version"):
        machine.check_genesis(genesis)


def test_join_with_a_different_start_position_is_refused(duo: Duo, tmp_path: Path) -> None:
    # A joiner whose engine computes another initial state is caught at the join file.
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    genesis, join = lg.genesis(), lg.history_file(1)
    assert join is not None
    forged = turnfile.seal(dict(join.body, state=os.urandom(32)), duo.allies.ident().sign)
    with pytest.raises(PbemError, match="starting position"):
        machine.start(genesis, machine.authenticate(machine.Genesis(genesis.body), forged))


def test_invitation_for_someone_else(duo: Duo, tmp_path: Path) -> None:
    keys.keygen("carol", directory=tmp_path / "carol")
    genesis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).genesis()
    p = tmp_path / "inv.pbem"
    p.write_bytes(genesis.raw)
    from pbem.store.store import Workspace

    with pytest.raises(PbemError, match="not for identity"):
        games.join(Workspace(tmp_path / "carol-ws"), p, "carol", home=tmp_path / "carol")


def test_neither_contribution_depends_on_the_trigger(duo: Duo) -> None:
    """Whatever the mover declares, the other side's value for the roll is the same (it was
    fixed at join), and so is the mover's own: the only input a side chooses after the
    anchors are pinned is its declarations, which it fixes without knowing the other value."""
    _to_axis_move(duo)
    base = duo.game("allies")
    lg_allies = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    lg_axis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    values = set()
    for moves in (
        [Act(["move", 1]), Act(["pass"])],
        [Act(["pass"])],
        [Act(["move", -1]), Act(["move", -1]), Act(["pass"])],
    ):
        g = base.clone()
        tf = machine.build_turn(g, "axis", moves, duo.axis.ident().sign)
        assert machine.expected(g) == machine.Expectation("allies", "dice")
        first = lg_allies.auto_record(g)
        assert first is not None
        machine.apply_record(g, "allies", tf.seq + 1, first)
        second = lg_axis.auto_record(g)
        assert second is not None
        values.add((first.value, second.value))
    assert len(values) == 1


@pytest.mark.parametrize(
    "address",
    ["bob@example.org\n", "bob@example.org, eve@example.org", "Bob <bob@example.org>", "bob@example.org\r\nBcc: eve"],
)
def test_an_invitation_may_not_smuggle_recipients_into_its_addresses(duo: Duo, address: str) -> None:
    """A signed invitation whose address holds a line break or several addresses is refused
    when read, before any mail is sent to it or any bot stores it."""
    genesis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).genesis()
    emails = dict(genesis.body["emails"], allies=address)
    # Signed by the real inviter, bypassing the sealing checks an honest program makes.
    body = wire.pack(dict(genesis.body, emails=emails))
    signature = duo.axis.ident().sign(D_SIGN + body)
    forged = turnfile.MAGIC + len(body).to_bytes(4, "big") + body + signature
    with pytest.raises(PbemError, match="one plain e-mail address"):
        turnfile.parse(forged)


def test_an_identity_takes_one_plain_address() -> None:
    assert keys.check_email("ann@example.org") == "ann@example.org"
    for bad in ("ann@example.org\n", "ann@example.org,eve@example.org", "ann@", "Ann <ann@example.org>"):
        with pytest.raises(PbemError, match="not an e-mail address"):
            keys.check_email(bad)
