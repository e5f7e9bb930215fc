"""Claims and hand-overs between workspaces: what each player's program does with them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit, claim, contact, exchange, passing, status, terms, turn
from pbem.protocol import engine_link, handover, machine, turnfile, wire
from pbem.protocol.records import Dice
from pbem.protocol.turnfile import TurnFile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo, Player, make_duo
from tests.protocol.test_crash import cli

T0 = 1_800_000_000
HOUR = 3600


@pytest.fixture
def timed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Duo:
    monkeypatch.setenv("PBEM_NOW", str(T0))
    return make_duo(tmp_path, options={"deadline": HOUR, "silence": "bot"})


def _at(monkeypatch: pytest.MonkeyPatch, t: int) -> None:
    monkeypatch.setenv("PBEM_NOW", str(t))


def _agree(duo: Duo) -> bool:
    """Both players hold the same history once every file sent has arrived."""
    duo.deliver("allies")
    duo.deliver("axis")
    return duo.game("axis").hashes == duo.game("allies").hashes


def _claim(duo: Duo, side: str) -> str:
    p = duo.player(side)
    _, what = claim.claim(p.ws, duo.gid, p.home)
    return what


def test_reminder_then_bot_between_two_workspaces(timed: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    duo = timed
    assert duo.to_move() == "allies"
    _at(monkeypatch, T0 + HOUR - 60)
    with pytest.raises(PbemError, match="too early"):
        _claim(duo, "axis")
    _at(monkeypatch, T0 + HOUR)
    assert "reminder" in _claim(duo, "axis")
    mail = exchange.file_report(duo.axis.ws.root, duo.gid, 2, home=duo.axis.home)
    assert mail is not None and "a reminder" in mail["text"]
    (res,) = duo.deliver("allies")
    assert res.status == "applied", res.message
    assert duo.game("allies").reminded and duo.to_move() == "allies"
    _at(monkeypatch, T0 + 2 * HOUR)
    assert "final" in _claim(duo, "axis")
    for res in duo.deliver("allies"):
        assert res.status == "applied", res.message
    assert duo.game("axis").hashes == duo.game("allies").hashes
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    assert _agree(duo)
    (rep,) = audit.audit_dir(duo.out)
    assert rep.files == duo.game("axis").seq + 1


def test_receiver_refuses_an_early_claim_and_one_from_the_future(timed: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    duo = timed
    g = duo.game("allies")
    body = {"v": 1, "type": "claim", "game": duo.gid, "seq": g.seq + 1, "prev": g.hashes[-1], "side": "axis"}
    h = engine_link.api().state_hash(duo.game("axis").state)
    early = duo.forge("axis", body | {"time": T0 + HOUR - 1, "due": "commit", "state": h})
    path = duo.out / "early-claim.pbem"
    path.write_bytes(early.raw)
    _at(monkeypatch, T0 + 5 * HOUR)
    before = duo.snapshot("allies")
    res = exchange.import_file(duo.allies.ws.root, path, home=duo.allies.home)
    assert res.status == "rejected" and res.code == "early", res.message
    assert duo.snapshot("allies") == before
    # Dated ahead of the receiver's clock by more than the tolerance: refused as well.
    ahead = duo.forge("axis", body | {"time": T0 + 9 * HOUR, "due": "commit", "state": h})
    path.write_bytes(ahead.raw)
    res = exchange.import_file(duo.allies.ws.root, path, home=duo.allies.home)
    assert res.status == "rejected" and res.code == "time", res.message


def test_a_claim_overtakes_the_late_file_it_crossed(timed: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    duo = timed
    _at(monkeypatch, T0 + HOUR + 5)
    _claim(duo, "axis")  # axis claims ...
    p = duo.allies
    turn.bot_play(p.ws, duo.gid, home=p.home)  # ... while allies send their late decision
    late = duo.outbox("allies")
    (res,) = [exchange.import_file(duo.axis.ws.root, f, home=duo.axis.home) for f in late]
    assert res.status == "rejected" and res.code == "sequence"
    (res,) = duo.deliver("allies")
    assert res.status == "applied" and "withdrawn" in res.message, res.message
    assert duo.game("allies").hashes == duo.game("axis").hashes
    assert duo.to_move() == "allies"
    duo.play_until(lambda d: d.game("axis").seq >= 6)
    assert _agree(duo)


def test_status_shows_a_forfeit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "forfeit"})
    for i in (1, 2):
        _at(monkeypatch, T0 + i * HOUR)
        _claim(duo, "axis")
        duo.deliver("allies")
    line = status.lines(duo.allies.ws, duo.gid, duo.allies.home)[0]
    assert "game is over" in line and "axis win" in line
    with pytest.raises(PbemError):
        turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)


def test_hand_over_to_a_new_player_between_workspaces(tmp_path: Path) -> None:
    duo = make_duo(tmp_path)
    new_home, new_ws = tmp_path / "home-new", tmp_path / "ws-new"
    keys.keygen("newcomer", "new@example.org", directory=new_home)
    pub = keys.read_public_key(new_home / "newcomer.pub")
    ws = Workspace(new_ws)
    offer_dir = tmp_path / "offer"
    old = duo.allies
    passing.offer(old.ws, duo.gid, pub, offer_dir, home=old.home)
    gid, accepted = passing.accept(ws, offer_dir, "newcomer", home=new_home)
    path, _ = passing.seal(old.ws, gid, accepted, home=old.home)
    (res,) = duo.deliver("axis")
    assert res.status == "applied", res.message
    assert duo.game("axis").keys["allies"] == pub.raw
    res = exchange.import_file(ws.root, path, home=new_home)
    assert res.status == "applied", res.message
    # The old holder's join file, mailed again: the very bytes applied, not a forgery.
    join = LocalGame(duo.axis.ws, gid, duo.axis.home).history_file(1)
    assert join is not None
    again = tmp_path / "again.pbem"
    again.write_bytes(join.raw)
    assert exchange.import_file(duo.axis.ws.root, again, home=duo.axis.home).status == "duplicate"
    assert "already applied" in audit.verify_file(duo.axis.ws, again)
    # The newcomer plays on; the opponent accepts its files, the old holder's are refused.
    turn.bot_play(ws, gid, home=new_home)
    (sent,) = sorted(ws.outbox.glob("*.pbem"))[-1:]
    assert exchange.import_file(duo.axis.ws.root, sent, home=duo.axis.home).status == "applied"
    g = LocalGame(ws, gid, new_home).game()
    assert g is not None and g.hashes == duo.game("axis").hashes
    with pytest.raises(PbemError, match="handed your side over"):
        turn.bot_play(old.ws, gid, home=old.home)


def test_cli_new_with_a_deadline_and_claim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    for name in ("a", "b"):
        assert cli(["keygen", name, "--email", f"{name}@example.org"], home).returncode == 0
    ws = tmp_path / "ws"
    _at(monkeypatch, T0)
    run = cli(
        [
            "new",
            "--scenario",
            "tiny",
            "--side",
            "axis",
            "--me",
            "a",
            "--opponent",
            str(home / "b.pub"),
            "--deadline",
            "24",
            "--on-silence",
            "forfeit",
            "-w",
            str(ws),
        ],
        home,
    )
    assert run.returncode == 0, run.stderr
    (invite,) = (ws / "outbox").glob("*.pbem")
    opts = turnfile.read(invite).body["options"]
    assert opts == {"deadline": 24 * HOUR, "silence": "forfeit"}
    run = cli(["claim", run.stdout.strip(), "-w", str(ws)], home)
    assert run.returncode != 0 and "not joined" in run.stderr and "\n" not in run.stderr.strip()


def test_a_new_deadline_agreed_by_both(timed: Duo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    duo = timed
    consent = terms.agree(duo.allies.ws, duo.gid, 72, tmp_path / "consent", home=duo.allies.home)
    terms.settle(duo.axis.ws, duo.gid, consent, home=duo.axis.home)
    (res,) = duo.deliver("allies")
    assert res.status == "applied", res.message
    assert duo.game("allies").deadline == duo.game("axis").deadline == 72 * HOUR
    _at(monkeypatch, T0 + 71 * HOUR)
    with pytest.raises(PbemError, match="too early"):
        _claim(duo, "axis")
    # A consent is for one position: once another file is in, it is spent.
    again = terms.agree(duo.allies.ws, duo.gid, 24, tmp_path / "again", home=duo.allies.home)
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    duo.deliver("axis")
    with pytest.raises(PbemError, match="another position"):
        terms.settle(duo.axis.ws, duo.gid, again, home=duo.axis.home)


def test_new_terms_change_the_silence_rule_only_with_both_signatures(
    timed: Duo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    duo = timed
    # A consent to the deadline alone, with a silence rule written into it afterwards:
    # the program refuses to seal it, and a receiver would refuse the file (vectors).
    plain = terms.agree(duo.allies.ws, duo.gid, 1, tmp_path / "plain", home=duo.allies.home)
    doc = wire.unpack(plain.read_bytes())
    plain.write_bytes(wire.pack(doc | {"silence": "forfeit"}))
    with pytest.raises(PbemError, match="not signed"):
        terms.settle(duo.axis.ws, duo.gid, plain, home=duo.axis.home)
    # Both sign: the game now forfeits a silent side instead of letting the bot play for it.
    agree = ["deadline", "agree", duo.gid, "--hours", "1", "-w", str(duo.allies.ws.root)]
    run = cli([*agree, "--on-silence", "forfeit", "-o", str(tmp_path / "c")], duo.allies.home)
    assert run.returncode == 0, run.stderr
    terms.settle(duo.axis.ws, duo.gid, tmp_path / "c", home=duo.axis.home)
    (res,) = duo.deliver("allies")
    assert res.status == "applied", res.message
    assert duo.game("allies").silence == duo.game("axis").silence == "forfeit"
    for i in (1, 2):
        _at(monkeypatch, T0 + i * HOUR)
        _claim(duo, "axis")
        duo.deliver("allies")
    assert duo.game("allies").forfeited == duo.game("axis").forfeited == "allies"
    (rep,) = audit.audit_dir(duo.out)
    assert rep.over and "allies forfeited" in rep.result
    run = cli([*agree, "--on-silence", "later", "-o", str(tmp_path / "d")], duo.allies.home)
    assert run.returncode != 0 and run.stderr.strip().endswith("--on-silence must be one of bot, forfeit"), run.stderr


def test_a_hand_over_by_mail_is_sealed_only_for_the_key_offered_and_played_only_once_sealed(
    tmp_path: Path,
) -> None:
    duo = make_duo(tmp_path)
    new_home, ws = tmp_path / "home-new", Workspace(tmp_path / "ws-new")
    keys.keygen("newcomer", "new@example.org", directory=new_home)
    pub = keys.read_public_key(new_home / "newcomer.pub")
    old = duo.allies
    offer = passing.offer_by_mail(old.ws, duo.gid, pub, home=old.home)
    # An earlier offer kept with a file more: the new one replaces it whole.
    other = make_duo(tmp_path / "other")
    extra = LocalGame(other.axis.ws, other.gid, other.axis.home).history_file(0)
    assert extra is not None
    earlier = tmp_path / offer.name
    earlier.write_bytes(offer.read_bytes() + extra.raw)
    assert exchange.import_file(ws.root, earlier, home=new_home).status == "stored"
    res = exchange.import_file(ws.root, offer, home=new_home)
    assert res.status == "stored" and res.game_id == duo.gid, res.message
    kept = passing.kept_offer(ws, duo.gid)
    assert kept is not None
    _, acceptance = passing.accept(ws, kept, "newcomer", home=new_home, mail=True)
    assert acceptance.parent == ws.outbox
    # Countersigned, but not sealed yet: the newcomer may not play the side.
    assert not exchange.game_info(ws.root, duo.gid, home=new_home).my_turn
    with pytest.raises(PbemError, match="sealed hand-over arrives"):
        turn.bot_play(ws, duo.gid, home=new_home)
    assert status.lines(ws, duo.gid)[0].endswith("it is yours once the old holder's sealed hand-over arrives")
    # An acceptance by a key the side was not offered to is refused.
    intruder = keys.keygen("intruder", "x@example.org", directory=new_home)
    offered = wire.unpack((kept / passing.OFFER).read_bytes()) | {"key": intruder.public.raw}
    forged = handover.accept(offered, bytes(32), 16, keys.load("intruder", new_home).sign)
    bad = tmp_path / acceptance.name
    bad.write_bytes(passing.ACCEPT_MAGIC + wire.pack(forged))
    res = exchange.import_file(old.ws.root, bad, home=old.home)
    assert res.status == "rejected" and res.code == "handover", res.message
    # The genuine acceptance: the old holder's import seals; the sealed file makes the
    # newcomer the holder, who passes it on and plays.
    res = exchange.import_file(old.ws.root, acceptance, home=old.home)
    assert res.status == "applied" and "sealed" in res.message, res.message
    handed = old.ws.outbox / turnfile.filename(duo.gid, duo.game("allies").seq, "allies")
    assert exchange.game_info(old.ws.root, duo.gid, home=old.home).handover_peer == "new@example.org"
    res = exchange.import_file(ws.root, handed, home=new_home)
    assert res.status == "applied", res.message
    assert (ws.outbox / handed.name).exists() and exchange.game_info(ws.root, duo.gid, home=new_home).my_turn
    assert "your move" in status.lines(ws, duo.gid)[0]
    assert "you handed your side over to the key" in status.lines(old.ws, duo.gid)[0]
    turn.bot_play(ws, duo.gid, home=new_home)
    assert exchange.import_file(duo.axis.ws.root, handed, home=duo.axis.home).status == "applied"
    assert LocalGame(duo.axis.ws, duo.gid, duo.axis.home).meta["opponent_email"] == "new@example.org"


def test_after_a_hand_over_only_the_new_holders_contact_statements_count(tmp_path: Path) -> None:
    duo = make_duo(tmp_path)
    new_home, ws = tmp_path / "home-new", Workspace(tmp_path / "ws-new")
    keys.keygen("newcomer", "new@example.org", directory=new_home)
    old = duo.allies
    contact.set_email("allies-p", "old-2@example.org", old.home)
    before = contact.set_email("allies-p", "old-3@example.org", old.home)
    path = tmp_path / "statement.pbem"
    path.write_bytes(before.raw)
    assert exchange.import_file(duo.axis.ws.root, path, home=duo.axis.home).status == "applied"  # counter 2 seen
    offer_dir = tmp_path / "offer"
    passing.offer(old.ws, duo.gid, keys.read_public_key(new_home / "newcomer.pub"), offer_dir, home=old.home)
    gid, accepted = passing.accept(ws, offer_dir, "newcomer", home=new_home)
    sealed, _ = passing.seal(old.ws, gid, accepted, home=old.home)
    assert exchange.import_file(duo.axis.ws.root, sealed, home=duo.axis.home).status == "applied"
    axis_meta = lambda: LocalGame(duo.axis.ws, gid, duo.axis.home).meta  # noqa: E731
    assert axis_meta()["opponent_email"] == "new@example.org"
    # The old key no longer redirects the game's mail; the new holder's first statement does.
    stale = contact.set_email("allies-p", "old-4@example.org", old.home)
    assert contact.publish(old.ws, "allies-p", stale) == []  # a side handed over is not announced
    path.write_bytes(stale.raw)
    res = exchange.import_file(duo.axis.ws.root, path, home=duo.axis.home)
    assert res.status == "rejected" and res.code == "contact", res.message
    fresh = contact.set_email("newcomer", "new-2@example.org", new_home)
    assert fresh.counter == 1
    path.write_bytes(fresh.raw)
    res = exchange.import_file(duo.axis.ws.root, path, home=duo.axis.home)
    assert res.status == "applied", res.message
    assert axis_meta()["opponent_email"] == "new-2@example.org"


def test_overdue_lists_the_games_whose_opponent_missed_the_deadline(
    timed: Duo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duo = timed
    untimed = make_duo(tmp_path / "untimed")
    assert duo.to_move() == "allies"
    assert claim.overdue(duo.axis.ws) == claim.overdue(duo.allies.ws) == []
    _at(monkeypatch, T0 + HOUR)
    assert claim.overdue(duo.axis.ws) == [duo.gid]  # axis waits for allies
    assert claim.overdue(duo.allies.ws) == []  # allies are the ones to decide
    _at(monkeypatch, T0 + 999 * HOUR)
    assert claim.overdue(untimed.axis.ws) == claim.overdue(untimed.allies.ws) == []


def _dice_values(folder: Path, side: str, after: int = 0) -> list[bytes]:
    """The chain values ``side`` revealed in the files of ``folder`` after file ``after``."""
    files = sorted((turnfile.read(p) for p in folder.glob("*.pbem")), key=lambda tf: tf.seq)
    return [r.value for tf in files if tf.seq > after and tf.side == side for r in tf.records if isinstance(r, Dice)]


def _open(game: machine.Game, side: str) -> bool:
    e = machine.expected(game)
    return e is not None and e.side == side and e.kind in handover.OPEN_KINDS


def _hand(duo: Duo, side: str, to: Player, tmp_path: Path, name: str) -> TurnFile:
    """The side's holder hands it to ``to`` (a fresh workspace), which then plays it."""
    old = duo.player(side)
    duo.play_until(lambda d: _open(d.game(side), side) and d.game(side).hashes == d.game(turnfile.other(side)).hashes)
    offer_dir = tmp_path / name
    pub = keys.read_public_key(to.home / f"{to.name}.pub")
    passing.offer(old.ws, duo.gid, pub, offer_dir, home=old.home)
    gid, accepted = passing.accept(to.ws, offer_dir, to.name, home=to.home)
    sealed, _ = passing.seal(old.ws, gid, accepted, home=old.home)
    old.seen.add(sealed.name)
    shutil.copy(sealed, duo.out / sealed.name)
    for p in (duo.player(turnfile.other(side)), to):
        res = exchange.import_file(p.ws.root, sealed, home=p.home)
        assert res.status == "applied", res.message
    setattr(duo, side, to)
    return turnfile.read(sealed)


def test_a_side_handed_back_to_its_first_key_gets_a_chain_never_seen(tmp_path: Path) -> None:
    duo = make_duo(tmp_path)
    first = duo.allies
    join = LocalGame(first.ws, duo.gid, first.home).history_file(1)
    assert join is not None
    # B takes the allies' side, rolls with it, and hands it back to the key that joined.
    b = Player("allies", tmp_path / "home-b", Workspace(tmp_path / "ws-b"))
    keys.keygen(b.name, "b@example.org", directory=b.home)
    to_b = _hand(duo, "allies", b, tmp_path, "offer-b")
    k = duo.game("axis").k
    duo.play_until(lambda d: d.game("axis").k >= k + 2)
    back = Player("allies", first.home, Workspace(tmp_path / "ws-back"))
    to_a = _hand(duo, "allies", back, tmp_path, "offer-back")
    k = duo.game("axis").k
    duo.play_until(lambda d: d.game("axis").k >= k + 2)
    # The key that joined holds the side again, with a chain that starts elsewhere ...
    assert to_a.body["key"] == first.ident().public.raw
    anchors = [join.body["anchor"], to_b.body["anchor"], to_a.body["anchor"]]
    assert len(set(anchors)) == 3
    # ... and whose values were never revealed before it: not by its first chain, nor by B's.
    before = set(_dice_values(duo.out, "allies")) - set(_dice_values(duo.out, "allies", to_a.seq))
    again = _dice_values(duo.out, "allies", to_a.seq)
    assert again and not set(again) & (before | set(anchors[:2]))
    assert len(before) >= 2
    assert _agree(duo)
    (rep,) = audit.audit_dir(duo.out)
    assert rep.files == duo.game("axis").seq + 1


def test_seal_takes_only_the_offered_keys_acceptance_and_names_it(tmp_path: Path) -> None:
    duo = make_duo(tmp_path)
    new_home, ws = tmp_path / "home-new", Workspace(tmp_path / "ws-new")
    keys.keygen("newcomer", "new@example.org", directory=new_home)
    pub = keys.read_public_key(new_home / "newcomer.pub")
    old = duo.allies
    offer_dir = tmp_path / "offer"
    passing.offer(old.ws, duo.gid, pub, offer_dir, home=old.home)
    # Somebody who got hold of the offer countersigns it with a key of its own.
    intruder = keys.keygen("intruder", "x@example.org", directory=new_home)
    offered = wire.unpack((offer_dir / passing.OFFER).read_bytes()) | {"key": intruder.public.raw}
    forged = tmp_path / "forged"
    forged.write_bytes(wire.pack(handover.accept(offered, bytes(32), 16, intruder.sign)))
    before, sent = duo.snapshot("allies"), sorted(old.ws.outbox.iterdir())
    run = cli(["handover", "seal", duo.gid, str(forged), "-w", str(old.ws.root)], old.home)
    assert run.returncode != 0 and "offered no hand-over" in run.stderr and "Traceback" not in run.stderr
    assert pub.fingerprint in run.stderr  # the key that was offered the side
    assert duo.snapshot("allies") == before and sorted(old.ws.outbox.iterdir()) == sent
    # The newcomer's own acceptance is sealed, and the command names the key the side goes to.
    _, accepted = passing.accept(ws, offer_dir, "newcomer", home=new_home)
    run = cli(["handover", "seal", duo.gid, str(accepted), "-w", str(old.ws.root)], old.home)
    assert run.returncode == 0, run.stderr
    assert f"hand-over to the key {pub.fingerprint} written" in run.stdout
    assert duo.game("allies").keys["allies"] == pub.raw
